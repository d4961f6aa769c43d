// RUN: xrelay-opt %s -p fold-channel-shuffle,dead-code-elimination --split-input-file | filecheck %s

/// A groups=1 conv2d after a 2-group shuffle of 6 channels (it reads source channels
/// 0 3 1 4 2 5) reads the unshuffled data; its weight's input channel c moves to p(c):
/// W' = W[:, [0, 2, 4, 1, 3, 5]].
// CHECK-LABEL: @absorb
//       CHECK:   %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}3.000000e+00]], {{\[\[}}5.000000e+00]], {{\[\[}}2.000000e+00]], {{\[\[}}4.000000e+00]], {{\[\[}}6.000000e+00]]]]> : tensor<1x6x1x1xf32>
//  CHECK-NEXT:   %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
//  CHECK-NEXT:   func.return %[[C]]
func.func @absorb(%x: tensor<1x6x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]], [[5.0]], [[6.0]]]]> : tensor<1x6x1x1xf32>
  %0 = relay.reshape %x {newshape = [1, 2, 3, 3, 3]} : (tensor<1x6x3x3xf32>) -> tensor<1x2x3x3x3xf32>
  %1 = relay.transpose %0 {axes = [0, 2, 1, 3, 4]} : (tensor<1x2x3x3x3xf32>) -> tensor<1x3x2x3x3xf32>
  %2 = relay.reshape %1 {newshape = [1, 6, 3, 3]} : (tensor<1x3x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  %3 = relay.nn.conv2d %2, %w : (tensor<1x6x3x3xf32>, tensor<1x6x1x1xf32>) -> tensor<1x1x3x3xf32>
  func.return %3 : tensor<1x1x3x3xf32>
}

// -----

/// A stride-2 depthwise conv2d and its bias: both permuted, the shuffle after the bias on the
/// 4x smaller output.
// CHECK-LABEL: @move
//       CHECK:   %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}2.000000e+00]]], {{\[\[\[}}4.000000e+00]]]]> : tensor<4x1x1x1xf32>
//  CHECK-NEXT:   %[[C:.*]] = relay.nn.conv2d %x, %[[W]] {strides = [2, 2], groups = 4}
//  CHECK-NEXT:   %[[B:.*]] = relay.constant dense<[1.000000e-01, 3.000000e-01, 2.000000e-01, 4.000000e-01]>
//  CHECK-NEXT:   %[[A:.*]] = relay.nn.bias_add %[[C]], %[[B]]
//  CHECK-NEXT:   %[[R:.*]] = relay.reshape %[[A]] {newshape = [1, 2, 2, 2, 2]}
//  CHECK-NEXT:   %[[T:.*]] = relay.transpose %[[R]] {axes = [0, 2, 1, 3, 4]}
//  CHECK-NEXT:   %[[S:.*]] = relay.reshape %[[T]] {newshape = [1, 4, 2, 2]}
//  CHECK-NEXT:   relay.nn.relu %[[S]]
func.func @move(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32> {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]], [[[3.0]]], [[[4.0]]]]> : tensor<4x1x1x1xf32>
  %b = relay.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %0 = relay.reshape %x {newshape = [1, 2, 2, 4, 4]} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %1 = relay.transpose %0 {axes = [0, 2, 1, 3, 4]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %2 = relay.reshape %1 {newshape = [1, 4, 4, 4]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %3 = relay.nn.conv2d %2, %w {strides = [2, 2], groups = 4} : (tensor<1x4x4x4xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x2x2xf32>
  %4 = relay.nn.bias_add %3, %b : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %5 = relay.nn.relu %4 : tensor<1x4x2x2xf32>
  func.return %5 : tensor<1x4x2x2xf32>
}

// -----

/// Left alone: a grouped (not depthwise) conv2d after the shuffle reads channel blocks the
/// shuffle interleaves; a stride-1 depthwise conv2d would move a copy of the same size; a
/// transpose that is not the shuffle's.
// CHECK-LABEL: @keep
//   CHECK-COUNT-3: relay.transpose
func.func @keep(%x: tensor<1x4x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %wg = relay.constant dense<1.0> : tensor<2x2x1x1xf32>
  %wd = relay.constant dense<1.0> : tensor<4x1x1x1xf32>
  %w1 = relay.constant dense<1.0> : tensor<4x4x1x1xf32>
  %0 = relay.reshape %x {newshape = [1, 2, 2, 4, 4]} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %1 = relay.transpose %0 {axes = [0, 2, 1, 3, 4]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %2 = relay.reshape %1 {newshape = [1, 4, 4, 4]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %3 = relay.nn.conv2d %2, %wg {groups = 2} : (tensor<1x4x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %4 = relay.reshape %x {newshape = [1, 2, 2, 4, 4]} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %5 = relay.transpose %4 {axes = [0, 2, 1, 3, 4]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %6 = relay.reshape %5 {newshape = [1, 4, 4, 4]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %7 = relay.nn.conv2d %6, %wd {groups = 4} : (tensor<1x4x4x4xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x4x4xf32>
  %8 = relay.reshape %x {newshape = [1, 2, 2, 4, 4]} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %9 = relay.transpose %8 {axes = [0, 1, 2, 4, 3]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %10 = relay.reshape %9 {newshape = [1, 4, 4, 4]} : (tensor<1x2x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %11 = relay.nn.conv2d %10, %w1 : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  func.return %3, %7, %11 : tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}
