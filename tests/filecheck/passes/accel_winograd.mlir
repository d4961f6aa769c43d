// RUN: xrelay-opt %s -p accel-winograd --split-input-file | filecheck %s

/// A 3x3 stride-1 convolution with a constant weight becomes accel.conv2d_winograd on the
/// transformed weight (4, 4, K, C), computed here: this filter (corners 0.25, zeros elsewhere)
/// transforms to 0.25 at every tile position (G g G^T with G (1, 0, 1)^T = (1, 1, 1, 1)^T).
/// At 24 columns, F(2x2) (tile 2, the default: 12 tiles fill 0.75 of a vector, F(4x4)'s 6
/// do not). The padding, bias and name are kept; the filter constant goes (nothing else
/// reads it) and its name goes to the transformed one.
// CHECK-LABEL: func.func @rewrite
//  CHECK-NEXT:   %b = relay.constant dense<5.000000e-01> : tensor<8xf32>
//  CHECK-NEXT:   %w_winograd = relay.constant dense<2.500000e-01> : tensor<4x4x8x8xf32>
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %w_winograd, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>, tensor<8xf32>) -> tensor<1x8x8x24xf32>
//  CHECK-NEXT:   func.return %c : tensor<1x8x8x24xf32>
func.func @rewrite(%x: tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32> {
  %w = relay.constant dense<[[[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]], [[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]], [[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]], [[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]], [[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]], [[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]], [[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]], [[[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]], [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0], [0.25, 0.0, 0.25]]]]> : tensor<8x8x3x3xf32>
  %b = relay.constant dense<0.5> : tensor<8xf32>
  %c = accel.conv2d %x, %w, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x24xf32>
  func.return %c : tensor<1x8x8x24xf32>
}

// -----

/// The whole epilogue is kept: bias, residual (the last operand), relu; asymmetric padding
/// up to 2 on a side. At 48 columns and 8 input channels, F(4x4) (12 tiles of 4): 6x6
/// weights, of which U[0][0] = 0.5 / 16 (0x3D000000) for a splat filter of 0.5. A filter
/// constant read by another op too stays.
// CHECK-LABEL: func.func @rewrite_epilogue
//  CHECK-NEXT:   %w = relay.constant dense<5.000000e-01> : tensor<16x8x3x3xf32>
//  CHECK-NEXT:   %b = relay.constant dense<1.000000e+00> : tensor<16xf32>
//  CHECK-NEXT:   %w_winograd = relay.constant dense<"0x0000003D0000003D{{[0-9A-F]+}}"> : tensor<6x6x16x8xf32>
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %w_winograd, %b, %r {padding = [2, 1, 0, 1], tile = 4, has_bias = true, has_residual = true, has_relu = true} : (tensor<1x8x8x48xf32>, tensor<6x6x16x8xf32>, tensor<16xf32>, tensor<1x16x8x48xf32>) -> tensor<1x16x8x48xf32>
//  CHECK-NEXT:   func.return %c, %w : tensor<1x16x8x48xf32>, tensor<16x8x3x3xf32>
func.func @rewrite_epilogue(%x: tensor<1x8x8x48xf32>, %r: tensor<1x16x8x48xf32>) -> (tensor<1x16x8x48xf32>, tensor<16x8x3x3xf32>) {
  %w = relay.constant dense<0.5> : tensor<16x8x3x3xf32>
  %b = relay.constant dense<1.0> : tensor<16xf32>
  %c = accel.conv2d %x, %w, %b, %r {padding = [2, 1, 0, 1], has_bias = true, has_residual = true, has_relu = true} : (tensor<1x8x8x48xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>, tensor<1x16x8x48xf32>) -> tensor<1x16x8x48xf32>
  func.return %c, %w : tensor<1x16x8x48xf32>, tensor<16x8x3x3xf32>
}

// -----

