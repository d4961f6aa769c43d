// RUN: xrelay-opt %s --print-op-generic | filecheck %s
// RUN: xrelay-opt %s --print-op-generic | xrelay-opt | filecheck %s --check-prefix=BACK

/// --print-op-generic prints every op, with all properties, in MLIR's generic form.
// CHECK: "func.func"() <{sym_name = "conv", function_type = (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>}>
// CHECK: "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NCHW", kernel_layout = "OIHW"}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
// CHECK: "func.return"(%0) : (tensor<1x4x4x4xf32>) -> ()
// BACK: relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1]}
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  func.return %0 : tensor<1x4x4x4xf32>
}
