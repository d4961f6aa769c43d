// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// space_to_batch_nd: padded dims divisible by the block.
func.func @s2b_divisible(%x: tensor<1x5x4xf32>) {
  // expected-error@+1 {{'relay.nn.space_to_batch_nd' op padded dim 5 of axis 1 is not a multiple of block 2}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [2], paddings = [0, 0], pad_value = 0.0} : (tensor<1x5x4xf32>) -> tensor<2x2x4xf32>
  func.return
}

// -----

/// space_to_batch_nd: one pair per block dim.
func.func @s2b_pairs(%x: tensor<1x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.space_to_batch_nd' op paddings must have 1 pairs, got 4 values}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [2], paddings = [0, 0, 0, 0], pad_value = 0.0} : (tensor<1x4x4xf32>) -> tensor<2x2x4xf32>
  func.return
}

// -----

/// space_to_batch_nd: positive blocks.
func.func @s2b_block(%x: tensor<1x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.space_to_batch_nd' op block_shape must be positive, got [0]}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [0], paddings = [0, 0], pad_value = 0.0} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  func.return
}

// -----

/// space_to_batch_nd: non-negative paddings.
func.func @s2b_negative(%x: tensor<1x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.space_to_batch_nd' op paddings must be non-negative, got [-2, 0]}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [2], paddings = [-2, 0], pad_value = 0.0} : (tensor<1x4x4xf32>) -> tensor<2x1x4xf32>
  func.return
}

// -----

/// space_to_batch_nd: a batch dim and block_shape's spatial dims.
func.func @s2b_rank(%x: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.space_to_batch_nd' op data of shape (4) has no 1 spatial dims after the batch}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [2], paddings = [0, 0], pad_value = 0.0} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

/// space_to_batch_nd: a block_shape.
func.func @s2b_empty(%x: tensor<1x4xf32>) {
  // expected-error@+1 {{'relay.nn.space_to_batch_nd' op block_shape must not be empty}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [], paddings = [], pad_value = 0.0} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return
}

// -----

/// batch_to_space_nd: crops within the dim.
func.func @b2s_crops(%x: tensor<2x2x2xf32>) {
  // expected-error@+1 {{'relay.nn.batch_to_space_nd' op crops 3, 2 exceed axis 1}}
  %0 = relay.nn.batch_to_space_nd %x {block_shape = [2], crops = [3, 2]} : (tensor<2x2x2xf32>) -> tensor<1x4x2xf32>
  func.return
}
