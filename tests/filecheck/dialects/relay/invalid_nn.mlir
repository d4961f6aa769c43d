// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// conv2d: the data must be 4-D.
func.func @conv2d_data_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op expected 4-D data, got rank 3 (3, 8, 8)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the weight must be 4-D.
func.func @conv2d_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op expected 4-D weight, got rank 3 (4, 3, 3)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: data and weight must share an element type.
func.func @conv2d_weight_dtype(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight element type f16 does not match data f32}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: a data layout other than NCHW / NHWC must have the primal axes N, C, H, W.
func.func @conv2d_data_layout(%x: tensor<1x3x8x8x1xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op data layout 'NCDHW' must have the primal axes N, C, H, W (each once, sub-axes such as '4c' after them)}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCDHW"} : (tensor<1x3x8x8x1xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: a blocked data layout's rank is its number of axes.
func.func @conv2d_blocked_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op expected 5-D data for layout 'NCHW4c', got rank 4}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW4c"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x1x6x6x4xf32>
  func.return
}

// -----

/// conv2d: a sub-axis dim must be its factor.
func.func @conv2d_blocked_factor(%x: tensor<1x2x8x8x3xf32>, %w: tensor<4x8x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op data in layout 'NCHW4c': input dim 3 of sub-axis 'c' does not match its factor 4 in src_layout 'NCHW4c'}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW4c"} : (tensor<1x2x8x8x3xf32>, tensor<4x8x3x3xf32>) -> tensor<1x1x6x6x4xf32>
  func.return
}

// -----

/// conv2d: the output channels must split as the data layout's C does.
func.func @conv2d_blocked_output(%x: tensor<1x1x8x8x4xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op output in layout 'NCHW4c': axis 'C' of size 6 is not divisible by factor 4 in dst_layout 'NCHW4c'}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW4c"} : (tensor<1x1x8x8x4xf32>, tensor<6x4x3x3xf32>) -> tensor<1x1x6x6x4xf32>
  func.return
}

// -----

/// conv2d: in blocked layouts the checks run in NCHW / OIHW and say so.
func.func @conv2d_blocked_channels(%x: tensor<1x1x8x8x4xf32>, %w: tensor<1x2x3x3x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight input channels 8 do not match data channels 4 / groups 1; data (1, 4, 8, 8) (NCHW), weight (4, 8, 3, 3) (OIHW) (checked in NCHW / OIHW for data_layout 'NCHW4c', kernel_layout 'OIHW4i4o')}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"} : (tensor<1x1x8x8x4xf32>, tensor<1x2x3x3x4x4xf32>) -> tensor<1x1x6x6x4xf32>
  func.return
}

// -----

/// conv2d: a kernel layout's sub-axes need their primal axes.
func.func @conv2d_kernel_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3x4xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op invalid weight layout 'OIHW4x': sub-axis 'x' has no primal axis 'X'}}
  %0 = relay.nn.conv2d %x, %w {kernel_layout = "OIHW4x"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3x4xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: strides take 2 values.
func.func @conv2d_strides_len(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op strides must have 2 values, got 3}}
  %0 = relay.nn.conv2d %x, %w {strides = [1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: dilation takes 2 values.
func.func @conv2d_dilation_len(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op dilation must have 2 values, got 1}}
  %0 = relay.nn.conv2d %x, %w {dilation = [1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: padding takes 1, 2 or 4 values.
func.func @conv2d_padding_len(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op padding must have 1, 2 or 4 values, got 3}}
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: a zero stride.
func.func @conv2d_zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op strides must be positive, got [0, 1]}}
  %0 = relay.nn.conv2d %x, %w {strides = [0, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: a negative dilation.
func.func @conv2d_negative_dilation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op dilation must be positive, got [1, -1]}}
  %0 = relay.nn.conv2d %x, %w {dilation = [1, -1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: a negative padding.
func.func @conv2d_negative_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op padding must be non-negative, got [-1, 0]}}
  %0 = relay.nn.conv2d %x, %w {padding = [-1, 0]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: zero groups.
func.func @conv2d_zero_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op groups must be positive, got 0}}
  %0 = relay.nn.conv2d %x, %w {groups = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: input channels not divisible by groups.
func.func @conv2d_groups_input(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op input channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv2d %x, %w {groups = 2} : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: output channels not divisible by groups.
func.func @conv2d_groups_output(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op output channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv2d %x, %w {groups = 2} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the weight's I is not C / groups (NCHW / OIHW).
func.func @conv2d_weight_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight input channels 2 do not match data channels 3 / groups 1; data (1, 3, 8, 8) (NCHW), weight (4, 2, 3, 3) (OIHW)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the weight's I is not C / groups (NHWC / HWIO), with a `?` batch.
func.func @conv2d_weight_channels_nhwc(%x: tensor<?x8x8x3xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight input channels 4 do not match data channels 3 / groups 1; data (?, 8, 8, 3) (NHWC), weight (3, 3, 4, 8) (HWIO)}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x8x8x3xf32>, tensor<3x3x4x8xf32>) -> tensor<?x6x6x8xf32>
  func.return
}

// -----

/// conv2d: channels must be positive.
func.func @conv2d_zero_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op channels must be positive, got 0}}
  %0 = relay.nn.conv2d %x, %w {channels = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: channels disagree with the weight.
func.func @conv2d_channels_mismatch(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op channels 8 do not match weight output channels 4}}
  %0 = relay.nn.conv2d %x, %w {channels = 8} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: kernel_size takes 2 values.
