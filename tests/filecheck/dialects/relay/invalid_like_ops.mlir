// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// reshape_like: as many elements as data.
func.func @reshape_like_size(%x: tensor<2x3xf32>, %y: tensor<5xf32>) {
  // expected-error@+1 {{'relay.reshape_like' op cannot reshape (2, 3) (6 elements) to (5) (5 elements)}}
  %0 = relay.reshape_like %x, %y : (tensor<2x3xf32>, tensor<5xf32>) -> tensor<5xf32>
  func.return
}

// -----

/// reshape_like: a bound within the rank.
func.func @reshape_like_bound(%x: tensor<2x3xf32>, %y: tensor<6xf32>) {
  // expected-error@+1 {{'relay.reshape_like' op lhs_begin 3 is out of range for rank 2}}
  %0 = relay.reshape_like %x, %y {lhs_begin = 3} : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<6xf32>
  func.return
}

// -----

/// reshape_like: ranges not reversed.
func.func @reshape_like_range(%x: tensor<2x3xf32>, %y: tensor<6xf32>) {
  // expected-error@+1 {{'relay.reshape_like' op empty ranges lhs [1, 0) or rhs [0, 1)}}
  %0 = relay.reshape_like %x, %y {lhs_begin = 1, lhs_end = 0} : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<6xf32>
  func.return
}

// -----

/// broadcast_to_like: operands of one dtype.
func.func @broadcast_to_like_dtype(%x: tensor<3xf32>, %y: tensor<2x3xi32>) {
  // expected-error@+1 {{'relay.broadcast_to_like' op data (f32) and broadcast_type (i32) must have the same dtype}}
  %0 = relay.broadcast_to_like %x, %y : (tensor<3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// broadcast_to_like: a static target shape.
func.func @broadcast_to_like_dynamic(%x: tensor<3xf32>, %y: tensor<?x3xf32>) {
  // expected-error@+1 {{'relay.broadcast_to_like' op broadcast_type's shape (?, 3) must be static}}
  %0 = relay.broadcast_to_like %x, %y : (tensor<3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return
}

// -----

/// broadcast_to_like: data broadcasts to the target.
func.func @broadcast_to_like_shape(%x: tensor<2xf32>, %y: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.broadcast_to_like' op cannot broadcast (2) to [2, 3]}}
  %0 = relay.broadcast_to_like %x, %y : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// collapse_sum_like: the target broadcasts to data.
func.func @collapse_sum_like_shape(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  // expected-error@+1 {{'relay.collapse_sum_like' op cannot collapse (2, 3) to (2)}}
  %0 = relay.collapse_sum_like %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

/// collapse_sum_like: operands of one dtype.
func.func @collapse_sum_like_dtype(%x: tensor<2x3xf32>, %y: tensor<3xi8>) {
  // expected-error@+1 {{'relay.collapse_sum_like' op data (f32) and collapse_type (i8) must have the same dtype}}
  %0 = relay.collapse_sum_like %x, %y : (tensor<2x3xf32>, tensor<3xi8>) -> tensor<3xf32>
  func.return
}

// -----

/// collapse_sum_to: not to a higher rank.
func.func @collapse_sum_to_rank(%x: tensor<3xf32>) {
  // expected-error@+1 {{'relay.collapse_sum_to' op cannot collapse (3) to the higher-rank (2, 3)}}
  %0 = relay.collapse_sum_to %x {shape = [2, 3]} : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// collapse_sum_to: non-negative dims.
func.func @collapse_sum_to_negative(%x: tensor<3xf32>) {
  // expected-error@+1 {{'relay.collapse_sum_to' op shape must be non-negative, got [-1]}}
  %0 = relay.collapse_sum_to %x {shape = [-1]} : (tensor<3xf32>) -> tensor<3xf32>
  func.return
}
