// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// batch_matmul: x must be 3-D.
func.func @batch_matmul_x_rank(%x: tensor<3x4xf32>, %y: tensor<2x5x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op expected 3-D x, got rank 2 (3, 4)}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

/// batch_matmul: y must be 3-D.
func.func @batch_matmul_y_rank(%x: tensor<2x3x4xf32>, %y: tensor<5x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op expected 3-D y, got rank 2 (5, 4)}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

/// batch_matmul: x and y share an element type.
func.func @batch_matmul_dtype(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf16>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op y element type f16 does not match data f32}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x5x4xf16>) -> tensor<2x3x5xf32>
  func.return
}

// -----

/// batch_matmul: the reduction dims agree (here y is [B, K, N] with K = 5 against x's 4).
func.func @batch_matmul_reduction(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op x (2, 3, 4) and y (2, 5, 4) disagree on the reduction dim: 4 vs 5}}
  %0 = relay.nn.batch_matmul %x, %y {transpose_b = false} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

/// batch_matmul: batches are equal or one is 1.
func.func @batch_matmul_batch(%x: tensor<2x3x4xf32>, %y: tensor<3x5x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op batch dims 2 and 3 differ and neither is 1}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<3x5x4xf32>) -> tensor<3x3x5xf32>
  func.return
}

// -----

/// batch_matmul: out_dtype must be a supported dtype.
func.func @batch_matmul_out_dtype(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_matmul' op unsupported out_dtype index}}
  %0 = relay.nn.batch_matmul %x, %y {out_dtype = index} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

/// prelu: floats only.
func.func @prelu_int(%x: tensor<2x3xi32>, %a: tensor<3xi32>) {
  // expected-error@+1 {{'relay.nn.prelu' op expected a floating-point operand, got i32}}
  %0 = relay.nn.prelu %x, %a : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  func.return
}

// -----

/// prelu: the data needs an axis.
func.func @prelu_scalar(%x: tensor<f32>, %a: tensor<1xf32>) {
  // expected-error@+1 {{'relay.nn.prelu' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.prelu %x, %a {axis = 0} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
  func.return
}

// -----

/// prelu: the axis names a dim.
func.func @prelu_axis(%x: tensor<2x3xf32>, %a: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.prelu' op axis 2 is out of range for rank 2}}
  %0 = relay.nn.prelu %x, %a {axis = 2} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// prelu: alpha is 1-D.
func.func @prelu_alpha_rank(%x: tensor<2x3xf32>, %a: tensor<1x3xf32>) {
  // expected-error@+1 {{'relay.nn.prelu' op expected 1-D alpha, got rank 2 (1, 3)}}
  %0 = relay.nn.prelu %x, %a : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// prelu: alpha has the data's element type.
func.func @prelu_alpha_dtype(%x: tensor<2x3xf32>, %a: tensor<3xf64>) {
  // expected-error@+1 {{'relay.nn.prelu' op alpha element type f64 does not match data f32}}
  %0 = relay.nn.prelu %x, %a : (tensor<2x3xf32>, tensor<3xf64>) -> tensor<2x3xf32>
  func.return
}

// -----

/// prelu: alpha has the data's dim on the axis.
func.func @prelu_alpha_size(%x: tensor<2x3xf32>, %a: tensor<2xf32>) {
  // expected-error@+1 {{'relay.nn.prelu' op alpha of size 2 does not match data dim 3 on axis 1}}
  %0 = relay.nn.prelu %x, %a : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// adaptive pools: the data is 4-D.
func.func @adaptive_pool_rank(%x: tensor<3x7x5xf32>) {
  // expected-error@+1 {{'relay.nn.adaptive_avg_pool2d' op expected 4-D data, got rank 3 (3, 7, 5)}}
  %0 = relay.nn.adaptive_avg_pool2d %x {output_size = [1]} : (tensor<3x7x5xf32>) -> tensor<3x1x1xf32>
  func.return
}

// -----

/// adaptive pools: NCHW or NHWC.
func.func @adaptive_pool_layout(%x: tensor<1x3x7x5xf32>) {
  // expected-error@+1 {{'relay.nn.adaptive_max_pool2d' op unknown layout 'HWCN'; expected one of NCHW, NHWC}}
  %0 = relay.nn.adaptive_max_pool2d %x {layout = "HWCN"} : (tensor<1x3x7x5xf32>) -> tensor<1x3x7x5xf32>
  func.return
}

// -----

/// adaptive pools: output_size has at most two values.
func.func @adaptive_pool_size_count(%x: tensor<1x3x7x5xf32>) {
  // expected-error@+1 {{'relay.nn.adaptive_avg_pool2d' op output_size must have 0, 1 or 2 values, got 3}}
  %0 = relay.nn.adaptive_avg_pool2d %x {output_size = [1, 1, 1]} : (tensor<1x3x7x5xf32>) -> tensor<1x3x1x1xf32>
  func.return
}

// -----

/// adaptive pools: output sizes are positive.
func.func @adaptive_pool_size_value(%x: tensor<1x3x7x5xf32>) {
  // expected-error@+1 {{'relay.nn.adaptive_max_pool2d' op output_size must be positive, got [2, 0]}}
  %0 = relay.nn.adaptive_max_pool2d %x {output_size = [2, 0]} : (tensor<1x3x7x5xf32>) -> tensor<1x3x2x0xf32>
  func.return
}
