// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// strided_slice: two slice modes.
func.func @strided_slice_mode(%x: tensor<4x6xf32>) {
  // expected-error@+1 {{'relay.strided_slice' op slice_mode must be 'end' or 'size', got 'step'}}
  %0 = relay.strided_slice %x {begin = [0], end = [1], slice_mode = "step"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// strided_slice: with axes, one begin and end per axis.
func.func @strided_slice_axes_length(%x: tensor<4x6xf32>) {
  // expected-error@+1 {{'relay.strided_slice' op axes [1], begin [0, 0], end [1, 1] must have the same length}}
  %0 = relay.strided_slice %x {begin = [0, 0], end = [1, 1], axes = [1]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// strided_slice: no more values than dims.
func.func @strided_slice_too_long(%x: tensor<4x6xf32>) {
  // expected-error@+1 {{'relay.strided_slice' op begin has 3 values but the input has rank 2}}
  %0 = relay.strided_slice %x {begin = [0, 0, 0], end = [1, 1, 1]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// strided_slice: a stride of 0 never ends.
func.func @strided_slice_zero_stride(%x: tensor<4x6xf32>) {
  // expected-error@+1 {{'relay.strided_slice' op strides must be non-zero, got [0]}}
  %0 = relay.strided_slice %x {begin = [0], end = [1], strides = [0]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// strided_slice: a positive stride needs begin <= end (as TVM).
func.func @strided_slice_reversed(%x: tensor<4x6xf32>) {
  // expected-error@+1 {{'relay.strided_slice' op begin 3 and end 1 are invalid for axis 0 with stride 1}}
  %0 = relay.strided_slice %x {begin = [3], end = [1]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// strided_slice: axes in range.
func.func @strided_slice_axis(%x: tensor<4x6xf32>) {
  // expected-error@+1 {{'relay.strided_slice' op axis 2 is out of range for rank 2}}
  %0 = relay.strided_slice %x {begin = [0], end = [1], axes = [2]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// strided_slice: each axis once.
func.func @strided_slice_repeated_axis(%x: tensor<4x6xf32>) {
  // expected-error@+1 {{'relay.strided_slice' op axis -1 is repeated in [1, -1]}}
  %0 = relay.strided_slice %x {begin = [0, 0], end = [1, 1], axes = [1, -1]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// take: indices are integers.
func.func @take_float_indices(%x: tensor<4x5xf32>, %i: tensor<4x2xf32>) {
  // expected-error@+1 {{'relay.take' op indices must be integers, got f32}}
  %0 = relay.take %x, %i {axis = 1} : (tensor<4x5xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  func.return
}

// -----

/// take: TVM's three modes.
func.func @take_mode(%x: tensor<4x5xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'relay.take' op mode must be one of clip, wrap, fast, got 'raise'}}
  %0 = relay.take %x, %i {axis = 1, mode = "raise"} : (tensor<4x5xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  func.return
}

// -----

/// take: axis in range.
func.func @take_axis(%x: tensor<4x5xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'relay.take' op axis 2 is out of range for rank 2}}
  %0 = relay.take %x, %i {axis = 2} : (tensor<4x5xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  func.return
}

// -----

/// take: batch dims come before the axis.
func.func @take_batch_dims(%x: tensor<4x5xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'relay.take' op batch_dims 1 is out of range for axis 0 and indices of rank 2}}
  %0 = relay.take %x, %i {axis = 0, batch_dims = 1} : (tensor<4x5xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  func.return
}

// -----

/// take: batch dims of data and indices agree.
func.func @take_batch_mismatch(%x: tensor<4x5xf32>, %i: tensor<3x2xi32>) {
  // expected-error@+1 {{'relay.take' op batch dims of data (4, 5) and indices (3, 2) differ at dim 0}}
  %0 = relay.take %x, %i {axis = 1, batch_dims = 1} : (tensor<4x5xf32>, tensor<3x2xi32>) -> tensor<4x2xf32>
  func.return
}

// -----

/// take: no index is valid on an empty axis (in any mode) when the result has elements.
func.func @take_empty_axis(%x: tensor<0x1x4x4xf32>, %i: tensor<3xi64>) {
  // expected-error@+1 {{'relay.take' op cannot take indices (3) from the empty axis 0 of data (0, 1, 4, 4)}}
  %0 = relay.take %x, %i {axis = 0} : (tensor<0x1x4x4xf32>, tensor<3xi64>) -> tensor<3x1x4x4xf32>
  func.return
}

// -----

/// take: flattened empty data.
func.func @take_empty_flat(%x: tensor<2x0xf32>, %i: tensor<2xi64>) {
  // expected-error@+1 {{'relay.take' op cannot take indices (2) from the empty flattened data (2, 0)}}
  %0 = relay.take %x, %i : (tensor<2x0xf32>, tensor<2xi64>) -> tensor<2xf32>
  func.return
}
