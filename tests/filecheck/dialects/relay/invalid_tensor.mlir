// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// reshape: the element counts differ.
func.func @reshape_size(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op input shape (2, 3, 4) and reshaped shape (5, 5) are not compatible}}
  %0 = relay.reshape %x {newshape = [5, 5]} : (tensor<2x3x4xf32>) -> tensor<5x5xf32>
  func.return
}

// -----

/// reshape: -1 cannot be inferred when the rest does not divide.
func.func @reshape_infer(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op cannot infer the -1 in newshape [5, -1] from input shape (2, 3, 4)}}
  %0 = relay.reshape %x {newshape = [5, -1]} : (tensor<2x3x4xf32>) -> tensor<5x5xf32>
  func.return
}

// -----

/// reshape: only one -1.
func.func @reshape_two_infer(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op newshape [-1, -1] may contain at most one -1}}
  %0 = relay.reshape %x {newshape = [-1, -1]} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

/// reshape: 0 copies an input dim that does not exist.
func.func @reshape_copy_past_rank(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op newshape [0, 0, 0, 0] reads more dims than input shape (2, 3, 4) has}}
  %0 = relay.reshape %x {newshape = [0, 0, 0, 0]} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1xf32>
  func.return
}

// -----

/// reshape: special values stop at -4.
func.func @reshape_bad_special(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op unsupported special value -5 in newshape [-5]}}
  %0 = relay.reshape %x {newshape = [-5]} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  func.return
}

// -----

/// reshape: -4 needs the two sizes it splits into.
func.func @reshape_split_short(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op -4 in newshape [-2, -4, 2] must be followed by two values}}
  %0 = relay.reshape %x {newshape = [-2, -4, 2]} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  func.return
}

// -----

/// reshape: a -4 split infers at most one side.
func.func @reshape_split_two_infer(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op -4 in newshape [-4, -1, -1, -2] cannot split into two -1 dims}}
  %0 = relay.reshape %x {newshape = [-4, -1, -1, -2]} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  func.return
}

// -----

/// reshape: the sizes after -4 are plain sizes.
func.func @reshape_split_zero(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op -4 in newshape [-4, 0, 2, -2] must be followed by positive sizes or -1}}
  %0 = relay.reshape %x {newshape = [-4, 0, 2, -2]} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  func.return
}

// -----

/// reshape: a -4 split with -1 must divide the dim.
func.func @reshape_split_indivisible(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op -4 in newshape [0, -4, 2, -1, 0] cannot split input dim 3 by 2}}
  %0 = relay.reshape %x {newshape = [0, -4, 2, -1, 0]} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  func.return
}

// -----

/// reshape: a -4 split must keep the dim's size.
func.func @reshape_split_product(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op -4 in newshape [-4, 2, 2, -2] splits input dim 2 into 2 x 2}}
  %0 = relay.reshape %x {newshape = [-4, 2, 2, -2]} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  func.return
}

// -----

/// reshape: the written result type must be the inferred one.
func.func @reshape_result(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.reshape' op inferred type(s) 'tensor<6x4xf32>' are incompatible with return type(s) of operation 'tensor<6x5xf32>'}}
  %0 = relay.reshape %x {newshape = [6, -1]} : (tensor<2x3x4xf32>) -> tensor<6x5xf32>
  func.return
}

// -----

