// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// conv1d: the data must be 3-D.
func.func @conv1d_data_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op expected 3-D data, got rank 4 (1, 3, 8, 8)}}
  %0 = relay.nn.conv1d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv3d: the weight must be 5-D.
func.func @conv3d_weight_rank(%x: tensor<1x3x4x4x4xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv3d' op expected 5-D weight, got rank 4 (4, 3, 3, 3)}}
  %0 = relay.nn.conv3d %x, %w : (tensor<1x3x4x4x4xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x2x2x2xf32>
  func.return
}

// -----

/// conv1d: data and weight share an element type.
func.func @conv1d_weight_dtype(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf16>) {
  // expected-error@+1 {{'relay.nn.conv1d' op weight element type f16 does not match data f32}}
  %0 = relay.nn.conv1d %x, %w : (tensor<1x3x8xf32>, tensor<4x3x3xf16>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv1d: only NCW and NWC data layouts.
func.func @conv1d_data_layout(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op unknown data_layout 'CNW'; expected one of NCW, NWC}}
  %0 = relay.nn.conv1d %x, %w {data_layout = "CNW"} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv2d_transpose: IOHW, OIHW, HWIO or HWOI weights.
func.func @conv2d_transpose_kernel_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<3x4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op unknown kernel_layout 'IHWO'; expected one of IOHW, OIHW, HWIO, HWOI}}
  %0 = relay.nn.conv2d_transpose %x, %w {kernel_layout = "IHWO"} : (tensor<1x3x8x8xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x10x10xf32>
  func.return
}

// -----

/// conv3d: strides has one value per spatial dim.
func.func @conv3d_strides_len(%x: tensor<1x3x4x4x4xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv3d' op strides must have 3 values, got 2}}
  %0 = relay.nn.conv3d %x, %w {strides = [1, 1]} : (tensor<1x3x4x4x4xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x2x2x2xf32>
  func.return
}

// -----

/// conv1d: dilation must be positive.
func.func @conv1d_dilation_positive(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op dilation must be positive, got [0]}}
  %0 = relay.nn.conv1d %x, %w {dilation = [0]} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv3d: padding is 1, 3 or 6 values.
func.func @conv3d_padding_len(%x: tensor<1x3x4x4x4xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv3d' op padding must have 1, 3 or 6 values, got 2}}
  %0 = relay.nn.conv3d %x, %w {padding = [1, 1]} : (tensor<1x3x4x4x4xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x2x2x2xf32>
  func.return
}

// -----

/// conv1d: padding must be non-negative.
func.func @conv1d_padding_negative(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op padding must be non-negative, got [-1, 0]}}
  %0 = relay.nn.conv1d %x, %w {padding = [-1, 0]} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv1d: groups must be positive.
func.func @conv1d_groups(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op groups must be positive, got 0}}
  %0 = relay.nn.conv1d %x, %w {groups = 0} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv1d: groups divide the data's channels.
func.func @conv1d_groups_divide_data(%x: tensor<1x3x8xf32>, %w: tensor<4x1x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op input channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv1d %x, %w {groups = 2} : (tensor<1x3x8xf32>, tensor<4x1x3xf32>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv1d: groups divide the output channels.
func.func @conv1d_groups_divide_output(%x: tensor<1x4x8xf32>, %w: tensor<3x2x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op output channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv1d %x, %w {groups = 2} : (tensor<1x4x8xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
  func.return
}

// -----

/// conv3d: the weight's I is the data's channels / groups.
func.func @conv3d_weight_channels(%x: tensor<1x4x4x4x4xf32>, %w: tensor<4x4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv3d' op weight input channels 4 do not match data channels 4 / groups 2; data (1, 4, 4, 4, 4) (NCDHW), weight (4, 4, 3, 3, 3) (OIDHW)}}
  %0 = relay.nn.conv3d %x, %w {groups = 2} : (tensor<1x4x4x4x4xf32>, tensor<4x4x3x3x3xf32>) -> tensor<1x4x2x2x2xf32>
  func.return
}

// -----

/// conv2d_transpose: the weight's I is all of the data's channels.
func.func @conv2d_transpose_weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<2x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op weight input channels 2 do not match data channels 4; data (1, 4, 8, 8) (NCHW), weight (2, 3, 3, 3) (IOHW)}}
  %0 = relay.nn.conv2d_transpose %x, %w {groups = 2} : (tensor<1x4x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x6x10x10xf32>
  func.return
}

// -----

/// conv1d: channels must be positive.
func.func @conv1d_channels_positive(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op channels must be positive, got 0}}
  %0 = relay.nn.conv1d %x, %w {channels = 0} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  func.return
}

