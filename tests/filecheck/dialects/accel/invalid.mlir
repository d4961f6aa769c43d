// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// conv2d: has_bias without a bias operand.
func.func @conv2d_missing_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'accel.conv2d' op has_bias is set but there is no bias operand}}
  %0 = accel.conv2d %x, %w {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: a bias operand without has_bias.
func.func @conv2d_unflagged_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'accel.conv2d' op a bias operand needs has_bias = true}}
  %0 = accel.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: two to four operands.
func.func @conv2d_operand_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'accel.conv2d' op expected 2 to 4 operands, got 5}}
  %0 = accel.conv2d %x, %w, %b, %b, %b {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: has_residual without a residual operand.
func.func @conv2d_missing_residual(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'accel.conv2d' op has_residual is set but there is no residual operand}}
  %0 = accel.conv2d %x, %w {has_residual = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: a fourth operand without has_residual.
func.func @conv2d_unflagged_residual(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %r: tensor<1x4x6x6xf32>) {
  // expected-error@+1 {{'accel.conv2d' op a fourth operand (a residual) needs has_residual = true}}
  %0 = accel.conv2d %x, %w, %b, %r {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the residual has the result's shape.
func.func @conv2d_residual_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %r: tensor<1x4x8x8xf32>) {
  // expected-error@+1 {{'accel.conv2d' op residual type tensor<1x4x8x8xf32> does not match result tensor<1x4x6x6xf32>}}
  %0 = accel.conv2d %x, %w, %r {has_residual = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the residual has the result's element type.
func.func @conv2d_residual_dtype(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %r: tensor<1x4x6x6xf16>) {
  // expected-error@+1 {{'accel.conv2d' op residual type tensor<1x4x6x6xf16> does not match result tensor<1x4x6x6xf32>}}
  %0 = accel.conv2d %x, %w, %b, %r {has_bias = true, has_residual = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: with a residual, the bias is the third operand (has_bias without one).
func.func @conv2d_residual_no_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %r: tensor<1x4x6x6xf32>) {
  // expected-error@+1 {{'accel.conv2d' op has_bias is set but there is no bias operand}}
  %0 = accel.conv2d %x, %w, %r {has_bias = true, has_residual = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the bias is 1-D.
func.func @conv2d_bias_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4x1xf32>) {
  // expected-error@+1 {{'accel.conv2d' op expected 1-D bias, got rank 2 (4, 1)}}
  %0 = accel.conv2d %x, %w, %b {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4x1xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: one bias value per output channel.
func.func @conv2d_bias_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{'accel.conv2d' op bias of size 5 does not match 4 output channels}}
  %0 = accel.conv2d %x, %w, %b {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d (NHWC): the output channels are the last dim, not dim 1.
func.func @conv2d_nhwc_bias_size(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<6xf32>) {
  // expected-error@+1 {{'accel.conv2d' op bias of size 6 does not match 4 output channels}}
  %0 = accel.conv2d %x, %w, %b {data_layout = "NHWC", kernel_layout = "HWIO", has_bias = true} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<6xf32>) -> tensor<1x6x6x4xf32>
  func.return
}

// -----

/// conv2d: the bias has the result's element type (out_dtype).
func.func @conv2d_bias_dtype(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>, %b: tensor<4xi8>) {
  // expected-error@+1 {{'accel.conv2d' op bias element type i8 does not match result i32}}
  %0 = accel.conv2d %x, %w, %b {out_dtype = i32, has_bias = true} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<4xi8>) -> tensor<1x4x6x6xi32>
  func.return
}

// -----

/// conv2d: relay conv2d's own checks apply, with the accel op named.
func.func @conv2d_relay_check(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'accel.conv2d' op weight input channels 2 do not match data channels 3 / groups 1}}
  %0 = accel.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the written result type must be the inferred one.
func.func @conv2d_result_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'accel.conv2d' op inferred type(s) 'tensor<1x4x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  %0 = accel.conv2d %x, %w {has_relu = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  func.return
}

// -----

/// dense: has_bias without a bias operand.
func.func @dense_missing_bias(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>) {
  // expected-error@+1 {{'accel.dense' op has_bias is set but there is no bias operand}}
  %0 = accel.dense %x, %w {has_bias = true, has_relu = true} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// dense: one bias value per unit.
func.func @dense_bias_size(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'accel.dense' op bias of size 8 does not match 5 output channels}}
  %0 = accel.dense %x, %w, %b {has_bias = true} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<8xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// dense: relay dense's own checks apply.
func.func @dense_units(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>) {
  // expected-error@+1 {{'accel.dense' op units 4 do not match weight rows 5}}
  %0 = accel.dense %x, %w {units = 4} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// max_pool2d: relay's pool checks apply (the window must fit).
func.func @max_pool2d_window(%x: tensor<1x3x2x2xf32>) {
  // expected-error@+1 {{'accel.max_pool2d' op pool window of size 3 does not fit input extent 2 with padding 0}}
  %0 = accel.max_pool2d %x {pool_size = [3, 3]} : (tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32>
  func.return
}

// -----

/// avg_pool2d: only NCHW and NHWC.
func.func @avg_pool2d_layout(%x: tensor<1x3x4x4xf32>) {
  // expected-error@+1 {{'accel.avg_pool2d' op unknown layout 'CHWN'; expected one of NCHW, NHWC}}
  %0 = accel.avg_pool2d %x {layout = "CHWN"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return
}

// -----

/// global_avg_pool2d: 4-D data.
func.func @global_avg_pool2d_rank(%x: tensor<3x4x4xf32>) {
  // expected-error@+1 {{'accel.global_avg_pool2d' op expected 4-D data, got rank 3 (3, 4, 4)}}
  %0 = accel.global_avg_pool2d %x : (tensor<3x4x4xf32>) -> tensor<3x1x1xf32>
  func.return
}

// -----

/// add: no broadcasting, the operands have one shape.
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'accel.add' op operand shapes (2, 3) and (3) differ; accel elementwise ops do not broadcast}}
  %0 = accel.add %a, %b {has_relu = true} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// multiply: one element type.
func.func @multiply_dtype(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) {
  // expected-error@+1 {{'accel.multiply' op operand element types differ: f32 vs f16}}
  %0 = accel.multiply %a, %b : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<2x3xf32>
  func.return
}

// -----

/// relu: one operand.
func.func @relu_operands(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'accel.relu' op expected 1 operands, got 2}}
  %0 = accel.relu %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// batch_norm: one value per channel in each statistic (relay's check).
func.func @batch_norm_size(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %m: tensor<3xf32>) {
  // expected-error@+1 {{'accel.batch_norm' op moving_mean of size 3 does not match data dim 4 on axis 1}}
  %0 = accel.batch_norm %x, %g, %g, %m, %g : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

/// batch_norm: one tensor result, not relay's tuple.
func.func @batch_norm_tuple(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>) {
  // expected-error@+1 {{'accel.batch_norm' op result 'result' at position 0 does not verify: tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>> should be of base attribute tensor}}
  %0 = accel.batch_norm %x, %g, %g, %g, %g : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

/// conv2d_winograd: the weights are (4, 4, K, C), C the data's channels.
func.func @conv2d_winograd_channels(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x8xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op weight shape (4, 4, 32, 8) is not (4, 4, K, C) for tile 2 and 16 input channels}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<4x4x32x8xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: the weights are transformed (4x4 tile positions), not a 3x3 filter.
func.func @conv2d_winograd_filter(%x: tensor<1x16x8x8xf32>, %u: tensor<3x3x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op weight shape (3, 3, 32, 16) is not (4, 4, K, C) for tile 2 and 16 input channels}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<3x3x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: tile 4 takes 6x6 weights (F(4x4, 3x3)), not F(2x2)'s.
func.func @conv2d_winograd_tile_4_weights(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op weight shape (4, 4, 32, 16) is not (6, 6, K, C) for tile 4 and 16 input channels}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], tile = 4} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: the tile is 2 or 4.
func.func @conv2d_winograd_tile(%x: tensor<1x16x8x8xf32>, %u: tensor<5x5x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op tile must be one of [2, 4], got 3}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], tile = 3} : (tensor<1x16x8x8xf32>, tensor<5x5x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: 4-D weights.
func.func @conv2d_winograd_weight_rank(%x: tensor<1x16x8x8xf32>, %u: tensor<16x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op expected 4-D weight, got rank 3 (16, 32, 16)}}
  %0 = accel.conv2d_winograd %x, %u : (tensor<1x16x8x8xf32>, tensor<16x32x16xf32>) -> tensor<1x32x6x6xf32>
  func.return
}

// -----

/// conv2d_winograd: weights of the data's element type.
func.func @conv2d_winograd_weight_dtype(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf16>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op weight element type f16 does not match data f32}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf16>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: one bias value per output channel (K, not C).
func.func @conv2d_winograd_bias_size(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %b: tensor<16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op bias of size 16 does not match 32 output channels}}
  %0 = accel.conv2d_winograd %x, %u, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: the bias has the result's element type.