func.func @conv2d_kernel_size_len(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size must have 2 values, got 1}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: kernel_size must be positive.
func.func @conv2d_zero_kernel_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x?x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size must be positive, got [0, 3]}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [0, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x?x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: kernel_size disagrees with the weight.
func.func @conv2d_kernel_size_mismatch(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size [5, 5] does not match weight kernel [3, 3]}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [5, 5]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: kernel_size disagrees with the weight's static dim; the `?` is shown.
func.func @conv2d_kernel_size_mismatch_dynamic(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x?x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size [5, 5] does not match weight kernel [?, 3]}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [5, 5]} : (tensor<1x3x8x8xf32>, tensor<4x3x?x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the kernel does not fit the input.
func.func @conv2d_window_too_big(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x9x9xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op window of size 9 does not fit input extent 8 with padding 0}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x9x9xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the dilated kernel does not fit the padded input.
func.func @conv2d_dilated_window_too_big(%x: tensor<1x3x2x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op window of size 5 does not fit input extent 2 with padding 2}}
  %0 = relay.nn.conv2d %x, %w {dilation = [2, 1], padding = [1, 1]} : (tensor<1x3x2x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: out_dtype must be a relay dtype.
func.func @conv2d_bad_out_dtype(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op unsupported out_dtype index}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = index} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: strides must be integers.
func.func @conv2d_float_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op attribute 'strides' must be a list of integers, got array<f32: 1.000000e+00, 1.000000e+00>}}
  %0 = relay.nn.conv2d %x, %w {strides = array<f32: 1.0, 1.0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

/// conv2d: the written result shape disagrees with inference.
func.func @conv2d_wrong_result_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op inferred type(s) 'tensor<1x4x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  func.return
}

// -----

/// conv2d: the result must have out_dtype.
func.func @conv2d_wrong_result_dtype(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) {
  // expected-error@+1 {{'relay.nn.conv2d' op inferred type(s) 'tensor<1x4x6x6xi32>' are incompatible with return type(s) of operation 'tensor<1x4x6x6xi8>'}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>) -> tensor<1x4x6x6xi8>
  func.return
}

// -----

/// bias_add: the bias must be 1-D.
func.func @bias_add_bias_rank(%x: tensor<1x4x2x2xf32>, %b: tensor<4x1xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op expected 1-D bias, got rank 2 (4, 1)}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<4x1xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

/// bias_add: axis out of range.
func.func @bias_add_axis_range(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op axis 4 is out of range for rank 4}}
  %0 = relay.nn.bias_add %x, %b {axis = 4} : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

/// bias_add: data and bias must share an element type.
func.func @bias_add_dtype(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{'relay.nn.bias_add' op bias element type f16 does not match data f32}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<4xf16>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

/// bias_add: the bias size differs from the data dim on axis.
func.func @bias_add_size(%x: tensor<1x4x2x2xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op bias of size 3 does not match data dim 4 on axis 1}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<3xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

/// leaky_relu: float data only.
func.func @leaky_relu_int(%x: tensor<4xi32>) {
  // expected-error@+1 {{'relay.nn.leaky_relu' op expected a floating-point operand, got i32}}
  %0 = relay.nn.leaky_relu %x : tensor<4xi32>
  func.return
}

// -----

/// dense: the data needs a reduction dim.
func.func @dense_rank0(%x: tensor<f32>, %w: tensor<4x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.dense %x, %w : (tensor<f32>, tensor<4x8xf32>) -> tensor<4xf32>
  func.return
}

// -----

/// dense: the weight must be 2-D.
func.func @dense_weight_rank(%x: tensor<2x8xf32>, %w: tensor<4x8x1xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op expected 2-D weight, got rank 3 (4, 8, 1)}}
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8x1xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// dense: data and weight must share an element type.
func.func @dense_dtype(%x: tensor<2x8xf32>, %w: tensor<4x8xf16>) {
  // expected-error@+1 {{'relay.nn.dense' op weight element type f16 does not match data f32}}
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8xf16>) -> tensor<2x4xf32>
  func.return
}

