// RUN: xrelay-opt %s --opt-level 4 -p 'combine-parallel-conv2d{min_num_branches=2}' --split-input-file | filecheck %s
// RUN: xrelay-opt %s --opt-level 4 -p combine-parallel-conv2d --split-input-file | filecheck %s --check-prefix=THREE

/// Two 1x1 convs of x and their per-channel scales combine (weights concatenated on O, the
/// scales on the channel axis); the 3x3 conv differs in kernel size and stays.
// CHECK-LABEL: @two_branches
//  CHECK-NEXT:   %0 = relay.concatenate %w1, %w2 : (tensor<2x4x1x1xf32>, tensor<3x4x1x1xf32>) -> tensor<5x4x1x1xf32>
//  CHECK-NEXT:   %1 = relay.nn.conv2d %x, %0 {channels = 5} : (tensor<1x4x8x8xf32>, tensor<5x4x1x1xf32>) -> tensor<1x5x8x8xf32>
//  CHECK-NEXT:   %2 = relay.concatenate %s1, %s2 : (tensor<2x1x1xf32>, tensor<3x1x1xf32>) -> tensor<5x1x1xf32>
//  CHECK-NEXT:   %3 = relay.multiply %1, %2 : (tensor<1x5x8x8xf32>, tensor<5x1x1xf32>) -> tensor<1x5x8x8xf32>
//  CHECK-NEXT:   %4 = relay.strided_slice %3 {begin = [0, 0], end = [-1, 2], strides = [1, 1], slice_mode = "size"} : (tensor<1x5x8x8xf32>) -> tensor<1x2x8x8xf32>
//  CHECK-NEXT:   %5 = relay.strided_slice %3 {begin = [0, 2], end = [-1, 3], strides = [1, 1], slice_mode = "size"} : (tensor<1x5x8x8xf32>) -> tensor<1x3x8x8xf32>
//  CHECK-NEXT:   %6 = relay.nn.conv2d %x, %w3 : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
//  CHECK-NEXT:   func.return %4, %5, %6
/// With the default minimum of three branches nothing changes.
// THREE-LABEL: @two_branches
//  THREE-NEXT:   %0 = relay.nn.conv2d %x, %w1
//   THREE-NOT:   relay.concatenate
func.func @two_branches(%x: tensor<1x4x8x8xf32>, %w1: tensor<2x4x1x1xf32>, %w2: tensor<3x4x1x1xf32>, %w3: tensor<2x4x3x3xf32>, %s1: tensor<2x1x1xf32>, %s2: tensor<3x1x1xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x2x6x6xf32>) {
  %0 = relay.nn.conv2d %x, %w1 : (tensor<1x4x8x8xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x8x8xf32>
  %1 = relay.multiply %0, %s1 : (tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) -> tensor<1x2x8x8xf32>
  %2 = relay.nn.conv2d %x, %w2 : (tensor<1x4x8x8xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x8x8xf32>
  %3 = relay.multiply %2, %s2 : (tensor<1x3x8x8xf32>, tensor<3x1x1xf32>) -> tensor<1x3x8x8xf32>
  %4 = relay.nn.conv2d %x, %w3 : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  func.return %1, %3, %4 : tensor<1x2x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x2x6x6xf32>
}

// -----

/// A scale that broadcasts over the channels (shape 1x1x1) is not combined: the group stops at
/// the convs, which are sliced before their multiplies.
// CHECK-LABEL: @broadcast_scale_stops
//       CHECK:   %[[C:.*]] = relay.nn.conv2d %x, %{{.*}} {channels = 4}
//   CHECK-DAG:   %[[A:.*]] = relay.strided_slice %[[C]] {begin = [0, 0], end = [-1, 2]
//   CHECK-DAG:   %[[B:.*]] = relay.strided_slice %[[C]] {begin = [0, 2], end = [-1, 2]
//   CHECK-DAG:   relay.multiply %[[A]], %s
//   CHECK-DAG:   relay.multiply %[[B]], %s
func.func @broadcast_scale_stops(%x: tensor<1x4x8x8xf32>, %w1: tensor<2x4x1x1xf32>, %w2: tensor<2x4x1x1xf32>, %s: tensor<1x1x1xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) {
  %0 = relay.nn.conv2d %x, %w1 : (tensor<1x4x8x8xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x8x8xf32>
  %1 = relay.multiply %0, %s : (tensor<1x2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<1x2x8x8xf32>
  %2 = relay.nn.conv2d %x, %w2 : (tensor<1x4x8x8xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x8x8xf32>
  %3 = relay.multiply %2, %s : (tensor<1x2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<1x2x8x8xf32>
  func.return %1, %3 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>
}

// -----

/// Depthwise convs (groups > 1) are never combined.
// CHECK-LABEL: @depthwise_kept
//   CHECK-NOT:   relay.concatenate
//   CHECK-NOT:   relay.strided_slice
//       CHECK:   func.return
func.func @depthwise_kept(%x: tensor<1x4x8x8xf32>, %w1: tensor<4x1x3x3xf32>, %w2: tensor<4x1x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %0 = relay.nn.conv2d %x, %w1 {groups = 4} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = relay.nn.conv2d %x, %w2 {groups = 4} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %0, %1 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}