func.func @conv2d_winograd_bias_dtype(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %b: tensor<32xf16>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op bias element type f16 does not match result f32}}
  %0 = accel.conv2d_winograd %x, %u, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf16>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: has_bias without a bias operand.
func.func @conv2d_winograd_missing_bias(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op has_bias is set but there is no bias operand}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: a bias operand without has_bias.
func.func @conv2d_winograd_unflagged_bias(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %b: tensor<32xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op a bias operand needs has_bias = true}}
  %0 = accel.conv2d_winograd %x, %u, %b {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: with a residual, the bias is the third operand (has_bias without one).
func.func @conv2d_winograd_residual_no_bias(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %r: tensor<1x32x8x8xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op has_bias is set but there is no bias operand}}
  %0 = accel.conv2d_winograd %x, %u, %r {padding = [1, 1, 1, 1], has_bias = true, has_residual = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: the residual has the convolution's shape.
func.func @conv2d_winograd_residual_shape(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %r: tensor<1x32x6x6xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op residual type tensor<1x32x6x6xf32> does not match result tensor<1x32x8x8xf32>}}
  %0 = accel.conv2d_winograd %x, %u, %r {padding = [1, 1, 1, 1], has_residual = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<1x32x6x6xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: the residual has the convolution's element type.
func.func @conv2d_winograd_residual_dtype(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %b: tensor<32xf32>, %r: tensor<1x32x8x8xf16>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op residual type tensor<1x32x8x8xf16> does not match result tensor<1x32x8x8xf32>}}
  %0 = accel.conv2d_winograd %x, %u, %b, %r {padding = [1, 1, 1, 1], has_bias = true, has_residual = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>, tensor<1x32x8x8xf16>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: with has_max_pool, the residual is still of the convolution's type (it is
/// added before the pool), not of the pooled result's.
func.func @conv2d_winograd_residual_pooled(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %r: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op residual type tensor<1x32x4x4xf32> does not match result tensor<1x32x8x8xf32>}}
  %0 = accel.conv2d_winograd %x, %u, %r {padding = [1, 1, 1, 1], has_residual = true, has_max_pool = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// conv2d_winograd: has_residual without a residual operand.
func.func @conv2d_winograd_missing_residual(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op has_residual is set but there is no residual operand}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_residual = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: a fourth operand without has_residual.
func.func @conv2d_winograd_unflagged_residual(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %b: tensor<32xf32>, %r: tensor<1x32x8x8xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op a fourth operand (a residual) needs has_residual = true}}
  %0 = accel.conv2d_winograd %x, %u, %b, %r {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>, tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: two to four operands.
func.func @conv2d_winograd_operand_count(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %b: tensor<32xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op expected 2 to 4 operands, got 5}}
  %0 = accel.conv2d_winograd %x, %u, %b, %b, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: has_max_pool needs even convolution extents (a pool window is a tile).