/// Two convolutions of one filter both take Winograd and share one transformed constant;
/// the filter goes after the second. Attributes (not properties) are kept.
// CHECK-LABEL: func.func @rewrite_shared_weight
//  CHECK-NEXT:   %w_winograd = relay.constant dense<{{.*}}> : tensor<4x4x8x8xf32>
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %w_winograd {padding = [1, 1, 1, 1], has_relu = true, tag = "first"} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
//  CHECK-NEXT:   %d = accel.conv2d_winograd %c, %w_winograd {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
//  CHECK-NEXT:   func.return %d
func.func @rewrite_shared_weight(%x: tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32> {
  %w = relay.constant dense<0.125> : tensor<8x8x3x3xf32>
  %c = "accel.conv2d"(%x, %w) <{padding = array<i64: 1, 1, 1, 1>, has_relu = true}> {tag = "first"} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  %d = accel.conv2d %c, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  func.return %d : tensor<1x8x8x24xf32>
}

// -----

/// One filter under two tiles (64 columns: F(4x4); 32: F(2x2)): one transformed constant each.
// CHECK-LABEL: func.func @shared_weight_two_tiles
//  CHECK-NEXT:   %[[U4:w_winograd[_0-9]*]] = relay.constant dense<{{.*}}> : tensor<6x6x8x8xf32>
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %[[U4]] {padding = [1, 1, 1, 1], tile = 4}
//  CHECK-NEXT:   %[[U2:w_winograd[_0-9]*]] = relay.constant dense<{{.*}}> : tensor<4x4x8x8xf32>
//  CHECK-NEXT:   %d = accel.conv2d_winograd %y, %[[U2]] {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   func.return %c, %d
func.func @shared_weight_two_tiles(%x: tensor<1x8x8x64xf32>, %y: tensor<1x8x8x32xf32>) -> (tensor<1x8x8x64xf32>, tensor<1x8x8x32xf32>) {
  %w = relay.constant dense<0.125> : tensor<8x8x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x64xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x64xf32>
  %d = accel.conv2d %y, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x32xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x32xf32>
  func.return %c, %d : tensor<1x8x8x64xf32>, tensor<1x8x8x32xf32>
}

// -----

/// The rewrite runs in block order: a filter shared by the second and third convolutions is
/// transformed before the second, though the third reads the first convolution's result.
// CHECK-LABEL: func.func @shared_weight_in_block_order
//  CHECK-NEXT:   %u_winograd = relay.constant dense<{{.*}}> : tensor<4x4x8x8xf32>
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u_winograd
//  CHECK-NEXT:   %w_winograd = relay.constant dense<{{.*}}> : tensor<4x4x8x8xf32>
//  CHECK-NEXT:   %e = accel.conv2d_winograd %y, %w_winograd
//  CHECK-NEXT:   %d = accel.conv2d_winograd %c, %w_winograd
//  CHECK-NEXT:   func.return %d, %e
func.func @shared_weight_in_block_order(%x: tensor<1x8x8x24xf32>, %y: tensor<1x8x8x24xf32>) -> (tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>) {
  %u = relay.constant dense<0.25> : tensor<8x8x3x3xf32>
  %w = relay.constant dense<0.125> : tensor<8x8x3x3xf32>
  %c = accel.conv2d %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  %e = accel.conv2d %y, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  %d = accel.conv2d %c, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  func.return %d, %e : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>
}

// -----

/// Strided: kept.
// CHECK-LABEL: func.func @keep_stride_2
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1]}
func.func @keep_stride_2(%x: tensor<1x8x8x48xf32>) -> tensor<1x8x4x24xf32> {
  %w = relay.constant dense<0.5> : tensor<8x8x3x3xf32>
  %c = accel.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x8x8x48xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x4x24xf32>
  func.return %c : tensor<1x8x4x24xf32>
}

// -----

/// Dilated: kept.
// CHECK-LABEL: func.func @keep_dilation_2
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [2, 2, 2, 2], dilation = [2, 2]}
func.func @keep_dilation_2(%x: tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32> {
  %w = relay.constant dense<0.5> : tensor<8x8x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [2, 2, 2, 2], dilation = [2, 2]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  func.return %c : tensor<1x8x8x24xf32>
}

// -----

/// Grouped: kept.
// CHECK-LABEL: func.func @keep_groups
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1], groups = 2}
func.func @keep_groups(%x: tensor<1x16x8x24xf32>) -> tensor<1x16x8x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x8x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1], groups = 2} : (tensor<1x16x8x24xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x8x24xf32>
  func.return %c : tensor<1x16x8x24xf32>
}

