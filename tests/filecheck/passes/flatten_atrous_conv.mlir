// RUN: xrelay-opt %s --split-input-file -p flatten-atrous-conv | filecheck %s

/// TensorFlow's atrous depthwise convolution (TVM's test_fac_block_shape_2): one conv2d with
/// dilation 2 and padding = paddings - crops (2, 2 on each side).
// CHECK-LABEL: @flatten
// CHECK-NEXT:    %0 = relay.nn.conv2d %x, %w {padding = [2, 2, 2, 2], dilation = [2, 2], groups = 4, channels = 4, kernel_size = [3, 3], data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x5x5x4xf32>, tensor<3x3x4x1xf32>) -> tensor<1x5x5x4xf32>
// CHECK-NEXT:    func.return %0
func.func @flatten(%x: tensor<1x5x5x4xf32>, %w: tensor<3x3x4x1xf32>) -> tensor<1x5x5x4xf32> {
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [2, 2], paddings = [2, 3, 2, 3], pad_value = 0.0} : (tensor<1x5x5x4xf32>) -> tensor<4x5x5x4xf32>
  %1 = relay.nn.conv2d %0, %w {groups = 4, channels = 4, kernel_size = [3, 3], data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<4x5x5x4xf32>, tensor<3x3x4x1xf32>) -> tensor<4x3x3x4xf32>
  %2 = relay.nn.batch_to_space_nd %1 {block_shape = [2, 2], crops = [0, 1, 0, 1]} : (tensor<4x3x3x4xf32>) -> tensor<1x5x5x4xf32>
  func.return %2 : tensor<1x5x5x4xf32>
}

// -----

/// Kept: a conv2d with padding of its own; an op between space_to_batch_nd and the
/// conv2d (TVM's test_fac_op_btwn_s2b_conv).
// CHECK-LABEL: @keep
// CHECK-NEXT:    relay.nn.space_to_batch_nd
// CHECK-NEXT:    relay.nn.conv2d
// CHECK-NEXT:    relay.nn.batch_to_space_nd
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    relay.nn.conv2d
// CHECK-NEXT:    relay.nn.batch_to_space_nd
func.func @keep(%x: tensor<1x5x5x4xf32>, %w: tensor<3x3x4x1xf32>) -> (tensor<1x5x5x4xf32>, tensor<1x4x4x4xf32>) {
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [2, 2], paddings = [2, 3, 2, 3], pad_value = 0.0} : (tensor<1x5x5x4xf32>) -> tensor<4x5x5x4xf32>
  %1 = relay.nn.conv2d %0, %w {groups = 4, channels = 4, kernel_size = [3, 3], data_layout = "NHWC", kernel_layout = "HWOI", padding = [1, 1, 1, 1]} : (tensor<4x5x5x4xf32>, tensor<3x3x4x1xf32>) -> tensor<4x5x5x4xf32>
  %2 = relay.nn.batch_to_space_nd %1 {block_shape = [2, 2], crops = [2, 3, 2, 3]} : (tensor<4x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %3 = relay.nn.relu %0 : tensor<4x5x5x4xf32>
  %4 = relay.nn.conv2d %3, %w {groups = 4, channels = 4, kernel_size = [3, 3], data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<4x5x5x4xf32>, tensor<3x3x4x1xf32>) -> tensor<4x3x3x4xf32>
  %5 = relay.nn.batch_to_space_nd %4 {block_shape = [2, 2], crops = [1, 1, 1, 1]} : (tensor<4x3x3x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %2, %5 : tensor<1x5x5x4xf32>, tensor<1x4x4x4xf32>
}
