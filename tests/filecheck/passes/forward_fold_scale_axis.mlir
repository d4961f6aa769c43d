// RUN: xrelay-opt %s -p forward-fold-scale-axis --split-input-file | filecheck %s

/// TVM's test_fold_fwd_simple: multiply by a positive [C,1,1] constant -> relu -> add ->
/// conv2d. The relu reads x, the bias is divided by the scale, the weight is multiplied by
/// it along I (OIHW axis 1).
// CHECK-LABEL: @fold_mul_relu_add_conv
// CHECK-NEXT:    %[[S:.*]] = relay.constant
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %[[S]] {axis = [1, 2]} : (tensor<4x1x1xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %x
// CHECK-NEXT:    %[[BS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 2} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK-NEXT:    %[[B:.*]] = relay.divide %b, %[[BS]] : tensor<4x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[R]], %[[B]]
// CHECK-NEXT:    %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 2} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[WS]] : (tensor<2x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %[[A]], %[[W]] {padding = [1, 1, 1, 1]}
// CHECK-NEXT:    func.return %[[C]]
func.func @fold_mul_relu_add_conv(%x: tensor<2x4x10x10xf32>, %w: tensor<2x4x3x3xf32>, %b: tensor<4x1x1xf32>) -> tensor<2x2x10x10xf32> {
  %s = relay.constant dense<[[[1.0]], [[2.0]], [[0.5]], [[4.0]]]> : tensor<4x1x1xf32>
  %0 = relay.multiply %x, %s : (tensor<2x4x10x10xf32>, tensor<4x1x1xf32>) -> tensor<2x4x10x10xf32>
  %1 = relay.nn.relu %0 : tensor<2x4x10x10xf32>
  %2 = relay.add %1, %b : (tensor<2x4x10x10xf32>, tensor<4x1x1xf32>) -> tensor<2x4x10x10xf32>
  %3 = relay.nn.conv2d %2, %w {padding = [1, 1, 1, 1]} : (tensor<2x4x10x10xf32>, tensor<2x4x3x3xf32>) -> tensor<2x2x10x10xf32>
  func.return %3 : tensor<2x2x10x10xf32>
}

// -----

/// TVM's test_fold_fwd_dual_path: NHWC depthwise HWIO convs, the scale on the left of the
/// multiply and a subtract; a depthwise conv scales its weight along O (HWIO axis 3), and
/// the relu and subtract are rebuilt once for both convs.
// CHECK-LABEL: @fold_dual_path_depthwise
// CHECK-NEXT:    %[[S:.*]] = relay.constant
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %x
// CHECK-NEXT:    %[[B:.*]] = relay.divide %b, %[[S]] : tensor<3xf32>
// CHECK-NEXT:    %[[D:.*]] = relay.subtract %[[R]], %[[B]]
// CHECK-NEXT:    %[[W1:.*]] = relay.multiply %w, %[[S]] : (tensor<3x3x1x3xf32>, tensor<3xf32>) -> tensor<3x3x1x3xf32>
// CHECK-NEXT:    %[[C1:.*]] = relay.nn.conv2d %[[D]], %[[W1]]
// CHECK-NEXT:    %[[W2:.*]] = relay.multiply %w, %[[S]]
// CHECK-NEXT:    %[[C2:.*]] = relay.nn.conv2d %[[D]], %[[W2]]
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C1]], %[[C2]]
// CHECK-NEXT:    func.return %[[A]]
func.func @fold_dual_path_depthwise(%x: tensor<2x4x10x3xf32>, %w: tensor<3x3x1x3xf32>, %b: tensor<3xf32>) -> tensor<2x4x10x3xf32> {
  %s = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = relay.multiply %s, %x : (tensor<3xf32>, tensor<2x4x10x3xf32>) -> tensor<2x4x10x3xf32>
  %1 = relay.nn.relu %0 : tensor<2x4x10x3xf32>
  %2 = relay.subtract %1, %b : (tensor<2x4x10x3xf32>, tensor<3xf32>) -> tensor<2x4x10x3xf32>
  %3 = relay.nn.conv2d %2, %w {padding = [1, 1, 1, 1], groups = 3, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<2x4x10x3xf32>, tensor<3x3x1x3xf32>) -> tensor<2x4x10x3xf32>
  %4 = relay.nn.conv2d %2, %w {padding = [1, 1, 1, 1], groups = 3, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<2x4x10x3xf32>, tensor<3x3x1x3xf32>) -> tensor<2x4x10x3xf32>
  %5 = relay.add %3, %4 : tensor<2x4x10x3xf32>
  func.return %5 : tensor<2x4x10x3xf32>
}

// -----

/// TVM's test_fold_fwd_negative_scale: no relu in between, so the scale may be negative
/// (here a parameter, whose sign is unknown, works as well).
// CHECK-LABEL: @fold_parameter_scale
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %s {axis = [0, 2, 3]} : (tensor<1x3x1x1xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 2}
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[WS]]
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// CHECK-NEXT:    func.return %[[C]]
func.func @fold_parameter_scale(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>, %s: tensor<1x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = relay.multiply %x, %s : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = relay.nn.conv2d %0, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %1 : tensor<1x2x4x4xf32>
}

// -----

/// TVM's test_fold_fwd_dense, with a scalar scale through a leaky_relu (positive, so it
/// folds): the scalar is filled to K, the dense weight multiplied along its last axis.
// CHECK-LABEL: @fold_dense_scalar_leaky_relu
// CHECK-NEXT:    %[[S:.*]] = relay.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[V:.*]] = relay.full %[[S]] {shape = [5]} : (tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.nn.leaky_relu %x {alpha = 0.2}
// CHECK-NEXT:    %[[B:.*]] = relay.divide %b, %[[V]] : tensor<5xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[B]], %[[R]]
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[V]] : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    %[[D:.*]] = relay.nn.dense %[[A]], %[[W]]
// CHECK-NEXT:    func.return %[[D]]
func.func @fold_dense_scalar_leaky_relu(%x: tensor<2x5xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<2x3xf32> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %0 = relay.multiply %x, %s : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x5xf32>
  %1 = relay.nn.leaky_relu %0 {alpha = 0.2} : tensor<2x5xf32>
  %2 = relay.add %b, %1 : (tensor<5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %3 = relay.nn.dense %2, %w : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  func.return %3 : tensor<2x3xf32>
}
