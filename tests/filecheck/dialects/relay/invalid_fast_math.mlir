// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// fast_exp (as fast_tanh and fast_erf, one base class): float data only.
func.func @fast_exp_int(%x: tensor<3xi32>) {
  // expected-error@+1 {{'relay.fast_exp' op expected a floating-point operand, got i32}}
  %0 = relay.fast_exp %x : tensor<3xi32>
  func.return
}

// -----

/// fast_softmax: float data.
func.func @fast_softmax_int(%x: tensor<2x3xi32>) {
  // expected-error@+1 {{'relay.nn.fast_softmax' op expected a floating-point operand, got i32}}
  %0 = relay.nn.fast_softmax %x : tensor<2x3xi32>
  func.return
}

// -----

/// fast_softmax: the axis is a dim of the data.
func.func @fast_softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.fast_softmax' op axis 2 is out of range for rank 2}}
  %0 = relay.nn.fast_softmax %x {axis = 2} : tensor<2x3xf32>
  func.return
}

// -----

/// fast_softmax: not a scalar.
func.func @fast_softmax_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.fast_softmax' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.fast_softmax %x : tensor<f32>
  func.return
}
