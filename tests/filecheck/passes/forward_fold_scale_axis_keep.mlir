// RUN: xrelay-opt %s -p forward-fold-scale-axis --split-input-file | filecheck %s

/// TVM's test_fold_fwd_fail: the scaled value feeds a leaky_relu -> conv2d and also the
/// final add, which cannot absorb a scale.
// CHECK-LABEL: @keep_second_consumer
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x
// CHECK-NEXT:    %[[L:.*]] = relay.nn.leaky_relu %[[M]]
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %[[L]], %w
// CHECK-NEXT:    relay.add %[[C]], %[[M]]
func.func @keep_second_consumer(%x: tensor<2x11x10x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<2x11x10x4xf32> {
  %s = relay.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = relay.multiply %x, %s : (tensor<2x11x10x4xf32>, tensor<4xf32>) -> tensor<2x11x10x4xf32>
  %1 = relay.nn.leaky_relu %0 {alpha = 0.1} : tensor<2x11x10x4xf32>
  %2 = relay.nn.conv2d %1, %w {padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<2x11x10x4xf32>, tensor<3x3x4x4xf32>) -> tensor<2x11x10x4xf32>
  %3 = relay.add %2, %0 : tensor<2x11x10x4xf32>
  func.return %3 : tensor<2x11x10x4xf32>
}

// -----

/// TVM's test_fold_fwd_relu_fail (without its second consumer): a relu needs a constant
/// scale with no negative element.
// CHECK-LABEL: @keep_relu_negative_scale
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.multiply %x
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    relay.nn.conv2d
func.func @keep_relu_negative_scale(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %s = relay.constant dense<[[[1.0]], [[-2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %0 = relay.multiply %x, %s : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x3x4x4xf32>
  %2 = relay.nn.conv2d %1, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %2 : tensor<1x2x4x4xf32>
}

// -----

/// A relu and a scale that is a parameter: its sign is unknown.
// CHECK-LABEL: @keep_relu_parameter_scale
// CHECK-NEXT:    relay.multiply %x, %s
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    relay.nn.conv2d
func.func @keep_relu_parameter_scale(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = relay.multiply %x, %s : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x3x4x4xf32>
  %2 = relay.nn.conv2d %1, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %2 : tensor<1x2x4x4xf32>
}

// -----

/// The scale varies along W: not a per-channel vector.
// CHECK-LABEL: @keep_not_per_channel
// CHECK-NEXT:    relay.multiply %x, %s
// CHECK-NEXT:    relay.nn.conv2d
func.func @keep_not_per_channel(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>, %s: tensor<3x1x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = relay.multiply %x, %s : (tensor<1x3x4x4xf32>, tensor<3x1x4xf32>) -> tensor<1x3x4x4xf32>
  %1 = relay.nn.conv2d %0, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %1 : tensor<1x2x4x4xf32>
}

// -----

/// A grouped (not depthwise) conv2d cannot absorb an input scale (TVM's rule).
// CHECK-LABEL: @keep_grouped
// CHECK-NEXT:    relay.multiply %x, %s
// CHECK-NEXT:    relay.nn.conv2d
func.func @keep_grouped(%x: tensor<1x4x4x4xf32>, %w: tensor<2x2x1x1xf32>, %s: tensor<4x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = relay.multiply %x, %s : (tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = relay.nn.conv2d %0, %w {groups = 2} : (tensor<1x4x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %1 : tensor<1x2x4x4xf32>
}

// -----

/// The scaled value is returned as well (a func.return absorbs nothing).
// CHECK-LABEL: @keep_returned
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %s
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %[[M]], %w
// CHECK-NEXT:    func.return %[[C]], %[[M]]
func.func @keep_returned(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>, %s: tensor<3x1x1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>) {
  %0 = relay.multiply %x, %s : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = relay.nn.conv2d %0, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %1, %0 : tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>
}

// -----

/// In place of TVM's test_fold_fwd_let_fail: the scaled value is also read inside a
/// relay.if branch (another block).
// CHECK-LABEL: @keep_use_in_branch
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %s
// CHECK-NEXT:    relay.nn.conv2d %[[M]], %w
// CHECK-NEXT:    relay.if
func.func @keep_use_in_branch(%c: tensor<i1>, %x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = relay.multiply %x, %s : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = relay.nn.conv2d %0, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  %2 = relay.if %c : tensor<i1> -> tensor<1x2x4x4xf32> {
    %3 = relay.nn.conv2d %0, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
    relay.yield %3 : tensor<1x2x4x4xf32>
  } else {
    relay.yield %1 : tensor<1x2x4x4xf32>
  }
  func.return %2 : tensor<1x2x4x4xf32>
}

// -----

/// An integer scale is not folded forward (the bias would take a truncating division).
// CHECK-LABEL: @keep_integer
// CHECK-NEXT:    relay.multiply %x, %s
// CHECK-NEXT:    relay.nn.dense
func.func @keep_integer(%x: tensor<2x4xi32>, %w: tensor<3x4xi32>, %s: tensor<4xi32>) -> tensor<2x3xi32> {
  %0 = relay.multiply %x, %s : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  %1 = relay.nn.dense %0, %w : (tensor<2x4xi32>, tensor<3x4xi32>) -> tensor<2x3xi32>
  func.return %1 : tensor<2x3xi32>
}
