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

// -----

/// layer_norm: gamma is 1-D.
func.func @layer_norm_gamma_rank(%x: tensor<2x3xf32>, %g: tensor<1x3xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.layer_norm' op expected 1-D gamma, got rank 2 (1, 3)}}
  %0 = relay.nn.layer_norm %x, %g, %b : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// layer_norm: beta has the data's dim on the axis.
func.func @layer_norm_beta_size(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %b: tensor<2xf32>) {
  // expected-error@+1 {{'relay.nn.layer_norm' op beta of size 2 does not match data dim 3 on axis 1}}
  %0 = relay.nn.layer_norm %x, %g, %b : (tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// layer_norm: with a `?` data dim, gamma and beta still agree.
func.func @layer_norm_gamma_beta(%x: tensor<2x?xf32>, %g: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.layer_norm' op beta of size 4 does not match gamma size 3}}
  %0 = relay.nn.layer_norm %x, %g, %b : (tensor<2x?xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x?xf32>
  func.return
}

// -----

/// instance_norm: gamma has the data's element type.
func.func @instance_norm_dtype(%x: tensor<2x3xf32>, %g: tensor<3xf16>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.instance_norm' op gamma element type f16 does not match data f32}}
  %0 = relay.nn.instance_norm %x, %g, %b : (tensor<2x3xf32>, tensor<3xf16>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// instance_norm: floats only.
func.func @instance_norm_int(%x: tensor<2x3xi32>, %g: tensor<3xi32>) {
  // expected-error@+1 {{'relay.nn.instance_norm' op expected a floating-point operand, got i32}}
  %0 = relay.nn.instance_norm %x, %g, %g : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  func.return
}

// -----

/// instance_norm: the axis names a dim.
func.func @instance_norm_axis(%x: tensor<2x3xf32>, %g: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.instance_norm' op axis -3 is out of range for rank 2}}
  %0 = relay.nn.instance_norm %x, %g, %g {axis = -3} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// instance_norm: the data needs an axis.
func.func @instance_norm_scalar(%x: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error@+1 {{'relay.nn.instance_norm' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.instance_norm %x, %g, %g {axis = 0} : (tensor<f32>, tensor<1xf32>, tensor<1xf32>) -> tensor<f32>
  func.return
}

// -----

/// group_norm: epsilon is not negative.
func.func @group_norm_epsilon(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.group_norm' op epsilon must be non-negative, got -1.0}}
  %0 = relay.nn.group_norm %x, %g, %g {num_groups = 2, epsilon = -1.0} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// group_norm: at least one group.
func.func @group_norm_groups(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.group_norm' op num_groups must be positive, got 0}}
  %0 = relay.nn.group_norm %x, %g, %g {num_groups = 0} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// group_norm: the groups split the channels evenly.
func.func @group_norm_divisible(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.group_norm' op channels 4 are not divisible by num_groups 3}}
  %0 = relay.nn.group_norm %x, %g, %g {num_groups = 3} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// l2_normalize: floats only.
func.func @l2_normalize_int(%x: tensor<2x3xi32>) {
  // expected-error@+1 {{'relay.nn.l2_normalize' op expected a floating-point operand, got i32}}
  %0 = relay.nn.l2_normalize %x {eps = 0.1} : tensor<2x3xi32>
  func.return
}

// -----

/// l2_normalize: every axis names a dim.
func.func @l2_normalize_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.l2_normalize' op axis -3 is out of range for rank 2}}
  %0 = relay.nn.l2_normalize %x {eps = 0.1, axis = [0, -3]} : tensor<2x3xf32>
  func.return
}

// -----

/// l2_normalize: eps is not negative.
func.func @l2_normalize_eps(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.l2_normalize' op eps must be non-negative, got -0.5}}
  %0 = relay.nn.l2_normalize %x {eps = -0.5} : tensor<2x3xf32>
  func.return
}
