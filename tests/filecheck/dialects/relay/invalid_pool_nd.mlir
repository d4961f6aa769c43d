// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// max_pool1d: the data must be 3-D.
func.func @max_pool1d_data_rank(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool1d' op expected 3-D data, got rank 4 (1, 3, 8, 8)}}
  %0 = relay.nn.max_pool1d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// avg_pool3d: only NCDHW and NDHWC layouts.
func.func @avg_pool3d_layout(%x: tensor<1x3x4x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool3d' op unknown layout 'NCHWD'; expected one of NCDHW, NDHWC}}
  %0 = relay.nn.avg_pool3d %x {layout = "NCHWD"} : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x4x4x4xf32>
  func.return
}

// -----

/// max_pool3d: pool_size has one value per spatial dim.
func.func @max_pool3d_pool_size_len(%x: tensor<1x3x4x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool3d' op pool_size must have 3 values, got 2}}
  %0 = relay.nn.max_pool3d %x {pool_size = [2, 2]} : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x3x3x3xf32>
  func.return
}

// -----

/// avg_pool1d: strides has one value.
func.func @avg_pool1d_strides_len(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool1d' op strides must have 1 values, got 2}}
  %0 = relay.nn.avg_pool1d %x {strides = [1, 1]} : (tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// max_pool1d: dilation has one value.
func.func @max_pool1d_dilation_len(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool1d' op dilation must have 1 values, got 2}}
  %0 = relay.nn.max_pool1d %x {dilation = [1, 1]} : (tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// max_pool3d: padding is 1, 3 or 6 values.
func.func @max_pool3d_padding_len(%x: tensor<1x3x4x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool3d' op padding must have 1, 3 or 6 values, got 4}}
  %0 = relay.nn.max_pool3d %x {padding = [1, 1, 1, 1]} : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x6x6x6xf32>
  func.return
}

// -----

/// avg_pool1d: pool_size must be positive.
func.func @avg_pool1d_pool_size_positive(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool1d' op pool_size must be positive, got [0]}}
  %0 = relay.nn.avg_pool1d %x {pool_size = [0]} : (tensor<1x3x8xf32>) -> tensor<1x3x9xf32>
  func.return
}

// -----

/// max_pool1d: strides must be positive.
func.func @max_pool1d_strides_positive(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool1d' op strides must be positive, got [0]}}
  %0 = relay.nn.max_pool1d %x {strides = [0]} : (tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// avg_pool3d: dilation must be positive.
func.func @avg_pool3d_dilation_positive(%x: tensor<1x3x4x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool3d' op dilation must be positive, got [1, 0, 1]}}
  %0 = relay.nn.avg_pool3d %x {dilation = [1, 0, 1]} : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x4x4x4xf32>
  func.return
}

// -----

/// max_pool1d: padding must be non-negative.
func.func @max_pool1d_padding_negative(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool1d' op padding must be non-negative, got [0, -1]}}
  %0 = relay.nn.max_pool1d %x {padding = [0, -1]} : (tensor<1x3x8xf32>) -> tensor<1x3x7xf32>
  func.return
}

// -----

/// max_pool3d: the window must fit the padded data.
func.func @max_pool3d_window(%x: tensor<1x3x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool3d' op pool window of size 3 does not fit input extent 2 with padding 0}}
  %0 = relay.nn.max_pool3d %x {pool_size = [3, 1, 1]} : (tensor<1x3x2x4x4xf32>) -> tensor<1x3x0x4x4xf32>
  func.return
}
