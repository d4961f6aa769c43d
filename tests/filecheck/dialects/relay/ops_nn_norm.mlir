// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// lrn: TVM's defaults omitted in custom form; every attribute; an even size; a `?` dim; rank 1.
// CHECK-LABEL: func.func @lrn
func.func @lrn(%x: tensor<2x5x3x3xf32>, %y: tensor<?x4xf16>, %z: tensor<7xf64>) -> tensor<2x5x3x3xf32> {
  // CHECK-NEXT: %0 = relay.nn.lrn %x : tensor<2x5x3x3xf32>
  // CHECK-NEXT: %1 = relay.nn.lrn %x {size = 3, axis = -1, bias = 1.0, alpha = 0.0001, beta = 0.5} : tensor<2x5x3x3xf32>
  // CHECK-NEXT: %2 = relay.nn.lrn %y {size = 4} : tensor<?x4xf16>
  // CHECK-NEXT: %3 = relay.nn.lrn %z {size = 1, axis = 0} : tensor<7xf64>
  // GENERIC: "relay.nn.lrn"(%x) <{size = 5 : i64, axis = 1 : i64, bias = 2.000000e+00 : f64, alpha = 1.000000e-05 : f64, beta = 7.500000e-01 : f64}> : (tensor<2x5x3x3xf32>) -> tensor<2x5x3x3xf32>
  // GENERIC: "relay.nn.lrn"(%x) <{size = 3 : i64, axis = -1 : i64, bias = 1.000000e+00 : f64, alpha = 1.000000e-04 : f64, beta = 5.000000e-01 : f64}> : (tensor<2x5x3x3xf32>) -> tensor<2x5x3x3xf32>
  // GENERIC: "relay.nn.lrn"(%y) <{size = 4 : i64, axis = 1 : i64, bias = 2.000000e+00 : f64, alpha = 1.000000e-05 : f64, beta = 7.500000e-01 : f64}> : (tensor<?x4xf16>) -> tensor<?x4xf16>
  // GENERIC: "relay.nn.lrn"(%z) <{size = 1 : i64, axis = 0 : i64, bias = 2.000000e+00 : f64, alpha = 1.000000e-05 : f64, beta = 7.500000e-01 : f64}> : (tensor<7xf64>) -> tensor<7xf64>
  %0 = relay.nn.lrn %x : tensor<2x5x3x3xf32>
  %1 = relay.nn.lrn %x {size = 3, axis = -1, bias = 1.0, alpha = 0.0001, beta = 0.5} : tensor<2x5x3x3xf32>
  %2 = relay.nn.lrn %y {size = 4} : tensor<?x4xf16>
  %3 = relay.nn.lrn %z {axis = 0, size = 1} : tensor<7xf64>
  func.return %0 : tensor<2x5x3x3xf32>
}

// -----

