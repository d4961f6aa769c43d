// RUN: xrelay-opt %s --opt-level 4 -p 'combine-parallel-dense{min_num_branches=2}' --split-input-file | filecheck %s
// RUN: xrelay-opt %s --opt-level 4 -p 'combine-parallel-dense{min_num_branches=2 to_batch=false}' --split-input-file | filecheck %s --check-prefix=FLAT

/// to_batch: two denses with weights of one shape and their bias adds become a batch_matmul
/// of stacked operands (the rank-1 biases get a leading unit dim), split and squeezed back.
// CHECK-LABEL: @biased
//  CHECK-NEXT:   %0 = relay.stack %x, %x : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
//  CHECK-NEXT:   %1 = relay.stack %w1, %w2 : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<2x5x4xf32>
//  CHECK-NEXT:   %2 = relay.nn.batch_matmul %0, %1 : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
//  CHECK-NEXT:   %3 = relay.expand_dims %b1 {axis = 0} : (tensor<5xf32>) -> tensor<1x5xf32>
//  CHECK-NEXT:   %4 = relay.expand_dims %b2 {axis = 0} : (tensor<5xf32>) -> tensor<1x5xf32>
//  CHECK-NEXT:   %5 = relay.stack %3, %4 : (tensor<1x5xf32>, tensor<1x5xf32>) -> tensor<2x1x5xf32>
//  CHECK-NEXT:   %6 = relay.add %2, %5 : (tensor<2x3x5xf32>, tensor<2x1x5xf32>) -> tensor<2x3x5xf32>
//  CHECK-NEXT:   %7 = relay.split %6 {indices_or_sections = 2} : (tensor<2x3x5xf32>) -> tuple<tensor<1x3x5xf32>, tensor<1x3x5xf32>>
//  CHECK-NEXT:   %8 = relay.tuple_get_item %7 {index = 0}
//  CHECK-NEXT:   %9 = relay.squeeze %8 {axis = [0]} : (tensor<1x3x5xf32>) -> tensor<3x5xf32>
//  CHECK-NEXT:   %10 = relay.tuple_get_item %7 {index = 1}
//  CHECK-NEXT:   %11 = relay.squeeze %10 {axis = [0]} : (tensor<1x3x5xf32>) -> tensor<3x5xf32>
//  CHECK-NEXT:   func.return %9, %11
/// Flat: one dense over the concatenated weights, the biases concatenated, sliced back.
// FLAT-LABEL: @biased
//  FLAT-NEXT:   %0 = relay.concatenate %w1, %w2 : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<10x4xf32>
//  FLAT-NEXT:   %1 = relay.nn.dense %x, %0 {units = 10} : (tensor<3x4xf32>, tensor<10x4xf32>) -> tensor<3x10xf32>
//  FLAT-NEXT:   %2 = relay.concatenate %b1, %b2 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
//  FLAT-NEXT:   %3 = relay.add %1, %2 : (tensor<3x10xf32>, tensor<10xf32>) -> tensor<3x10xf32>
//  FLAT-NEXT:   %4 = relay.strided_slice %3 {begin = [0, 0], end = [-1, 5], strides = [1, 1], slice_mode = "size"}
//  FLAT-NEXT:   %5 = relay.strided_slice %3 {begin = [0, 5], end = [-1, 5], strides = [1, 1], slice_mode = "size"}
//  FLAT-NEXT:   func.return %4, %5
func.func @biased(%x: tensor<3x4xf32>, %w1: tensor<5x4xf32>, %w2: tensor<5x4xf32>, %b1: tensor<5xf32>, %b2: tensor<5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {
  %0 = relay.nn.dense %x, %w1 : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  %1 = relay.add %0, %b1 : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %2 = relay.nn.dense %x, %w2 : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  %3 = relay.add %2, %b2 : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  func.return %1, %3 : tensor<3x5xf32>, tensor<3x5xf32>
}

// -----

/// Weights of different widths: not batched (one shape needed), but flat combines them, a
/// scalar scale made rank 1 and repeated to each branch's width.
// CHECK-LABEL: @widths
//   CHECK-NOT:   relay.stack
//       CHECK:   func.return
// FLAT-LABEL: @widths
//  FLAT-NEXT:   %0 = relay.concatenate %w1, %w2 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
//  FLAT-NEXT:   %1 = relay.nn.dense %x, %0 {units = 5}
//  FLAT-NEXT:   %2 = relay.expand_dims %s1 {axis = -1} : (tensor<f32>) -> tensor<1xf32>
//  FLAT-NEXT:   %3 = relay.repeat %2 {repeats = 2, axis = 0} : (tensor<1xf32>) -> tensor<2xf32>
//  FLAT-NEXT:   %4 = relay.expand_dims %s2 {axis = -1} : (tensor<f32>) -> tensor<1xf32>
//  FLAT-NEXT:   %5 = relay.repeat %4 {repeats = 3, axis = 0} : (tensor<1xf32>) -> tensor<3xf32>
//  FLAT-NEXT:   %6 = relay.concatenate %3, %5 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
//  FLAT-NEXT:   %7 = relay.multiply %1, %6 : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
func.func @widths(%x: tensor<3x4xf32>, %w1: tensor<2x4xf32>, %w2: tensor<3x4xf32>, %s1: tensor<f32>, %s2: tensor<f32>) -> (tensor<3x2xf32>, tensor<3x3xf32>) {
  %0 = relay.nn.dense %x, %w1 : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<3x2xf32>
  %1 = relay.multiply %0, %s1 : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %2 = relay.nn.dense %x, %w2 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
  %3 = relay.multiply %2, %s2 : (tensor<3x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return %1, %3 : tensor<3x2xf32>, tensor<3x3xf32>
}
