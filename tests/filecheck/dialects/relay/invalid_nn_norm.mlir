// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// lrn: the data must be floats.
func.func @lrn_int(%x: tensor<1x4xi32>) {
  // expected-error@+1 {{'relay.nn.lrn' op expected a floating-point operand, got i32}}
  %0 = relay.nn.lrn %x : tensor<1x4xi32>
  func.return
}

// -----

/// lrn: the data needs an axis.
func.func @lrn_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.lrn' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.lrn %x {axis = 0} : tensor<f32>
  func.return
}

// -----

/// lrn: the axis must name a dim.
func.func @lrn_axis(%x: tensor<1x4xf32>) {
  // expected-error@+1 {{'relay.nn.lrn' op axis 2 is out of range for rank 2}}
  %0 = relay.nn.lrn %x {axis = 2} : tensor<1x4xf32>
  func.return
}

// -----

/// lrn: the window has at least one channel.
func.func @lrn_size(%x: tensor<1x4xf32>) {
  // expected-error@+1 {{'relay.nn.lrn' op size must be positive, got 0}}
  %0 = relay.nn.lrn %x {size = 0} : tensor<1x4xf32>
  func.return
}