// -----

/// A 1x1 kernel: kept.
// CHECK-LABEL: func.func @keep_1x1
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w : (tensor<1x8x8x24xf32>, tensor<8x8x1x1xf32>)
func.func @keep_1x1(%x: tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32> {
  %w = relay.constant dense<0.5> : tensor<8x8x1x1xf32>
  %c = accel.conv2d %x, %w : (tensor<1x8x8x24xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x8x24xf32>
  func.return %c : tensor<1x8x8x24xf32>
}

// -----

/// A weight computed at run time (an argument here): kept.
// CHECK-LABEL: func.func @keep_weight_argument
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
func.func @keep_weight_argument(%x: tensor<1x8x8x24xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32> {
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  func.return %c : tensor<1x8x8x24xf32>
}

// -----

/// Fewer than 8 input channels (the transforms cost more than they save): kept.
// CHECK-LABEL: func.func @keep_few_input_channels
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
func.func @keep_few_input_channels(%x: tensor<1x7x8x24xf32>) -> tensor<1x16x8x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x7x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x7x8x24xf32>, tensor<16x7x3x3xf32>) -> tensor<1x16x8x24xf32>
  func.return %c : tensor<1x16x8x24xf32>
}

// -----

/// Fewer than 8 output channels: kept.
// CHECK-LABEL: func.func @keep_few_output_channels
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
func.func @keep_few_output_channels(%x: tensor<1x16x8x24xf32>) -> tensor<1x7x8x24xf32> {
  %w = relay.constant dense<0.5> : tensor<7x16x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x8x24xf32>, tensor<7x16x3x3xf32>) -> tensor<1x7x8x24xf32>
  func.return %c : tensor<1x7x8x24xf32>
}

// -----

/// More than 64 input channels (the kernel's scratch for F(2x2)): kept.
// CHECK-LABEL: func.func @keep_many_input_channels
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
func.func @keep_many_input_channels(%x: tensor<1x72x8x24xf32>) -> tensor<1x16x8x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x72x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x72x8x24xf32>, tensor<16x72x3x3xf32>) -> tensor<1x16x8x24xf32>
  func.return %c : tensor<1x16x8x24xf32>
}

// -----

/// NHWC data (HWIO weight), and NCHW data with an OHWI weight: kept.
// CHECK-LABEL: func.func @keep_layouts
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO"}
//       CHECK:   %d = accel.conv2d %y, %v {padding = [1, 1, 1, 1], kernel_layout = "OHWI"}
func.func @keep_layouts(%x: tensor<1x8x24x8xf32>, %y: tensor<1x8x8x24xf32>) -> (tensor<1x8x24x8xf32>, tensor<1x8x8x24xf32>) {
  %w = relay.constant dense<0.5> : tensor<3x3x8x8xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x24x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x8x24x8xf32>
  %v = relay.constant dense<0.5> : tensor<8x3x3x8xf32>
  %d = accel.conv2d %y, %v {padding = [1, 1, 1, 1], kernel_layout = "OHWI"} : (tensor<1x8x8x24xf32>, tensor<8x3x3x8xf32>) -> tensor<1x8x8x24xf32>
  func.return %c, %d : tensor<1x8x24x8xf32>, tensor<1x8x8x24xf32>
}

// -----

/// An output 16 wide: 8 tiles fill half a vector of 16 lanes: kept. 24 wide (12 of 16): taken.
// CHECK-LABEL: func.func @keep_width_16
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
//       CHECK:   %d = accel.conv2d_winograd %y, %w_winograd {padding = [1, 1, 1, 1]}
func.func @keep_width_16(%x: tensor<1x8x8x16xf32>, %y: tensor<1x8x8x24xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x8x8x24xf32>) {
  %w = relay.constant dense<0.5> : tensor<8x8x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x16xf32>
  %d = accel.conv2d %y, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  func.return %c, %d : tensor<1x8x8x16xf32>, tensor<1x8x8x24xf32>
}

