// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// topk: k no larger than the axis.
func.func @topk_k(%x: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.topk' op k 6 is larger than dim 5 of axis 1}}
  %0 = relay.topk %x {k = 6} : (tensor<3x5xf32>) -> tuple<tensor<3x6xf32>, tensor<3x6xi32>>
  func.return
}

// -----

/// topk: three return types.
func.func @topk_ret_type(%x: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.topk' op ret_type must be one of both, values, indices, got 'all'}}
  %0 = relay.topk %x {ret_type = "all"} : (tensor<3x5xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

/// argsort: indices are integers or floats (TVM's float32 indices), not bool.
func.func @argsort_dtype(%x: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.argsort' op dtype must be an integer or float type, got i1}}
  %0 = relay.argsort %x {dtype = i1} : (tensor<3x5xf32>) -> tensor<3x5xi1>
  func.return
}

// -----

/// sort: a scalar has no axis.
func.func @sort_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.sort' op cannot sort a rank-0 tensor}}
  %0 = relay.sort %x : tensor<f32>
  func.return
}

// -----

/// sort: the axis is in range.
func.func @sort_axis(%x: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.sort' op axis 2 is out of range for rank 2}}
  %0 = relay.sort %x {axis = 2} : tensor<3x5xf32>
  func.return
}