/// transpose: one axis per dim.
func.func @transpose_length(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.transpose' op axes [1, 0] must have one entry per dim of rank 3}}
  %0 = relay.transpose %x {axes = [1, 0]} : (tensor<2x3x4xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

/// transpose: axes must be a permutation (-1 is 2 again).
func.func @transpose_repeated(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.transpose' op axis -1 is repeated in [0, 2, -1]}}
  %0 = relay.transpose %x {axes = [0, 2, -1]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

/// transpose: axes must be in range.
func.func @transpose_range(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.transpose' op axis 3 is out of range for rank 3}}
  %0 = relay.transpose %x {axes = [0, 1, 3]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

/// squeeze: only size-1 dims.
func.func @squeeze_non_one(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.squeeze' op cannot squeeze axis 1 of size 3 in input shape (2, 3, 4)}}
  %0 = relay.squeeze %x {axis = [1]} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// squeeze: axis out of range.
func.func @squeeze_range(%x: tensor<1x3xf32>) {
  // expected-error@+1 {{'relay.squeeze' op axis -3 is out of range for rank 2}}
  %0 = relay.squeeze %x {axis = [-3]} : (tensor<1x3xf32>) -> tensor<3xf32>
  func.return
}

// -----

/// squeeze: the same axis twice.
func.func @squeeze_repeated(%x: tensor<1x3xf32>) {
  // expected-error@+1 {{'relay.squeeze' op axis -2 is repeated in [0, -2]}}
  %0 = relay.squeeze %x {axis = [0, -2]} : (tensor<1x3xf32>) -> tensor<3xf32>
  func.return
}

// -----

/// expand_dims: axis may be one past the last dim, no further.
func.func @expand_dims_range(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.expand_dims' op axis 4 is out of range [-4, 3] for input rank 3}}
  %0 = relay.expand_dims %x {axis = 4} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1xf32>
  func.return
}

// -----

/// expand_dims: num_newaxis counts dims.
func.func @expand_dims_negative(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.expand_dims' op num_newaxis must be non-negative, got -1}}
  %0 = relay.expand_dims %x {axis = 0, num_newaxis = -1} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

/// expand_dims: at most 64 dims (numpy's limit); a huge count is an error, not an allocation.
func.func @expand_dims_huge(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.expand_dims' op num_newaxis 9223372036854775807 makes a rank-9223372036854775810 result; at most 64 dims (numpy's limit, which the interpreter has)}}
  %0 = relay.expand_dims %x {axis = 0, num_newaxis = 9223372036854775807} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

/// concatenate: something to join.
func.func @concatenate_none() {
  // expected-error@+1 {{'relay.concatenate' op expected at least one operand}}
  %0 = relay.concatenate : () -> tensor<2xf32>
  func.return
}

// -----

/// concatenate: scalars have no axis.
func.func @concatenate_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.concatenate' op cannot concatenate rank-0 tensors}}
  %0 = relay.concatenate %x, %x : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

/// concatenate: one dtype.
func.func @concatenate_dtype(%a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error@+1 {{'relay.concatenate' op operand #1 element type f16 does not match f32 of operand #0}}
  %0 = relay.concatenate %a, %b : (tensor<2xf32>, tensor<2xf16>) -> tensor<4xf32>
  func.return
}

// -----

/// concatenate: one rank.
func.func @concatenate_rank(%a: tensor<2x3xf32>, %b: tensor<6xf32>) {
  // expected-error@+1 {{'relay.concatenate' op operand #1 has rank 1, expected 2 like operand #0}}
  %0 = relay.concatenate %a, %b : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

/// concatenate: dims off the axis must agree.
func.func @concatenate_shape(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{'relay.concatenate' op operand #1 shape (2, 4) does not match (2, 3) of operand #0 outside axis 0}}
  %0 = relay.concatenate %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

/// concatenate: axis in range.
func.func @concatenate_axis(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.concatenate' op axis 2 is out of range for rank 2}}
  %0 = relay.concatenate %a, %a {axis = 2} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  func.return
}

// -----

/// split: sections must divide the dim.
func.func @split_sections(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.split' op input dim 3 on axis 1 is not divisible into 2 sections}}
  %0 = relay.split %x {indices_or_sections = 2, axis = 1} : (tensor<2x3x4xf32>) -> tuple<tensor<2x1x4xf32>, tensor<2x1x4xf32>>
  func.return
}

// -----

/// split: at least one section.
func.func @split_zero_sections(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.split' op sections must be positive, got 0}}
  %0 = relay.split %x {indices_or_sections = 0} : (tensor<2x3x4xf32>) -> tuple<>
  func.return
}

// -----

/// split: indices ascend.
func.func @split_unsorted(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.split' op indices [3, 1] must be a strictly ascending list of positive integers}}
  %0 = relay.split %x {indices_or_sections = [3, 1], axis = 2} : (tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>>
  func.return
}

// -----

/// split: the last index must leave a piece.
func.func @split_index_range(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.split' op index 4 is out of range for input dim 4 on axis 2}}
  %0 = relay.split %x {indices_or_sections = [1, 4], axis = 2} : (tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>>
  func.return
}

// -----

/// split: scalars cannot be split.
func.func @split_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.split' op cannot split a rank-0 tensor}}
  %0 = relay.split %x {indices_or_sections = 1} : (tensor<f32>) -> tuple<tensor<f32>>
  func.return
}

// -----

/// split: axis in range.
func.func @split_axis(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.split' op axis -4 is out of range for rank 3}}
  %0 = relay.split %x {indices_or_sections = 1, axis = -4} : (tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>>
  func.return
}

// -----

/// zeros: the shape is static.
func.func @zeros_shape() {
  // expected-error@+1 {{'relay.zeros' op shape must be non-negative, got [2, -1]}}
  %0 = relay.zeros {shape = [2, -1], dtype = f32} : tensor<2x?xf32>
  func.return
}

// -----

/// ones: dtypes are relay's.
func.func @ones_dtype() {
  // expected-error@+1 {{'relay.ones' op unsupported dtype f80}}
  %0 = relay.ones {shape = [2], dtype = f80} : tensor<2xf80>
  func.return
}

// -----

/// full: the fill value is a scalar.
func.func @full_scalar(%v: tensor<2xf32>) {
  // expected-error@+1 {{'relay.full' op fill_value must be a scalar, got shape (2)}}
  %0 = relay.full %v {shape = [2]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

/// full_like: the fill value is a scalar.
func.func @full_like_scalar(%x: tensor<2xf32>) {
  // expected-error@+1 {{'relay.full_like' op fill_value must be a scalar, got shape (2)}}
  %0 = relay.full_like %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

/// zeros_like: the result has the operand's type.
func.func @zeros_like_type(%x: tensor<2xf32>) {
  // expected-error@+1 {{'relay.zeros_like' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2xi32>'}}
  %0 = relay.zeros_like %x : (tensor<2xf32>) -> tensor<2xi32>
  func.return
}