// -----

/// conv1d: channels must be the weight's O.
func.func @conv1d_channels(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op channels 5 do not match weight output channels 4}}
  %0 = relay.nn.conv1d %x, %w {channels = 5} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x5x6xf32>
  func.return
}

// -----

/// conv2d_transpose: channels must be the weight's O times groups.
func.func @conv2d_transpose_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d_transpose' op channels 3 do not match weight output channels 3 * groups 2}}
  %0 = relay.nn.conv2d_transpose %x, %w {groups = 2, channels = 3} : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x10x10xf32>
  func.return
}

// -----

/// conv3d: kernel_size has one value per spatial dim.
func.func @conv3d_kernel_size_len(%x: tensor<1x3x4x4x4xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv3d' op kernel_size must have 3 values, got 2}}
  %0 = relay.nn.conv3d %x, %w {kernel_size = [3, 3]} : (tensor<1x3x4x4x4xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x2x2x2xf32>
  func.return
}

// -----

/// conv1d: kernel_size must be positive.
func.func @conv1d_kernel_size_positive(%x: tensor<1x3x8xf32>, %w: tensor<4x3x?xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op kernel_size must be positive, got [0]}}
  %0 = relay.nn.conv1d %x, %w {kernel_size = [0]} : (tensor<1x3x8xf32>, tensor<4x3x?xf32>) -> tensor<1x4x?xf32>
  func.return
}

// -----

/// conv1d: kernel_size must be the weight's.
func.func @conv1d_kernel_size(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op kernel_size [2] does not match weight kernel [3]}}
  %0 = relay.nn.conv1d %x, %w {kernel_size = [2]} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x7xf32>
  func.return
}

// -----

/// conv1d_transpose: output_padding has one value per spatial dim.
func.func @conv1d_transpose_output_padding_len(%x: tensor<1x3x8xf32>, %w: tensor<3x4x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d_transpose' op output_padding must have 1 values, got 2}}
  %0 = relay.nn.conv1d_transpose %x, %w {output_padding = [0, 0]} : (tensor<1x3x8xf32>, tensor<3x4x3xf32>) -> tensor<1x4x10xf32>
  func.return
}

// -----

/// conv1d_transpose: output_padding must be non-negative.
func.func @conv1d_transpose_output_padding_negative(%x: tensor<1x3x8xf32>, %w: tensor<3x4x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d_transpose' op output_padding must be non-negative, got [-1]}}
  %0 = relay.nn.conv1d_transpose %x, %w {output_padding = [-1]} : (tensor<1x3x8xf32>, tensor<3x4x3xf32>) -> tensor<1x4x9xf32>
  func.return
}

// -----

/// conv1d_transpose: the padding must leave a non-negative extent.
func.func @conv1d_transpose_padding_too_large(%x: tensor<1x3x1xf32>, %w: tensor<3x4x1xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d_transpose' op padding 1 + 1 exceeds the transposed extent 1 of input extent 1}}
  %0 = relay.nn.conv1d_transpose %x, %w {padding = [1, 1]} : (tensor<1x3x1xf32>, tensor<3x4x1xf32>) -> tensor<1x4x0xf32>
  func.return
}

// -----

/// conv3d: the window must fit the padded data.
func.func @conv3d_window(%x: tensor<1x3x2x4x4xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv3d' op window of size 3 does not fit input extent 2 with padding 0}}
  %0 = relay.nn.conv3d %x, %w : (tensor<1x3x2x4x4xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x0x2x2xf32>
  func.return
}

// -----

/// conv1d: out_dtype must be a supported dtype.
func.func @conv1d_out_dtype(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv1d' op unsupported out_dtype index}}
  %0 = relay.nn.conv1d %x, %w {out_dtype = index} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  func.return
}