// -----

/// Padding of 3 on a side: kept.
// CHECK-LABEL: func.func @keep_padding_3
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [3, 1, 1, 1]}
func.func @keep_padding_3(%x: tensor<1x8x8x24xf32>) -> tensor<1x8x10x24xf32> {
  %w = relay.constant dense<0.5> : tensor<8x8x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [3, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x10x24xf32>
  func.return %c : tensor<1x8x10x24xf32>
}

// -----

/// float16: kept (the kernel is float32).
// CHECK-LABEL: func.func @keep_f16
//   CHECK-NOT:   accel.conv2d_winograd
//       CHECK:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
func.func @keep_f16(%x: tensor<1x8x8x24xf16>) -> tensor<1x8x8x24xf16> {
  %w = relay.constant dense<0.5> : tensor<8x8x3x3xf16>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf16>, tensor<8x8x3x3xf16>) -> tensor<1x8x8x24xf16>
  func.return %c : tensor<1x8x8x24xf16>
}

// -----

/// The tile: F(4x4) when its tiles fill the vectors and there are at most 32 channels, else
/// F(2x2) when its tiles do and there are at most 64. 32 channels at 48 columns: 4 (12 tiles); 33 channels: 2 (24 of 32 lanes); 64
/// columns: 4 (16 tiles); 32 columns: 2 (F(4x4)'s 8 tiles fill half a vector).
// CHECK-LABEL: func.func @choose_tile
//  CHECK:   %c = accel.conv2d_winograd %x, %{{.*}} {padding = [1, 1, 1, 1], tile = 4} : (tensor<1x32x4x48xf32>, tensor<6x6x8x32xf32>)
//  CHECK:   %d = accel.conv2d_winograd %y, %{{.*}} {padding = [1, 1, 1, 1]} : (tensor<1x33x4x48xf32>, tensor<4x4x8x33xf32>)
//  CHECK:   %e = accel.conv2d_winograd %z, %{{.*}} {padding = [1, 1, 1, 1], tile = 4} : (tensor<1x8x4x64xf32>, tensor<6x6x8x8xf32>)
//  CHECK:   %f = accel.conv2d_winograd %t, %{{.*}} {padding = [1, 1, 1, 1]} : (tensor<1x8x4x32xf32>, tensor<4x4x8x8xf32>)
func.func @choose_tile(%x: tensor<1x32x4x48xf32>, %y: tensor<1x33x4x48xf32>, %z: tensor<1x8x4x64xf32>, %t: tensor<1x8x4x32xf32>) -> (tensor<1x8x4x48xf32>, tensor<1x8x4x48xf32>, tensor<1x8x4x64xf32>, tensor<1x8x4x32xf32>) {
  %w = relay.constant dense<0.5> : tensor<8x32x3x3xf32>
  %v = relay.constant dense<0.5> : tensor<8x33x3x3xf32>
  %s = relay.constant dense<0.5> : tensor<8x8x3x3xf32>
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x32x4x48xf32>, tensor<8x32x3x3xf32>) -> tensor<1x8x4x48xf32>
  %d = accel.conv2d %y, %v {padding = [1, 1, 1, 1]} : (tensor<1x33x4x48xf32>, tensor<8x33x3x3xf32>) -> tensor<1x8x4x48xf32>
  %e = accel.conv2d %z, %s {padding = [1, 1, 1, 1]} : (tensor<1x8x4x64xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x4x64xf32>
  %f = accel.conv2d %t, %s {padding = [1, 1, 1, 1]} : (tensor<1x8x4x32xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x4x32xf32>
  func.return %c, %d, %e, %f : tensor<1x8x4x48xf32>, tensor<1x8x4x48xf32>, tensor<1x8x4x64xf32>, tensor<1x8x4x32xf32>
}
