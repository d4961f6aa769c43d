// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// batch_matmul: TVM's default (y is [B, N, K]); both transposes; a batch of 1 broadcasts; a `?` batch; an int8 product into i32.
// CHECK-LABEL: func.func @batch_matmul
func.func @batch_matmul(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>, %a: tensor<1x4x3xf32>, %b: tensor<2x4x5xf32>, %d: tensor<?x3x4xf32>, %i: tensor<2x3x4xi8>, %j: tensor<1x5x4xi8>) -> tensor<2x3x5xf32> {
  // CHECK-NEXT: %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK-NEXT: %1 = relay.nn.batch_matmul %a, %b {transpose_a = true, transpose_b = false} : (tensor<1x4x3xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK-NEXT: %2 = relay.nn.batch_matmul %d, %y : (tensor<?x3x4xf32>, tensor<2x5x4xf32>) -> tensor<?x3x5xf32>
  // CHECK-NEXT: %3 = relay.nn.batch_matmul %i, %j {out_dtype = i32} : (tensor<2x3x4xi8>, tensor<1x5x4xi8>) -> tensor<2x3x5xi32>
  // GENERIC: "relay.nn.batch_matmul"(%x, %y) <{transpose_a = false, transpose_b = true}> : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  // GENERIC: "relay.nn.batch_matmul"(%a, %b) <{transpose_a = true, transpose_b = false}> : (tensor<1x4x3xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // GENERIC: "relay.nn.batch_matmul"(%d, %y) <{transpose_a = false, transpose_b = true}> : (tensor<?x3x4xf32>, tensor<2x5x4xf32>) -> tensor<?x3x5xf32>
  // GENERIC: "relay.nn.batch_matmul"(%i, %j) <{out_dtype = i32, transpose_a = false, transpose_b = true}> : (tensor<2x3x4xi8>, tensor<1x5x4xi8>) -> tensor<2x3x5xi32>
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %1 = relay.nn.batch_matmul %a, %b {transpose_a = true, transpose_b = false} : (tensor<1x4x3xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %2 = relay.nn.batch_matmul %d, %y : (tensor<?x3x4xf32>, tensor<2x5x4xf32>) -> tensor<?x3x5xf32>
  %3 = relay.nn.batch_matmul %i, %j {out_dtype = i32} : (tensor<2x3x4xi8>, tensor<1x5x4xi8>) -> tensor<2x3x5xi32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

/// prelu: alpha along axis 1 (the default) and a negative axis; a `?` dim; f16.
// CHECK-LABEL: func.func @prelu
func.func @prelu(%x: tensor<2x3x4xf32>, %a: tensor<3xf32>, %b: tensor<4xf32>, %y: tensor<?x5xf16>, %c: tensor<5xf16>) -> tensor<2x3x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.prelu %x, %a : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %1 = relay.nn.prelu %x, %b {axis = -1} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %2 = relay.nn.prelu %y, %c : (tensor<?x5xf16>, tensor<5xf16>) -> tensor<?x5xf16>
  // GENERIC: "relay.nn.prelu"(%x, %a) <{axis = 1 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.nn.prelu"(%x, %b) <{axis = -1 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.nn.prelu"(%y, %c) <{axis = 1 : i64}> : (tensor<?x5xf16>, tensor<5xf16>) -> tensor<?x5xf16>
  %0 = relay.nn.prelu %x, %a : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %1 = relay.nn.prelu %x, %b {axis = -1} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %2 = relay.nn.prelu %y, %c : (tensor<?x5xf16>, tensor<5xf16>) -> tensor<?x5xf16>
  func.return %0 : tensor<2x3x4xf32>
}

// -----

/// adaptive pools: two sizes, one size for both, none (H and W kept), NHWC, a larger output, `?` dims, f16 and i32.
// CHECK-LABEL: func.func @adaptive_pools
func.func @adaptive_pools(%x: tensor<2x3x7x5xf32>, %y: tensor<1x6x4x2xf16>, %z: tensor<?x3x?x?xi32>) -> tensor<2x3x3x2xf32> {
  // CHECK-NEXT: %0 = relay.nn.adaptive_avg_pool2d %x {output_size = [3, 2]} : (tensor<2x3x7x5xf32>) -> tensor<2x3x3x2xf32>
  // CHECK-NEXT: %1 = relay.nn.adaptive_max_pool2d %x {output_size = [1]} : (tensor<2x3x7x5xf32>) -> tensor<2x3x1x1xf32>
  // CHECK-NEXT: %2 = relay.nn.adaptive_avg_pool2d %y {layout = "NHWC"} : tensor<1x6x4x2xf16>
  // CHECK-NEXT: %3 = relay.nn.adaptive_max_pool2d %y {output_size = [8, 3], layout = "NHWC"} : (tensor<1x6x4x2xf16>) -> tensor<1x8x3x2xf16>
  // CHECK-NEXT: %4 = relay.nn.adaptive_avg_pool2d %z {output_size = [2, 2]} : (tensor<?x3x?x?xi32>) -> tensor<?x3x2x2xi32>
  // CHECK-NEXT: %5 = relay.nn.adaptive_max_pool2d %z : tensor<?x3x?x?xi32>
  // GENERIC: "relay.nn.adaptive_avg_pool2d"(%x) <{output_size = array<i64: 3, 2>, layout = "NCHW"}> : (tensor<2x3x7x5xf32>) -> tensor<2x3x3x2xf32>
  // GENERIC: "relay.nn.adaptive_max_pool2d"(%x) <{output_size = array<i64: 1>, layout = "NCHW"}> : (tensor<2x3x7x5xf32>) -> tensor<2x3x1x1xf32>
  // GENERIC: "relay.nn.adaptive_avg_pool2d"(%y) <{output_size = array<i64>, layout = "NHWC"}> : (tensor<1x6x4x2xf16>) -> tensor<1x6x4x2xf16>
  // GENERIC: "relay.nn.adaptive_max_pool2d"(%y) <{output_size = array<i64: 8, 3>, layout = "NHWC"}> : (tensor<1x6x4x2xf16>) -> tensor<1x8x3x2xf16>
  // GENERIC: "relay.nn.adaptive_avg_pool2d"(%z) <{output_size = array<i64: 2, 2>, layout = "NCHW"}> : (tensor<?x3x?x?xi32>) -> tensor<?x3x2x2xi32>
  // GENERIC: "relay.nn.adaptive_max_pool2d"(%z) <{output_size = array<i64>, layout = "NCHW"}> : (tensor<?x3x?x?xi32>) -> tensor<?x3x?x?xi32>
  %0 = relay.nn.adaptive_avg_pool2d %x {output_size = [3, 2]} : (tensor<2x3x7x5xf32>) -> tensor<2x3x3x2xf32>
  %1 = relay.nn.adaptive_max_pool2d %x {output_size = [1]} : (tensor<2x3x7x5xf32>) -> tensor<2x3x1x1xf32>
  %2 = relay.nn.adaptive_avg_pool2d %y {layout = "NHWC"} : (tensor<1x6x4x2xf16>) -> tensor<1x6x4x2xf16>
  %3 = relay.nn.adaptive_max_pool2d %y {output_size = [8, 3], layout = "NHWC"} : (tensor<1x6x4x2xf16>) -> tensor<1x8x3x2xf16>
  %4 = relay.nn.adaptive_avg_pool2d %z {output_size = [2, 2]} : (tensor<?x3x?x?xi32>) -> tensor<?x3x2x2xi32>
  %5 = relay.nn.adaptive_max_pool2d %z : (tensor<?x3x?x?xi32>) -> tensor<?x3x?x?xi32>
  func.return %0 : tensor<2x3x3x2xf32>
}
