// RUN: xrelay-opt %s -p split-concat-conv,dead-code-elimination --split-input-file | filecheck %s

/// Three pieces: the weight is cut at 3 and 5 input channels; the partial sums chain, and
/// the last convolution keeps the bias (add of a constant) before the running sum.
// CHECK-LABEL: @squeeze
//       CHECK:   %[[W0:.*]] = relay.constant dense<{{.*}}1.000000e+00{{.*}}3.000000e+00{{.*}}7.000000e+00{{.*}}9.000000e+00{{.*}}> : tensor<2x3x1x1xf32>
//  CHECK-NEXT:   %[[C0:.*]] = relay.nn.conv2d %x, %[[W0]]
//  CHECK-NEXT:   %[[W1:.*]] = relay.constant dense<{{.*}}4.000000e+00{{.*}}1.100000e+01{{.*}}> : tensor<2x2x1x1xf32>
//  CHECK-NEXT:   %[[C1:.*]] = relay.nn.conv2d %y, %[[W1]]
//  CHECK-NEXT:   %[[W2:.*]] = relay.constant {{.*}} : tensor<2x1x1x1xf32>
//  CHECK-NEXT:   %[[C2:.*]] = relay.nn.conv2d %z, %[[W2]]
//  CHECK-NEXT:   %[[S:.*]] = relay.add %[[C1]], %[[C0]]
//  CHECK-NEXT:   %[[B:.*]] = relay.add %[[C2]], %b
//  CHECK-NEXT:   %[[T:.*]] = relay.add %[[B]], %[[S]]
//  CHECK-NEXT:   relay.nn.relu %[[T]]
//   CHECK-NOT:   relay.concatenate
func.func @squeeze(%x: tensor<1x3x5x5xf32>, %y: tensor<1x2x5x5xf32>, %z: tensor<1x1x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %w = relay.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]], [[5.0]], [[6.0]]], [[[7.0]], [[8.0]], [[9.0]], [[10.0]], [[11.0]], [[12.0]]]]> : tensor<2x6x1x1xf32>
  %b = relay.constant dense<[[[0.5]], [[-0.5]]]> : tensor<2x1x1xf32>
  %c = relay.concatenate %x, %y, %z {axis = 1} : (tensor<1x3x5x5xf32>, tensor<1x2x5x5xf32>, tensor<1x1x5x5xf32>) -> tensor<1x6x5x5xf32>
  %0 = relay.nn.conv2d %c, %w : (tensor<1x6x5x5xf32>, tensor<2x6x1x1xf32>) -> tensor<1x2x5x5xf32>
  %1 = relay.add %0, %b : (tensor<1x2x5x5xf32>, tensor<2x1x1xf32>) -> tensor<1x2x5x5xf32>
  %2 = relay.nn.relu %1 : tensor<1x2x5x5xf32>
  func.return %2 : tensor<1x2x5x5xf32>
}

// -----

/// The concatenation has another user: nothing changes.
// CHECK-LABEL: @shared
//       CHECK:   relay.concatenate
//       CHECK:   relay.nn.conv2d %c, %w
func.func @shared(%x: tensor<1x2x5x5xf32>, %y: tensor<1x2x5x5xf32>) -> (tensor<1x1x5x5xf32>, tensor<1x4x5x5xf32>) {
  %w = relay.constant dense<1.0> : tensor<1x4x1x1xf32>
  %c = relay.concatenate %x, %y {axis = 1} : (tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) -> tensor<1x4x5x5xf32>
  %0 = relay.nn.conv2d %c, %w : (tensor<1x4x5x5xf32>, tensor<1x4x1x1xf32>) -> tensor<1x1x5x5xf32>
  func.return %0, %c : tensor<1x1x5x5xf32>, tensor<1x4x5x5xf32>
}

// -----

/// A max pool of the concatenation moves before it (one pool per piece, the same
/// attributes), and the convolution after it is split.
// CHECK-LABEL: @pooled
//       CHECK:   %[[P0:.*]] = relay.nn.max_pool2d %x {pool_size = [3, 3], strides = [2, 2], ceil_mode = true} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
//  CHECK-NEXT:   %[[P1:.*]] = relay.nn.max_pool2d %y {{.*}} : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
//       CHECK:   relay.nn.conv2d %[[P0]]
//       CHECK:   relay.nn.conv2d %[[P1]]
//   CHECK-NOT:   relay.concatenate
func.func @pooled(%x: tensor<1x2x6x6xf32>, %y: tensor<1x3x6x6xf32>) -> tensor<1x1x3x3xf32> {
  %w = relay.constant dense<1.0> : tensor<1x5x1x1xf32>
  %c = relay.concatenate %x, %y {axis = 1} : (tensor<1x2x6x6xf32>, tensor<1x3x6x6xf32>) -> tensor<1x5x6x6xf32>
  %p = relay.nn.max_pool2d %c {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x5x6x6xf32>) -> tensor<1x5x3x3xf32>
  %0 = relay.nn.conv2d %p, %w : (tensor<1x5x3x3xf32>, tensor<1x5x1x1xf32>) -> tensor<1x1x3x3xf32>
  func.return %0 : tensor<1x1x3x3xf32>
}
