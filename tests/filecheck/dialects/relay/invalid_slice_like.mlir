// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// slice_like: axes, when given, is not empty.
func.func @slice_like_empty_axes(%x: tensor<3x4xf32>, %y: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.slice_like' op axes cannot be empty}}
  %0 = relay.slice_like %x, %y {axes = []} : (tensor<3x4xf32>, tensor<2x3xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

/// slice_like: an axis of data.
func.func @slice_like_axis_range(%x: tensor<3x4xf32>, %y: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.slice_like' op axis -3 is out of range for data of rank 2}}
  %0 = relay.slice_like %x, %y {axes = [-3]} : (tensor<3x4xf32>, tensor<2x3xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

/// slice_like: an axis shape_like has.
func.func @slice_like_axis_like(%x: tensor<3x4xf32>, %y: tensor<2xf32>) {
  // expected-error@+1 {{'relay.slice_like' op axis 1 exceeds the rank 1 of shape_like}}
  %0 = relay.slice_like %x, %y {axes = [1]} : (tensor<3x4xf32>, tensor<2xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

/// slice_like: the slice ends within data.
func.func @slice_like_too_long(%x: tensor<3x4xf32>, %y: tensor<2x5xf32>) {
  // expected-error@+1 {{'relay.slice_like' op end index 5 of axis 1 exceeds the data's dim 4}}
  %0 = relay.slice_like %x, %y : (tensor<3x4xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  func.return
}