/// layer_norm (one axis, TVM's), instance_norm, group_norm: defaults omitted; every attribute; `?` dims; f16.
// CHECK-LABEL: func.func @norms
func.func @norms(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>, %h: tensor<3xf32>, %d: tensor<?x?x3xf16>, %e: tensor<6xf16>, %f: tensor<3xf16>) -> tensor<2x6x3xf32> {
  // CHECK-NEXT: %0 = relay.nn.layer_norm %x, %h, %h : (tensor<2x6x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x6x3xf32>
  // CHECK-NEXT: %1 = relay.nn.layer_norm %x, %g, %g {axis = 1, epsilon = 0.001, center = false, scale = false} : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  // CHECK-NEXT: %2 = relay.nn.instance_norm %x, %g, %g : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  // CHECK-NEXT: %3 = relay.nn.instance_norm %d, %f, %f {axis = -1, scale = false} : (tensor<?x?x3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<?x?x3xf16>
  // CHECK-NEXT: %4 = relay.nn.group_norm %x, %g, %g {num_groups = 3} : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  // CHECK-NEXT: %5 = relay.nn.group_norm %d, %e, %e {num_groups = 2, epsilon = 0.1, center = false} : (tensor<?x?x3xf16>, tensor<6xf16>, tensor<6xf16>) -> tensor<?x?x3xf16>
  // GENERIC: "relay.nn.layer_norm"(%x, %h, %h) <{axis = -1 : i64, epsilon = 1.000000e-05 : f64, center = true, scale = true}> : (tensor<2x6x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x6x3xf32>
  // GENERIC: "relay.nn.layer_norm"(%x, %g, %g) <{axis = 1 : i64, epsilon = 1.000000e-03 : f64, center = false, scale = false}> : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  // GENERIC: "relay.nn.instance_norm"(%x, %g, %g) <{axis = 1 : i64, epsilon = 1.000000e-05 : f64, center = true, scale = true}> : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  // GENERIC: "relay.nn.instance_norm"(%d, %f, %f) <{axis = -1 : i64, epsilon = 1.000000e-05 : f64, center = true, scale = false}> : (tensor<?x?x3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<?x?x3xf16>
  // GENERIC: "relay.nn.group_norm"(%x, %g, %g) <{num_groups = 3 : i64, axis = 1 : i64, epsilon = 1.000000e-05 : f64, center = true, scale = true}> : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  // GENERIC: "relay.nn.group_norm"(%d, %e, %e) <{num_groups = 2 : i64, axis = 1 : i64, epsilon = 1.000000e-01 : f64, center = false, scale = true}> : (tensor<?x?x3xf16>, tensor<6xf16>, tensor<6xf16>) -> tensor<?x?x3xf16>
  %0 = relay.nn.layer_norm %x, %h, %h : (tensor<2x6x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x6x3xf32>
  %1 = relay.nn.layer_norm %x, %g, %g {axis = 1, epsilon = 0.001, center = false, scale = false} : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  %2 = relay.nn.instance_norm %x, %g, %g : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  %3 = relay.nn.instance_norm %d, %f, %f {axis = -1, scale = false} : (tensor<?x?x3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<?x?x3xf16>
  %4 = relay.nn.group_norm %x, %g, %g {num_groups = 3} : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  %5 = relay.nn.group_norm %d, %e, %e {num_groups = 2, epsilon = 0.1, center = false} : (tensor<?x?x3xf16>, tensor<6xf16>, tensor<6xf16>) -> tensor<?x?x3xf16>
  func.return %0 : tensor<2x6x3xf32>
}

// -----

/// l2_normalize: no axis (every axis), one axis, two axes (one negative), eps 0, a `?` dim.
// CHECK-LABEL: func.func @l2_normalize
func.func @l2_normalize(%x: tensor<2x3x4xf32>, %y: tensor<?x5xf64>) -> tensor<2x3x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.l2_normalize %x {eps = 1.0e-12} : tensor<2x3x4xf32>
  // CHECK-NEXT: %1 = relay.nn.l2_normalize %x {eps = 0.5, axis = [1]} : tensor<2x3x4xf32>
  // CHECK-NEXT: %2 = relay.nn.l2_normalize %x {eps = 1.0e-100, axis = [-1, 0]} : tensor<2x3x4xf32>
  // CHECK-NEXT: %3 = relay.nn.l2_normalize %y {eps = 0.0, axis = [1]} : tensor<?x5xf64>
  // GENERIC: "relay.nn.l2_normalize"(%x) <{eps = 1.000000e-12 : f64, axis = array<i64>}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.nn.l2_normalize"(%x) <{eps = 5.000000e-01 : f64, axis = array<i64: 1>}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.nn.l2_normalize"(%x) <{eps = 1.000000e-100 : f64, axis = array<i64: -1, 0>}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.nn.l2_normalize"(%y) <{eps = 0.000000e+00 : f64, axis = array<i64: 1>}> : (tensor<?x5xf64>) -> tensor<?x5xf64>
  %0 = relay.nn.l2_normalize %x {eps = 1.0e-12} : tensor<2x3x4xf32>
  %1 = relay.nn.l2_normalize %x {eps = 0.5, axis = [1]} : tensor<2x3x4xf32>
  %2 = relay.nn.l2_normalize %x {eps = 1.0e-100, axis = [-1, 0]} : tensor<2x3x4xf32>
  %3 = relay.nn.l2_normalize %y {eps = 0.0, axis = [1]} : tensor<?x5xf64>
  func.return %0 : tensor<2x3x4xf32>
}
