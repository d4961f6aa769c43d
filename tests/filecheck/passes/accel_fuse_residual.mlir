// RUN: xrelay-opt %s -p accel-fuse-residual --split-input-file | filecheck %s

/// The residual block: add(conv, r) with relu folds into the convolution (bias kept, the
/// add's relu and name taken), placed where the add was.
// CHECK-LABEL: func.func @fuse_residual
//  CHECK-NEXT:   %y = accel.conv2d %x, %w, %b, %r {padding = [1, 1, 1, 1], has_bias = true, has_residual = true, has_relu = true} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
//  CHECK-NEXT:   func.return %y : tensor<1x2x4x4xf32>
func.func @fuse_residual(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>, %b: tensor<2xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %c = accel.conv2d %x, %w, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = accel.add %c, %r {has_relu = true} : tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

// -----

/// The convolution as the add's right operand, no bias, no relu; the residual is defined
/// after the convolution (the fused op goes where the add was, after it).
// CHECK-LABEL: func.func @fuse_rhs_residual_after_conv
//  CHECK-NEXT:   %r = accel.relu %x : tensor<1x2x4x4xf32>
//  CHECK-NEXT:   %y = accel.conv2d %x, %w, %r {padding = [1, 1, 1, 1], has_residual = true} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
//  CHECK-NEXT:   func.return %y : tensor<1x2x4x4xf32>
func.func @fuse_rhs_residual_after_conv(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %r = accel.relu %x : tensor<1x2x4x4xf32>
  %y = accel.add %r, %c : tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

// -----

/// Two convolutions: the left one folds, the right one becomes the residual.
// CHECK-LABEL: func.func @fuse_left_of_two
//  CHECK-NEXT:   %d = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %y = accel.conv2d %x, %w, %d {padding = [1, 1, 1, 1], has_residual = true}
//  CHECK-NEXT:   func.return %y
func.func @fuse_left_of_two(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %d = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %y = accel.add %c, %d : tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

// -----

/// A convolution with a relu keeps its add: relu(conv) + r is not relu(conv + r).
// CHECK-LABEL: func.func @keep_conv_with_relu
//  CHECK-NEXT:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1], has_relu = true}
//  CHECK-NEXT:   %y = accel.add %c, %r
func.func @keep_conv_with_relu(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1], has_relu = true} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %y = accel.add %c, %r : tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

// -----

/// A convolution read by another op too keeps its add (its result is still needed).
// CHECK-LABEL: func.func @keep_conv_with_two_uses
//  CHECK-NEXT:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %y = accel.add %c, %r
//  CHECK-NEXT:   func.return %y, %c
func.func @keep_conv_with_two_uses(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>, %r: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %y = accel.add %c, %r : tensor<1x2x4x4xf32>
  func.return %y, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

/// A convolution that has a residual already keeps its second add; adds of other ops stay.
// CHECK-LABEL: func.func @keep_second_residual
//  CHECK-NEXT:   %c = accel.conv2d %x, %w, %r {padding = [1, 1, 1, 1], has_residual = true}
//  CHECK-NEXT:   %y = accel.add %c, %r
//  CHECK-NEXT:   %z = accel.add %y, %r
func.func @keep_second_residual(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %c = accel.conv2d %x, %w, %r {padding = [1, 1, 1, 1], has_residual = true} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = accel.add %c, %r : tensor<1x2x4x4xf32>
  %z = accel.add %y, %r : tensor<1x2x4x4xf32>
  func.return %z : tensor<1x2x4x4xf32>
}
