// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// conv2d: has_bias without a bias operand.
func.func @conv2d_missing_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op has_bias = true and has_sum = false need 1 operand after the weight, got 0}}
  %0 = dnnl.conv2d %x, %w {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: bias and sum flagged, one operand given.
func.func @conv2d_missing_sum(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op has_bias = true and has_sum = true need 2 operands after the weight, got 1}}
  %0 = dnnl.conv2d %x, %w, %b {has_bias = true, has_sum = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: two to four operands.
func.func @conv2d_operand_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op expected 2 to 4 operands, got 5}}
  %0 = dnnl.conv2d %x, %w, %b, %b, %b {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the bias is 1-D.
func.func @conv2d_bias_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4x1xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op expected 1-D bias, got rank 2 (4, 1)}}
  %0 = dnnl.conv2d %x, %w, %b {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4x1xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d (NHWC): one bias value per output channel, the last dim.
func.func @conv2d_nhwc_bias_size(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<6xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op bias of size 6 does not match 4 output channels}}
  %0 = dnnl.conv2d %x, %w, %b {data_layout = "NHWC", has_bias = true} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x4xf32>
  func.return
}

// -----

/// conv2d: the bias has the result's element type (out_dtype).
func.func @conv2d_bias_dtype(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>, %b: tensor<4xi8>) {
  // expected-error@+1 {{'dnnl.conv2d' op bias element type i8 does not match result i32}}
  %0 = dnnl.conv2d %x, %w, %b {out_dtype = i32, has_bias = true} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<4xi8>) -> tensor<1x4x6x6xi32>
  func.return
}

// -----

/// conv2d: the sum operand has the result's type (oneDNN accumulates into the output).
func.func @conv2d_sum_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %s: tensor<1x4x1x1xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op sum operand tensor<1x4x1x1xf32> is not of the result type tensor<1x4x6x6xf32>}}
  %0 = dnnl.conv2d %x, %w, %s {has_sum = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the eltwise post-ops are relu, tanh, sigmoid and clip.
func.func @conv2d_eltwise(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op eltwise must be one of relu, tanh, sigmoid, clip, gelu_erf, gelu_erf_x2, got 'gelu'}}
  %0 = dnnl.conv2d %x, %w {eltwise = "gelu"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: eltwise clip needs both bounds.
func.func @conv2d_clip_bounds(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op eltwise clip needs a_min and a_max}}
  %0 = dnnl.conv2d %x, %w {eltwise = "clip", a_min = 0.0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// dense: clip's bounds in order.
func.func @dense_clip_order(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) {
  // expected-error@+1 {{'dnnl.dense' op a_min (6.0) must not exceed a_max (0.0)}}
  %0 = dnnl.dense %x, %w {eltwise = "clip", a_min = 6.0, a_max = 0.0} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// dense: bounds without eltwise clip.
func.func @dense_bounds_without_clip(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) {
  // expected-error@+1 {{'dnnl.dense' op a_min and a_max are the bounds of eltwise clip only}}
  %0 = dnnl.dense %x, %w {eltwise = "relu", a_min = 0.0, a_max = 6.0} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// conv2d: relay conv2d's own checks apply, with the dnnl op named.
func.func @conv2d_relay_check(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op weight input channels 2 do not match data channels 3 / groups 1}}
  %0 = dnnl.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the written result type must be the inferred one.
func.func @conv2d_result_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'dnnl.conv2d' op inferred type(s) 'tensor<1x4x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  %0 = dnnl.conv2d %x, %w {eltwise = "relu"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  func.return
}

// -----

/// dense: one bias value per unit.
func.func @dense_bias_size(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'dnnl.dense' op bias of size 8 does not match 5 output channels}}
  %0 = dnnl.dense %x, %w, %b {has_bias = true} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<8xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// dense: relay dense's own checks apply.
func.func @dense_units(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>) {
  // expected-error@+1 {{'dnnl.dense' op units 4 do not match weight rows 5}}
  %0 = dnnl.dense %x, %w {units = 4} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// add: oneDNN broadcasts the rhs only; the lhs has the result's shape.
func.func @add_lhs_broadcast(%a: tensor<3xf32>, %b: tensor<2x3xf32>) {
  // expected-error@+1 {{'dnnl.add' op lhs of shape (3) is broadcast to (2, 3); oneDNN broadcasts the rhs only}}
  %0 = dnnl.add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// multiply: relay's broadcasting rules apply.
func.func @multiply_shapes(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  // expected-error@+1 {{'dnnl.multiply' op operand shapes (2, 3) and (2) do not broadcast}}
  %0 = dnnl.multiply %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// relu: one operand of the result's type.
func.func @relu_type(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'dnnl.relu' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  %0 = dnnl.relu %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

/// max_pool2d: relay's pool checks apply (the window must fit).
func.func @max_pool2d_window(%x: tensor<1x2x2x3xf32>) {
  // expected-error@+1 {{'dnnl.max_pool2d' op pool window of size 3 does not fit input extent 2 with padding 0}}
  %0 = dnnl.max_pool2d %x {pool_size = [3, 3], layout = "NHWC"} : (tensor<1x2x2x3xf32>) -> tensor<1x1x1x3xf32>
  func.return
}

// -----

/// reorder: only transpositions, no blocked layouts.
func.func @reorder_blocked(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'dnnl.reorder' op 'NCHW' to 'NCHW16c' is not a transposition (the same axes, none blocked)}}
  %0 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NCHW16c"} : (tensor<1x32x4x4xf32>) -> tensor<1x2x4x4x16xf32>
  func.return
}

// -----

/// reorder: both layouts name the same axes.
func.func @reorder_axes(%x: tensor<1x3x4x4xf32>) {
  // expected-error@+1 {{'dnnl.reorder' op 'NCHW' to 'NHWD' is not a transposition (the same axes, none blocked)}}
  %0 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NHWD"} : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
  func.return
}

// -----

/// batch_norm: relay's checks apply (one statistic per channel of the axis).
func.func @batch_norm_channels(%x: tensor<1x4x2x2xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'dnnl.batch_norm' op gamma of size 3 does not match data dim 4 on axis 1}}
  %0 = dnnl.batch_norm %x, %v, %v, %v, %v : (tensor<1x4x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

/// matmul: two 2-D or two 3-D operands.
func.func @matmul_rank(%a: tensor<2x2x5x7xf32>, %b: tensor<2x2x7x3xf32>) {
  // expected-error@+1 {{'dnnl.matmul' op operands of ranks 4 and 4; oneDNN's matmul here takes two 2-D or two 3-D operands}}
  %0 = dnnl.matmul %a, %b : (tensor<2x2x5x7xf32>, tensor<2x2x7x3xf32>) -> tensor<2x2x5x3xf32>
  func.return
}
