// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// stack: at least one tensor.
func.func @stack_empty() {
  // expected-error@+1 {{'relay.stack' op expected at least one tensor to stack}}
  %0 = relay.stack : () -> tensor<0xf32>
  func.return
}

// -----

/// stack: one rank.
func.func @stack_rank(%x: tensor<2x3xf32>, %y: tensor<6xf32>) {
  // expected-error@+1 {{'relay.stack' op operand #1 has rank 1, expected 2 like operand #0}}
  %0 = relay.stack %x, %y : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<2x2x3xf32>
  func.return
}

// -----

/// stack: one shape.
func.func @stack_shape(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error@+1 {{'relay.stack' op operand #1 shape (2, 4) differs from (2, 3) of operand #0}}
  %0 = relay.stack %x, %y : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x2x3xf32>
  func.return
}

// -----

/// stack: the axis is in [-(rank + 1), rank].
func.func @stack_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.stack' op axis 3 is out of range [-3, 2] for rank 2}}
  %0 = relay.stack %x, %x {axis = 3} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2xf32>
  func.return
}

// -----

/// stack: one element type.
func.func @stack_dtype(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>) {
  // expected-error@+1 {{'relay.stack' op operand #1 element type i32 does not match f32 of operand #0}}
  %0 = relay.stack %x, %y : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x2x3xf32>
  func.return
}

// -----

/// repeat: repeats >= 1.
func.func @repeat_zero(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.repeat' op repeats must be at least 1, got 0}}
  %0 = relay.repeat %x {repeats = 0, axis = 0} : (tensor<2x3xf32>) -> tensor<0x3xf32>
  func.return
}

// -----

/// repeat: not a scalar.
func.func @repeat_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.repeat' op cannot repeat a rank-0 tensor}}
  %0 = relay.repeat %x {repeats = 2, axis = 0} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

/// repeat: the axis is a dim of the data.
func.func @repeat_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.repeat' op axis 2 is out of range}}
  %0 = relay.repeat %x {repeats = 2, axis = 2} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
