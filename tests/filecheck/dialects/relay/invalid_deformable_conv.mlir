// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// deformable_conv2d: the offset is 4-D (data and weight as conv2d).
func.func @deformable_rank(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3xf32>, %w: tensor<2x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op expected 4-D offset, got rank 3 (1, 18, 3)}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x4x5x6xf32>, tensor<1x18x3xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: float data only (the sample is bilinear).
func.func @deformable_int(%x: tensor<1x4x5x6xi32>, %o: tensor<1x18x3x4xi32>, %w: tensor<2x4x3x3xi32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op expected a floating-point operand, got i32}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x4x5x6xi32>, tensor<1x18x3x4xi32>, tensor<2x4x3x3xi32>) -> tensor<1x2x3x4xi32>
  func.return
}

// -----

/// deformable_conv2d: the offset has the data's dtype.
func.func @deformable_offset_dtype(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf64>, %w: tensor<2x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op offset element type f64 does not match data f32}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf64>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: deformable_groups is positive.
func.func @deformable_dgroups(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf32>, %w: tensor<2x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op deformable_groups must be positive, got 0}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w {deformable_groups = 0} : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: deformable groups split the channels evenly.
func.func @deformable_dgroups_divide(%x: tensor<1x4x5x6xf32>, %o: tensor<1x54x3x4xf32>, %w: tensor<2x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op input channels 4 are not divisible by deformable_groups 3}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w {deformable_groups = 3} : (tensor<1x4x5x6xf32>, tensor<1x54x3x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: groups split the input channels evenly.
func.func @deformable_groups_divide(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf32>, %w: tensor<3x1x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op input channels 4 are not divisible by groups 3}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w {groups = 3} : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: groups split the output channels evenly.
func.func @deformable_out_groups(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op output channels 3 are not divisible by groups 2}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w {groups = 2} : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: the weight's I is C / groups.
func.func @deformable_weight_channels(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf32>, %w: tensor<2x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op weight input channels 3 do not match data channels 4 / groups 1}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: the output is in the data layout.
func.func @deformable_out_layout(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf32>, %w: tensor<2x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op out_layout 'NHWC' must be '' or 'NCHW'}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w {out_layout = "NHWC"} : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: the offset has one (y, x) pair per tap and deformable group at each output position.
func.func @deformable_offset_shape(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x4x4xf32>, %w: tensor<2x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op offset shape (1, 18, 4, 4) does not match (1, 18, 3, 4) (N, 2 * KH * KW * deformable_groups, OH, OW in NCHW)}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x4x5x6xf32>, tensor<1x18x4x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  func.return
}

// -----

/// deformable_conv2d: a float output.
func.func @deformable_out_dtype(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf32>, %w: tensor<2x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.deformable_conv2d' op out_dtype must be a float type, got i32}}
  %0 = relay.nn.deformable_conv2d %x, %o, %w {out_dtype = i32} : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xi32>
  func.return
}