// -----

/// dense: data and weight disagree on K.
func.func @dense_reduction(%x: tensor<2x8xf32>, %w: tensor<4x7xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op data (2, 8) and weight (4, 7) disagree on the reduction dim: 8 vs 7}}
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x7xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// dense: units must be positive.
func.func @dense_negative_units(%x: tensor<2x8xf32>, %w: tensor<?x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op units must be positive, got -4}}
  %0 = relay.nn.dense %x, %w {units = -4} : (tensor<2x8xf32>, tensor<?x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// dense: units disagree with the weight rows.
func.func @dense_units_mismatch(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op units 5 do not match weight rows 4}}
  %0 = relay.nn.dense %x, %w {units = 5} : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// dense: out_dtype must be a relay dtype.
func.func @dense_bad_out_dtype(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op unsupported out_dtype tensor<2xf32>}}
  %0 = relay.nn.dense %x, %w {out_dtype = tensor<2xf32>} : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// batch_norm: float data only.
func.func @batch_norm_int(%x: tensor<2x3xi32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op expected a floating-point operand, got i32}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>>
  func.return
}

// -----

/// batch_norm: axis out of range.
func.func @batch_norm_axis(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op axis 2 is out of range for rank 2}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v {axis = 2} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

/// batch_norm: negative axis out of range.
func.func @batch_norm_negative_axis(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op axis -3 is out of range for rank 2}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v {axis = -3} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

/// batch_norm: a negative epsilon.
func.func @batch_norm_epsilon(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op epsilon must be non-negative, got -1.0}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v {epsilon = -1.0} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

/// batch_norm: gamma must be 1-D.
func.func @batch_norm_gamma_rank(%x: tensor<2x3xf32>, %g: tensor<3x1xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op expected 1-D gamma, got rank 2 (3, 1)}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xf32>, tensor<3x1xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

/// batch_norm: gamma must have the data's element type.
func.func @batch_norm_gamma_dtype(%x: tensor<2x3xf32>, %g: tensor<3xf16>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op gamma element type f16 does not match data f32}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xf32>, tensor<3xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

/// batch_norm: gamma's size differs from the data dim on axis.
func.func @batch_norm_gamma_size(%x: tensor<2x3xf32>, %g: tensor<4xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op gamma of size 4 does not match data dim 3 on axis 1}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

/// batch_norm: with a `?` channel dim, the parameters must agree with each other.
func.func @batch_norm_beta_size(%x: tensor<2x?xf32>, %g: tensor<4xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op beta of size 3 does not match gamma size 4}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x?xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x?xf32>, tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

/// dropout: rate 1 is out of [0, 1).
func.func @dropout_rate_one(%x: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.dropout' op rate must be in [0, 1), got 1.0}}
  %0 = relay.nn.dropout %x {rate = 1.0} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

/// dropout: a negative rate.
func.func @dropout_rate_negative(%x: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.dropout' op rate must be in [0, 1), got -0.5}}
  %0 = relay.nn.dropout %x {rate = -0.5} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

/// dropout: float data only.
func.func @dropout_int(%x: tensor<4xi32>) {
  // expected-error@+1 {{'relay.nn.dropout' op expected a floating-point operand, got i32}}
  %0 = relay.nn.dropout %x : (tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xi32>>
  func.return
}

// -----

/// softmax: axis out of range.
func.func @softmax_axis(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'relay.nn.softmax' op axis 2 is out of range for rank 2}}
  %0 = relay.nn.softmax %x {axis = 2} : tensor<2x4xf32>
  func.return
}

// -----

/// softmax: float data only.
func.func @softmax_int(%x: tensor<2x4xi32>) {
  // expected-error@+1 {{'relay.nn.softmax' op expected a floating-point operand, got i32}}
  %0 = relay.nn.softmax %x : tensor<2x4xi32>
  func.return
}

// -----

/// log_softmax: negative axis out of range.
func.func @log_softmax_axis(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'relay.nn.log_softmax' op axis -3 is out of range for rank 2}}
  %0 = relay.nn.log_softmax %x {axis = -3} : tensor<2x4xf32>
  func.return
}

