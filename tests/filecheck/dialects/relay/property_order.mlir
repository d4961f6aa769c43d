// RUN: xrelay-opt %s | filecheck %s
// RUN: xrelay-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: xrelay-opt %s --print-op-generic | xrelay-opt | filecheck %s

/// Properties print in the op's definition order whatever order the text (or a pass)
/// gave them, in the custom and the generic form; discardable attributes follow, in
/// their own order.

// CHECK: %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], kernel_size = [3, 3]} :
// CHECK: %1 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], kernel_size = [3, 3]} :
// CHECK: %2 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], dilation = [2, 2], kernel_size = [3, 3], zeta = 1 : i32, alpha = 2 : i32} :
// CHECK: %3 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], dilation = [2, 2], kernel_size = [3, 3], alpha = 2 : i32, zeta = 1 : i32} :

// GENERIC-COUNT-2: "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW", kernel_layout = "OIHW"}> :
// GENERIC: <{strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 2, 2>, groups = 1 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW", kernel_layout = "OIHW"}> {zeta = 1 : i32, alpha = 2 : i32}
// GENERIC: <{strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 2, 2>, groups = 1 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW", kernel_layout = "OIHW"}> {alpha = 2 : i32, zeta = 1 : i32}

func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], kernel_size = [3, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.conv2d %x, %w {kernel_size = [3, 3], padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.conv2d %x, %w {zeta = 1 : i32, kernel_size = [3, 3], alpha = 2 : i32, dilation = [2, 2], strides = [1, 1], padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %3 = "relay.nn.conv2d"(%x, %w) <{kernel_layout = "OIHW", kernel_size = array<i64: 3, 3>, dilation = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}> {alpha = 2 : i32, zeta = 1 : i32} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %4 = relay.add %0, %1 : tensor<1x4x8x8xf32>
  func.return %4 : tensor<1x4x8x8xf32>
}
