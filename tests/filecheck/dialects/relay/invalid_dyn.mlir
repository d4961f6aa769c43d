// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// dyn ops: the shape operand holds integers.
func.func @reshape_float_shape(%x: tensor<2x3xf32>, %s: tensor<2xf32>) {
  // expected-error@+1 {{'relay.dyn.reshape' op newshape must be a tensor of integers, got tensor<2xf32>}}
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

/// dyn ops: the shape operand is 1-D.
func.func @tile_2d_reps(%x: tensor<2x3xf32>, %r: tensor<2x2xi32>) {
  // expected-error@+1 {{'relay.dyn.tile' op reps must be 1-D, got tensor<2x2xi32>}}
  %0 = relay.dyn.tile %x, %r : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<?x?xf32>
  func.return
}

// -----

/// dyn ops: the shape operand has a static length (the result's rank).
func.func @zeros_unknown_rank(%s: tensor<?xi64>) {
  // expected-error@+1 {{'relay.dyn.zeros' op shape must have a static length (xrelay types have a static rank), got tensor<?xi64>}}
  %0 = relay.dyn.zeros %s {dtype = f32} : (tensor<?xi64>) -> tensor<?xf32>
  func.return
}

// -----

/// dyn.reshape: the result rank is newshape's length.
func.func @reshape_rank(%x: tensor<2x3xf32>, %s: tensor<2xi32>) {
  // expected-error@+1 {{'relay.dyn.reshape' op inferred type(s) 'tensor<?x?xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<?xf32>
  func.return
}

// -----

/// dyn.squeeze: no more axes than data has.
func.func @squeeze_too_many(%x: tensor<1x1xf32>, %a: tensor<3xi32>) {
  // expected-error@+1 {{'relay.dyn.squeeze' op cannot squeeze 3 axes of data of rank 2}}
  %0 = relay.dyn.squeeze %x, %a : (tensor<1x1xf32>, tensor<3xi32>) -> tensor<f32>
  func.return
}

// -----

/// dyn.broadcast_to: the target rank is at least data's.
func.func @broadcast_lower_rank(%x: tensor<2x3xf32>, %s: tensor<1xi32>) {
  // expected-error@+1 {{'relay.dyn.broadcast_to' op cannot broadcast data of rank 2 to rank 1}}
  %0 = relay.dyn.broadcast_to %x, %s : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<?xf32>
  func.return
}

// -----

/// dyn.full: the fill value is a scalar.
func.func @full_vector_fill(%f: tensor<2xf32>, %s: tensor<2xi32>) {
  // expected-error@+1 {{'relay.dyn.full' op fill_value must be a scalar, got shape (2)}}
  %0 = relay.dyn.full %f, %s : (tensor<2xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  func.return
}

// -----

/// dyn.nn.pad: pad_width holds integers.
func.func @pad_float_width(%x: tensor<2x3xf32>, %p: tensor<2x2xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.dyn.nn.pad' op pad_width must be a tensor of integers, got tensor<2x2xf32>}}
  %0 = relay.dyn.nn.pad %x, %p, %v : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<?x?xf32>
  func.return
}

// -----

/// dyn.nn.pad: pad_width is one (before, after) pair per axis.
func.func @pad_width_shape(%x: tensor<2x3xf32>, %p: tensor<3x2xi32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.dyn.nn.pad' op pad_width must have shape [2, 2] (one pair per axis), got tensor<3x2xi32>}}
  %0 = relay.dyn.nn.pad %x, %p, %v : (tensor<2x3xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<?x?xf32>
  func.return
}

// -----

/// dyn.nn.pad: pad_value is a scalar.
func.func @pad_vector_value(%x: tensor<2x3xf32>, %p: tensor<2x2xi32>, %v: tensor<1xf32>) {
  // expected-error@+1 {{'relay.dyn.nn.pad' op pad_value must be a scalar, got tensor<1xf32>}}
  %0 = relay.dyn.nn.pad %x, %p, %v : (tensor<2x3xf32>, tensor<2x2xi32>, tensor<1xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

/// dyn.nn.pad: a known pad_mode.
func.func @pad_mode(%x: tensor<2x3xf32>, %p: tensor<2x2xi32>, %v: tensor<f32>) {
  // expected-error@+1 {{'relay.dyn.nn.pad' op unknown pad_mode 'mirror'; expected one of constant, edge, reflect, wrap}}
  %0 = relay.dyn.nn.pad %x, %p, %v {pad_mode = "mirror"} : (tensor<2x3xf32>, tensor<2x2xi32>, tensor<f32>) -> tensor<?x?xf32>
  func.return
}

// -----

/// dyn.topk: k is an integer scalar or [1] tensor.
func.func @topk_k(%x: tensor<2x3xf32>, %k: tensor<2xi32>) {
  // expected-error@+1 {{'relay.dyn.topk' op k must be an integer scalar or a tensor of shape [1], got tensor<2xi32>}}
  %0 = relay.dyn.topk %x, %k {ret_type = "values"} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x?xf32>
  func.return
}

// -----

/// dyn.topk: the static op's rules on the other attributes.
func.func @topk_ret_type(%x: tensor<2x3xf32>, %k: tensor<i32>) {
  // expected-error@+1 {{'relay.dyn.topk' op ret_type must be one of both, values, indices, got 'all'}}
  %0 = relay.dyn.topk %x, %k {ret_type = "all"} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x?xf32>
  func.return
}