// -----

/// log_softmax: float data only.
func.func @log_softmax_int(%x: tensor<2x4xi8>) {
  // expected-error@+1 {{'relay.nn.log_softmax' op expected a floating-point operand, got i8}}
  %0 = relay.nn.log_softmax %x : tensor<2x4xi8>
  func.return
}

// -----

/// batch_flatten: the data needs a batch dim.
func.func @batch_flatten_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.batch_flatten' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.batch_flatten %x : (tensor<f32>) -> tensor<1x1xf32>
  func.return
}

// -----

/// batch_flatten: the written result disagrees with inference (with a `?` batch).
func.func @batch_flatten_wrong_result(%x: tensor<?x3x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_flatten' op inferred type(s) 'tensor<?x12xf32>' are incompatible with return type(s) of operation 'tensor<?x6xf32>'}}
  %0 = relay.nn.batch_flatten %x : (tensor<?x3x4xf32>) -> tensor<?x6xf32>
  func.return
}

// -----

/// pad: pad_width needs two values per axis.
func.func @pad_width_len(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_width must have 2 values per axis (4), got 3}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, 1]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// pad: a negative width.
func.func @pad_negative(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_width must be non-negative, got [0, 0, -1, 0]}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, -1, 0]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// pad: only constant, edge, reflect and wrap modes.
func.func @pad_mode(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op unknown pad_mode 'symmetric'; expected one of constant, edge, reflect, wrap}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, 1, 1], pad_mode = "symmetric"} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// pad: reflect widths must be smaller than the dim.
func.func @pad_reflect_too_wide(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op reflect padding 3 must be smaller than dim 3 on axis 1}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, 3, 0], pad_mode = "reflect"} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  func.return
}

// -----

/// pad: edge padding of an empty dim.
func.func @pad_edge_empty(%x: tensor<0x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op edge padding needs a non-empty dim, got 0 on axis 0}}
  %0 = relay.nn.pad %x {pad_width = [1, 1, 0, 0], pad_mode = "edge"} : (tensor<0x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// pad: wrap padding of an empty dim.
func.func @pad_wrap_empty(%x: tensor<3x0xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op wrap padding needs a non-empty dim, got 0 on axis 1}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, 0, 2], pad_mode = "wrap"} : (tensor<3x0xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

/// pad: pad_width must be integers.
func.func @pad_float_width(%x: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op attribute 'pad_width' must be a list of integers, got array<f64: 1.000000e+00, 1.000000e+00>}}
  %0 = relay.nn.pad %x {pad_width = array<f64: 1.0, 1.0>} : (tensor<3xf32>) -> tensor<5xf32>
  func.return
}

// -----

/// pad: the written result disagrees with inference (with a `?` dim).
func.func @pad_wrong_result(%x: tensor<?x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op inferred type(s) 'tensor<?x5xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  %0 = relay.nn.pad %x {pad_width = [2, 0, 1, 1]} : (tensor<?x3xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

/// max_pool2d: the data must be 4-D.
func.func @max_pool2d_rank(%x: tensor<2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op expected 4-D data, got rank 3 (2, 4, 4)}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2]} : (tensor<2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// max_pool2d: a layout other than NCHW / NHWC must have the primal axes N, C, H, W.
func.func @max_pool2d_layout(%x: tensor<1x2x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op data layout 'NCW' must have the primal axes N, C, H, W (each once, sub-axes such as '4c' after them)}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], layout = "NCW"} : (tensor<1x2x4xf32>) -> tensor<1x2x2xf32>
  func.return
}

// -----

/// max_pool2d: a blocked layout may split C, not H or W.
func.func @max_pool2d_split_h(%x: tensor<1x2x2x4x2xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op layout 'NCHW2h' splits H or W; pools cannot}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], layout = "NCHW2h"} : (tensor<1x2x2x4x2xf32>) -> tensor<1x2x1x2x2xf32>
  func.return
}

// -----

