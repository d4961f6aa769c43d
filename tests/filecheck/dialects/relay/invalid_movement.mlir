// RUN: xrelay-opt %s --split-input-file --verify-diagnostics
/// broadcast_to: the target shape has no negative dims.
func.func @case0(%x: tensor<3xf32>) {
  // expected-error@+1 {{'relay.broadcast_to' op shape must be non-negative, got [-1, 3]}}
  %0 = relay.broadcast_to %x {shape = [-1, 3]} : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// broadcast_to: never to a lower rank (ONNX's bidirectional Expand is the frontend's job).
func.func @case1(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.broadcast_to' op cannot broadcast (2, 3) to the lower-rank shape [3]}}
  %0 = relay.broadcast_to %x {shape = [3]} : (tensor<2x3xf32>) -> tensor<3xf32>
  func.return
}

// -----

/// broadcast_to: each dim equals its target or is 1.
func.func @case2(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.broadcast_to' op cannot broadcast (2, 3) to [4, 3]}}
  %0 = relay.broadcast_to %x {shape = [4, 3]} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

/// tile: no negative repetition count.
func.func @case3(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.tile' op reps must be non-negative, got [1, -2]}}
  %0 = relay.tile %x {reps = [1, -2]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// reverse: a scalar has no axis.
func.func @case4(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.reverse' op data must have at least one dim}}
  %0 = relay.reverse %x {axis = 0} : tensor<f32>
  func.return
}

// -----

/// reverse: the axis is in range.
func.func @case5(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.reverse' op axis 2 is out of range for rank 2}}
  %0 = relay.reverse %x {axis = 2} : tensor<2x3xf32>
  func.return
}

// -----

/// trilu: needs a matrix (or a batch of them).
func.func @case6(%x: tensor<3xf32>) {
  // expected-error@+1 {{'relay.trilu' op data must have at least 2 dims, got (3)}}
  %0 = relay.trilu %x : tensor<3xf32>
  func.return
}

// -----

/// depth_to_space: a positive block size.
func.func @case7(%x: tensor<1x4x2x2xf32>) {
  // expected-error@+1 {{'relay.nn.depth_to_space' op block_size must be positive, got 0}}
  %0 = relay.nn.depth_to_space %x {block_size = 0} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

/// depth_to_space: two layouts.
func.func @case8(%x: tensor<1x4x2x2xf32>) {
  // expected-error@+1 {{'relay.nn.depth_to_space' op layout must be NCHW or NHWC, got 'HWCN'}}
  %0 = relay.nn.depth_to_space %x {block_size = 2, layout = "HWCN"} : (tensor<1x4x2x2xf32>) -> tensor<1x1x4x4xf32>
  func.return
}

// -----

/// depth_to_space: 4-D data.
func.func @case9(%x: tensor<4x2x2xf32>) {
  // expected-error@+1 {{'relay.nn.depth_to_space' op expected 4-D data, got rank 3 (4, 2, 2)}}
  %0 = relay.nn.depth_to_space %x {block_size = 2} : (tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
  func.return
}

// -----

/// depth_to_space: two channel orders.
func.func @case10(%x: tensor<1x4x2x2xf32>) {
  // expected-error@+1 {{'relay.nn.depth_to_space' op mode must be DCR or CRD, got 'RDC'}}
  %0 = relay.nn.depth_to_space %x {block_size = 2, mode = "RDC"} : (tensor<1x4x2x2xf32>) -> tensor<1x1x4x4xf32>
  func.return
}

// -----

/// depth_to_space: the channels divide into blocks.
func.func @case11(%x: tensor<1x6x2x2xf32>) {
  // expected-error@+1 {{'relay.nn.depth_to_space' op channels 6 must be divisible by block_size² = 4}}
  %0 = relay.nn.depth_to_space %x {block_size = 2} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  func.return
}

// -----

/// space_to_depth: the height and width divide into blocks.
func.func @case12(%x: tensor<1x1x3x4xf32>) {
  // expected-error@+1 {{'relay.nn.space_to_depth' op height 3 must be divisible by block_size 2}}
  %0 = relay.nn.space_to_depth %x {block_size = 2} : (tensor<1x1x3x4xf32>) -> tensor<1x4x1x2xf32>
  func.return
}

// -----

/// gather: integer indices.
func.func @case13(%x: tensor<2x3xf32>, %i: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.gather' op indices must be integers, got f32}}
  %0 = relay.gather %x, %i {axis = 0} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// gather: a scalar has no axis.
func.func @case14(%x: tensor<f32>, %i: tensor<i32>) {
  // expected-error@+1 {{'relay.gather' op data must have at least one dim}}
  %0 = relay.gather %x, %i {axis = 0} : (tensor<f32>, tensor<i32>) -> tensor<f32>
  func.return
}

// -----

/// gather: indices of the data's rank.
func.func @case15(%x: tensor<2x3xf32>, %i: tensor<2xi32>) {
  // expected-error@+1 {{'relay.gather' op indices (2) must have the rank of data (2, 3)}}
  %0 = relay.gather %x, %i {axis = 0} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2xf32>
  func.return
}

// -----

/// gather: off the axis, indices fit in the data.
func.func @case16(%x: tensor<2x3xf32>, %i: tensor<2x4xi32>) {
  // expected-error@+1 {{'relay.gather' op indices (2, 4) exceed data (2, 3) at dim 1}}
  %0 = relay.gather %x, %i {axis = 0} : (tensor<2x3xf32>, tensor<2x4xi32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// gather: nothing to read from an empty axis.
func.func @case17(%x: tensor<2x0xf32>, %i: tensor<2x1xi32>) {
  // expected-error@+1 {{'relay.gather' op cannot index the empty axis 1 of data (2, 0)}}
  %0 = relay.gather %x, %i {axis = 1} : (tensor<2x0xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
  func.return
}

// -----

/// gather_nd: the first dim of indices is the index tuple.
func.func @case18(%x: tensor<2x3xf32>, %i: tensor<i32>) {
  // expected-error@+1 {{'relay.gather_nd' op indices must have at least one dim (the index tuple)}}
  %0 = relay.gather_nd %x, %i : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// gather_nd: the index tuple length is static.
func.func @case19(%x: tensor<2x3xf32>, %i: tensor<?x4xi32>) {
  // expected-error@+1 {{'relay.gather_nd' op the index tuple length (indices dim 0) must be static}}
  %0 = relay.gather_nd %x, %i : (tensor<2x3xf32>, tensor<?x4xi32>) -> tensor<4xf32>
  func.return
}

// -----

/// gather_nd: batch_dims within the dims of indices.
func.func @case20(%x: tensor<2x3xf32>, %i: tensor<1x2xi32>) {
  // expected-error@+1 {{'relay.gather_nd' op batch_dims 2 is out of range for indices (1, 2)}}
  %0 = relay.gather_nd %x, %i {batch_dims = 2} : (tensor<2x3xf32>, tensor<1x2xi32>) -> tensor<2xf32>
  func.return
}

// -----

/// gather_nd: index tuples no longer than the data's rank.
func.func @case21(%x: tensor<2x3xf32>, %i: tensor<3x4xi32>) {
  // expected-error@+1 {{'relay.gather_nd' op index tuples of 3 plus 0 batch dims exceed data (2, 3)}}
  %0 = relay.gather_nd %x, %i : (tensor<2x3xf32>, tensor<3x4xi32>) -> tensor<4xf32>
  func.return
}

// -----

/// gather_nd: batch dims agree.
func.func @case22(%x: tensor<2x3xf32>, %i: tensor<1x4xi32>) {
  // expected-error@+1 {{'relay.gather_nd' op batch dim 0 of indices (1, 4) and data (2, 3) differ}}
  %0 = relay.gather_nd %x, %i {batch_dims = 1} : (tensor<2x3xf32>, tensor<1x4xi32>) -> tensor<4xf32>
  func.return
}

// -----

/// gather_nd: nothing to read from an empty dim.
func.func @case23(%x: tensor<0x3xf32>, %i: tensor<1x2xi32>) {
  // expected-error@+1 {{'relay.gather_nd' op cannot index the empty dims of data (0, 3)}}
  %0 = relay.gather_nd %x, %i : (tensor<0x3xf32>, tensor<1x2xi32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// scatter_elements: five reductions.
func.func @case24(%x: tensor<3xf32>, %i: tensor<2xi32>, %u: tensor<2xf32>) {
  // expected-error@+1 {{'relay.scatter_elements' op reduction must be one of update, add, mul, min, max, got 'mean'}}
  %0 = relay.scatter_elements %x, %i, %u {reduction = "mean"} : (tensor<3xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<3xf32>
  func.return
}

// -----

/// scatter_elements: updates of the data's element type.
func.func @case25(%x: tensor<3xf32>, %i: tensor<2xi32>, %u: tensor<2xi32>) {
  // expected-error@+1 {{'relay.scatter_elements' op updates must have the element type of data f32, got i32}}
  %0 = relay.scatter_elements %x, %i, %u : (tensor<3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3xf32>
  func.return
}

// -----

/// scatter_elements: one update per index.
func.func @case26(%x: tensor<3xf32>, %i: tensor<2xi32>, %u: tensor<3xf32>) {
  // expected-error@+1 {{'relay.scatter_elements' op updates (3) must have the shape of indices (2)}}
  %0 = relay.scatter_elements %x, %i, %u : (tensor<3xf32>, tensor<2xi32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// -----

/// scatter_nd: a static index tuple length.
func.func @case27(%x: tensor<3xf32>, %i: tensor<?x2xi32>, %u: tensor<2xf32>) {
  // expected-error@+1 {{'relay.scatter_nd' op indices need a static first dim (the index tuple length)}}
  %0 = relay.scatter_nd %x, %i, %u : (tensor<3xf32>, tensor<?x2xi32>, tensor<2xf32>) -> tensor<3xf32>
  func.return
}

// -----

/// scatter_nd: index tuples no longer than the data's rank.
func.func @case28(%x: tensor<3xf32>, %i: tensor<2x2xi32>, %u: tensor<2xf32>) {
  // expected-error@+1 {{'relay.scatter_nd' op index tuples of 2 exceed the rank of data (3)}}
  %0 = relay.scatter_nd %x, %i, %u : (tensor<3xf32>, tensor<2x2xi32>, tensor<2xf32>) -> tensor<3xf32>
  func.return
}

// -----

/// scatter_nd: updates are indices[1:] + data[M:].
func.func @case29(%x: tensor<3x4xf32>, %i: tensor<1x2xi32>, %u: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.scatter_nd' op updates (2, 3) must have shape (2, 4) (indices[1:] + data[1:])}}
  %0 = relay.scatter_nd %x, %i, %u {mode = "add"} : (tensor<3x4xf32>, tensor<1x2xi32>, tensor<2x3xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

/// one_hot: scalar on and off values.
func.func @case30(%i: tensor<2xi32>, %on: tensor<1xf32>, %off: tensor<f32>) {
  // expected-error@+1 {{'relay.one_hot' op on_value must be a scalar, got tensor<1xf32>}}
  %0 = relay.one_hot %i, %on, %off {depth = 3, dtype = f32} : (tensor<2xi32>, tensor<1xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// one_hot: values of the result dtype.
func.func @case31(%i: tensor<2xi32>, %on: tensor<f32>, %off: tensor<i32>) {
  // expected-error@+1 {{'relay.one_hot' op off_value must have the element type dtype f32}}
  %0 = relay.one_hot %i, %on, %off {depth = 3, dtype = f32} : (tensor<2xi32>, tensor<f32>, tensor<i32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// one_hot: a non-negative depth.
func.func @case32(%i: tensor<2xi32>, %on: tensor<f32>, %off: tensor<f32>) {
  // expected-error@+1 {{'relay.one_hot' op depth must be non-negative, got -1}}
  %0 = relay.one_hot %i, %on, %off {depth = -1, dtype = f32} : (tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<2x0xf32>
  func.return
}

// -----

/// one_hot: the new axis is within rank + 1.
func.func @case33(%i: tensor<2xi32>, %on: tensor<f32>, %off: tensor<f32>) {
  // expected-error@+1 {{'relay.one_hot' op axis 2 is out of range for rank 2}}
  %0 = relay.one_hot %i, %on, %off {depth = 3, axis = 2, dtype = f32} : (tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// cumsum: no boolean accumulator.
func.func @case34(%x: tensor<3xi1>) {
  // expected-error@+1 {{'relay.cumsum' op cannot accumulate in bool: give an integer or float dtype}}
  %0 = relay.cumsum %x : tensor<3xi1>
  func.return
}

// -----

/// arange: a zero step never ends.
func.func @case35() {
  // expected-error@+1 {{'relay.arange' op arange needs finite bounds and a non-zero step, got 0.0}}
  %0 = relay.arange {stop = 4.0, step = 0.0, dtype = f32} : tensor<4xf32>
  func.return
}

// -----

/// shape_of: a number dtype (TVM takes any: float32 too), not i1.
func.func @case36(%x: tensor<3xf32>) {
  // expected-error@+1 {{'relay.shape_of' op dtype must be a number type, got i1}}
  %0 = relay.shape_of %x {dtype = i1} : (tensor<3xf32>) -> tensor<1xi1>
  func.return
}