func.func @conv2d_winograd_odd_pool(%x: tensor<1x16x7x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op has_max_pool needs even output extents, got 7x8}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_max_pool = true} : (tensor<1x16x7x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x3x4xf32>
  func.return
}

// -----

/// conv2d_winograd: the odd extent may be the width.
func.func @conv2d_winograd_odd_pool_width(%x: tensor<1x16x8x9xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op has_max_pool needs even output extents, got 6x7}}
  %0 = accel.conv2d_winograd %x, %u {has_max_pool = true} : (tensor<1x16x8x9xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x3x3xf32>
  func.return
}

// -----

/// conv2d_winograd: the 3x3 window must fit the padded input.
func.func @conv2d_winograd_window(%x: tensor<1x16x2x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op a 3x3 window does not fit input (1, 16, 2, 8)}}
  %0 = accel.conv2d_winograd %x, %u : (tensor<1x16x2x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x0x6xf32>
  func.return
}

// -----

/// conv2d_winograd: padding has 1, 2 or 4 values.
func.func @conv2d_winograd_padding_length(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op padding must have 1, 2 or 4 values, got 3}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: padding is not negative.
func.func @conv2d_winograd_padding_negative(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op padding must be non-negative, got [1, -1, 1, 1]}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, -1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x8x7xf32>
  func.return
}

// -----

/// conv2d_winograd: 4-D (NCHW) data.
func.func @conv2d_winograd_data_rank(%x: tensor<16x8x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op expected 4-D data, got rank 3 (16, 8, 8)}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d_winograd: the written result type must be the inferred one (the pooled extents).
func.func @conv2d_winograd_result_type(%x: tensor<1x16x8x8xf32>, %u: tensor<4x4x32x16xf32>) {
  // expected-error@+1 {{'accel.conv2d_winograd' op inferred type(s) 'tensor<1x32x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x32x8x8xf32>'}}
  %0 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_max_pool = true} : (tensor<1x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<1x32x8x8xf32>
  func.return
}

// -----

/// conv2d: clip_min without clip_max.
func.func @conv2d_half_clip(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'accel.conv2d' op clip_min and clip_max must be set together}}
  %0 = accel.conv2d %x, %w {clip_min = 0.0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// dense: an infinite clip bound.
func.func @dense_infinite_clip(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>) {
  // expected-error@+1 {{'accel.dense' op clip bounds must be finite, got [0.0, inf]}}
  %0 = accel.dense %x, %w {clip_min = 0.0, clip_max = 0x7FF0000000000000 : f64} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// conv2d: clip_min above clip_max.
func.func @conv2d_empty_clip(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'accel.conv2d' op clip_min (6.0) must not exceed clip_max (0.0)}}
  %0 = accel.conv2d %x, %w {clip_min = 6.0, clip_max = 0.0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}