/// max_pool2d: pool_size takes 2 values.
func.func @max_pool2d_pool_size_len(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op pool_size must have 2 values, got 1}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// avg_pool2d: pool_size must be positive.
func.func @avg_pool2d_zero_pool_size(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op pool_size must be positive, got [0, 2]}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [0, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// max_pool2d: strides take 2 values.
func.func @max_pool2d_strides_len(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op strides must have 2 values, got 3}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// max_pool2d: dilation takes 2 values.
func.func @max_pool2d_dilation_len(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op dilation must have 2 values, got 1}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], dilation = [1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// max_pool2d: padding takes 1, 2 or 4 values.
func.func @max_pool2d_padding_len(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op padding must have 1, 2 or 4 values, got 3}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], padding = [1, 1, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// max_pool2d: a negative padding.
func.func @max_pool2d_negative_padding(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op padding must be non-negative, got [-1]}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], padding = [-1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// max_pool2d: a zero stride.
func.func @max_pool2d_zero_stride(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op strides must be positive, got [2, 0]}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 0]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// avg_pool2d: a zero dilation.
func.func @avg_pool2d_zero_dilation(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op dilation must be positive, got [0, 1]}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [2, 2], dilation = [0, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// max_pool2d: the window does not fit the input.
func.func @max_pool2d_window_too_big(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op pool window of size 5 does not fit input extent 4 with padding 0}}
  %0 = relay.nn.max_pool2d %x {pool_size = [5, 5]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// avg_pool2d: the dilated window does not fit the input (static H, `?` W).
func.func @avg_pool2d_dilated_window_too_big(%x: tensor<?x2x4x?xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op pool window of size 5 does not fit input extent 4 with padding 0}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [3, 2], dilation = [2, 1]} : (tensor<?x2x4x?xf32>) -> tensor<?x2x1x?xf32>
  func.return
}

// -----

/// avg_pool2d: ceil_mode adds a window; the written result omits it.
func.func @avg_pool2d_wrong_ceil_result(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op inferred type(s) 'tensor<1x2x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x2x2x2xf32>'}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], padding = [1, 1, 0, 0], ceil_mode = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

/// global_avg_pool2d: the data must be 4-D.
func.func @global_avg_pool2d_rank(%x: tensor<2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.global_avg_pool2d' op expected 4-D data, got rank 3 (2, 4, 4)}}
  %0 = relay.nn.global_avg_pool2d %x : (tensor<2x4x4xf32>) -> tensor<1x1xf32>
  func.return
}

// -----

/// global_max_pool2d: a blocked layout's rank is its number of axes.
func.func @global_max_pool2d_layout(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.global_max_pool2d' op expected 5-D data for layout 'NCHW2c', got rank 4}}
  %0 = relay.nn.global_max_pool2d %x {layout = "NCHW2c"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  func.return
}

// -----

/// contrib_conv2d_NCHWc: conv2d's relation; the output channels must split as C does.
func.func @contrib_conv2d_nchwc_output(%x: tensor<1x1x8x8x4xf32>, %w: tensor<1x4x3x3x2xf32>) {
  // expected-error@+1 {{'relay.nn.contrib_conv2d_NCHWc' op output in layout 'NCHW4c': axis 'C' of size 2 is not divisible by factor 4 in dst_layout 'NCHW4c'}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW2o"} : (tensor<1x1x8x8x4xf32>, tensor<1x4x3x3x2xf32>) -> tensor<1x1x6x6x4xf32>
  func.return
}

// -----

/// bias_add: scalar data has no axis.
func.func @bias_add_rank0(%x: tensor<f32>, %b: tensor<1xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.bias_add %x, %b {axis = 0} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
  func.return
}

// -----

/// batch_norm: scalar data has no axis.
func.func @batch_norm_rank0(%x: tensor<f32>, %v: tensor<1xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {axis = 0} : (tensor<f32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tuple<tensor<f32>, tensor<1xf32>, tensor<1xf32>>
  func.return
}

// -----

/// softmax: scalar data has no axis.
func.func @softmax_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.softmax' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.softmax %x {axis = 0} : tensor<f32>
  func.return
}

// -----

/// log_softmax: scalar data has no axis.
func.func @log_softmax_rank0(%x: tensor<f16>) {
  // expected-error@+1 {{'relay.nn.log_softmax' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.log_softmax %x {axis = 0} : tensor<f16>
  func.return
}

// -----

/// conv2d: channels fill a `?` weight dim and must divide by groups.
func.func @conv2d_channels_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<?x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op output channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv2d %x, %w {groups = 2, channels = 3} : (tensor<1x4x8x8xf32>, tensor<?x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  func.return
}

// -----

/// batch_norm: a NaN epsilon.
func.func @batch_norm_nan_epsilon(%x: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op epsilon must be non-negative, got nan}}
  %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {epsilon = 0x7FF8000000000000 : f64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}
