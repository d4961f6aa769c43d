// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// contrib_reverse_reshape: reshape's shape errors, with the note that newshape is read right to left.
func.func @reverse_reshape_incompatible(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.contrib_reverse_reshape' op input shape (4, 3, 2) and reshaped shape (20, 3, 2) are not compatible (reverse_reshape reads newshape [-2, 20] right to left)}}
  %0 = relay.contrib_reverse_reshape %x {newshape = [-2, 20]} : (tensor<2x3x4xf32>) -> tensor<2x3x20xf32>
  func.return
}

// -----

/// contrib_reverse_reshape: a -4 needs the two values after it in the reversed newshape.
func.func @reverse_reshape_split(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.contrib_reverse_reshape' op -4 in newshape [2, 2, -4] must be followed by two values (reverse_reshape reads newshape [-4, 2, 2] right to left)}}
  %0 = relay.contrib_reverse_reshape %x {newshape = [-4, 2, 2]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}
