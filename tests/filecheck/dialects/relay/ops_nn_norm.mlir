// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// lrn: TVM's defaults omitted in custom form; every attribute; an even size; a `?` dim; rank 1.
// CHECK-LABEL: func.func @lrn
func.func @lrn(%x: tensor<2x5x3x3xf32>, %y: tensor<?x4xf16>, %z: tensor<7xf64>) -> tensor<2x5x3x3xf32> {
  // CHECK-NEXT: %0 = relay.nn.lrn %x : tensor<2x5x3x3xf32>
  // CHECK-NEXT: %1 = relay.nn.lrn %x {size = 3, axis = -1, bias = 1.0, alpha = 0.0001, beta = 0.5} : tensor<2x5x3x3xf32>
  // CHECK-NEXT: %2 = relay.nn.lrn %y {size = 4} : tensor<?x4xf16>
  // CHECK-NEXT: %3 = relay.nn.lrn %z {axis = 0, size = 1} : tensor<7xf64>
  // GENERIC: "relay.nn.lrn"(%x) <{size = 5 : i64, axis = 1 : i64, bias = 2.000000e+00 : f64, alpha = 1.000000e-05 : f64, beta = 7.500000e-01 : f64}> : (tensor<2x5x3x3xf32>) -> tensor<2x5x3x3xf32>
  // GENERIC: "relay.nn.lrn"(%x) <{size = 3 : i64, axis = -1 : i64, bias = 1.000000e+00 : f64, alpha = 1.000000e-04 : f64, beta = 5.000000e-01 : f64}> : (tensor<2x5x3x3xf32>) -> tensor<2x5x3x3xf32>
  // GENERIC: "relay.nn.lrn"(%y) <{size = 4 : i64, axis = 1 : i64, bias = 2.000000e+00 : f64, alpha = 1.000000e-05 : f64, beta = 7.500000e-01 : f64}> : (tensor<?x4xf16>) -> tensor<?x4xf16>
  // GENERIC: "relay.nn.lrn"(%z) <{axis = 0 : i64, size = 1 : i64, bias = 2.000000e+00 : f64, alpha = 1.000000e-05 : f64, beta = 7.500000e-01 : f64}> : (tensor<7xf64>) -> tensor<7xf64>
  %0 = relay.nn.lrn %x : tensor<2x5x3x3xf32>
  %1 = relay.nn.lrn %x {size = 3, axis = -1, bias = 1.0, alpha = 0.0001, beta = 0.5} : tensor<2x5x3x3xf32>
  %2 = relay.nn.lrn %y {size = 4} : tensor<?x4xf16>
  %3 = relay.nn.lrn %z {axis = 0, size = 1} : tensor<7xf64>
  func.return %0 : tensor<2x5x3x3xf32>
}
