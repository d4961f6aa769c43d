// RUN: xrelay-opt %s -p accel-fuse-pool --split-input-file | filecheck %s

/// A 2x2 stride-2 max pool of a Winograd convolution folds into it: has_max_pool, the
/// pooled type, the pool's name, placed where the convolution was.
// CHECK-LABEL: func.func @fuse_pool
//  CHECK-NEXT:   %p = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_max_pool = true, has_relu = true} : (tensor<1x8x8x24xf32>, tensor<4x4x16x8xf32>) -> tensor<1x16x4x12xf32>
//  CHECK-NEXT:   %y = accel.relu %x : tensor<1x8x8x24xf32>
//  CHECK-NEXT:   func.return %p, %y : tensor<1x16x4x12xf32>, tensor<1x8x8x24xf32>
func.func @fuse_pool(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x16x8xf32>) -> (tensor<1x16x4x12xf32>, tensor<1x8x8x24xf32>) {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_relu = true} : (tensor<1x8x8x24xf32>, tensor<4x4x16x8xf32>) -> tensor<1x16x8x24xf32>
  %y = accel.relu %x : tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x16x8x24xf32>) -> tensor<1x16x4x12xf32>
  func.return %p, %y : tensor<1x16x4x12xf32>, tensor<1x8x8x24xf32>
}

// -----

/// The residual convolution of a block (bias, residual, relu) folds too; its residual keeps
/// the convolution's type. ceil_mode and a written-out dilation 1 change nothing on even
/// extents.
// CHECK-LABEL: func.func @fuse_pool_residual
//  CHECK-NEXT:   %p = accel.conv2d_winograd %x, %u, %b, %r {padding = [1, 1, 1, 1], has_max_pool = true, has_bias = true, has_residual = true, has_relu = true} : (tensor<2x8x8x24xf32>, tensor<4x4x8x8xf32>, tensor<8xf32>, tensor<2x8x8x24xf32>) -> tensor<2x8x4x12xf32>
//  CHECK-NEXT:   func.return %p : tensor<2x8x4x12xf32>
func.func @fuse_pool_residual(%x: tensor<2x8x8x24xf32>, %u: tensor<4x4x8x8xf32>, %b: tensor<8xf32>, %r: tensor<2x8x8x24xf32>) -> tensor<2x8x4x12xf32> {
  %c = accel.conv2d_winograd %x, %u, %b, %r {padding = [1, 1, 1, 1], has_bias = true, has_residual = true, has_relu = true} : (tensor<2x8x8x24xf32>, tensor<4x4x8x8xf32>, tensor<8xf32>, tensor<2x8x8x24xf32>) -> tensor<2x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2], dilation = [1, 1], ceil_mode = true} : (tensor<2x8x8x24xf32>) -> tensor<2x8x4x12xf32>
  func.return %p : tensor<2x8x4x12xf32>
}

// -----

/// F(4x4): a tile holds 2x2 pool windows; extents even but not multiples of 4 (6 rows, 22
/// columns) fold too (the last tiles' windows past the output are not stored).
// CHECK-LABEL: func.func @fuse_pool_tile_4
//  CHECK-NEXT:   %p = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], tile = 4, has_max_pool = true} : (tensor<1x8x6x22xf32>, tensor<6x6x8x8xf32>) -> tensor<1x8x3x11xf32>
//  CHECK-NEXT:   func.return %p : tensor<1x8x3x11xf32>
func.func @fuse_pool_tile_4(%x: tensor<1x8x6x22xf32>, %u: tensor<6x6x8x8xf32>) -> tensor<1x8x3x11xf32> {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], tile = 4} : (tensor<1x8x6x22xf32>, tensor<6x6x8x8xf32>) -> tensor<1x8x6x22xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x6x22xf32>) -> tensor<1x8x3x11xf32>
  func.return %p : tensor<1x8x3x11xf32>
}

// -----

/// A pool of a direct convolution (accel.conv2d) stays.
// CHECK-LABEL: func.func @keep_direct_conv
//  CHECK-NEXT:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]}
func.func @keep_direct_conv(%x: tensor<1x8x8x24xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x4x12xf32> {
  %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x4x12xf32>
  func.return %p : tensor<1x8x4x12xf32>
}

// -----

/// A 3x3 window stays.
// CHECK-LABEL: func.func @keep_3x3
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c {pool_size = [3, 3], strides = [2, 2]}
func.func @keep_3x3(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x8x8xf32>) -> tensor<1x8x3x11xf32> {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [3, 3], strides = [2, 2]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x3x11xf32>
  func.return %p : tensor<1x8x3x11xf32>
}

// -----

/// Stride 1 stays.
// CHECK-LABEL: func.func @keep_stride_1
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c {pool_size = [2, 2]}
func.func @keep_stride_1(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x8x8xf32>) -> tensor<1x8x7x23xf32> {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x7x23xf32>
  func.return %p : tensor<1x8x7x23xf32>
}

// -----

/// A padded pool stays.
// CHECK-LABEL: func.func @keep_padded_pool
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2], padding = [1, 1, 1, 1]}
func.func @keep_padded_pool(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x8x8xf32>) -> tensor<1x8x5x13xf32> {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x5x13xf32>
  func.return %p : tensor<1x8x5x13xf32>
}

// -----

/// A convolution read by another op too stays (its full output is still needed).
// CHECK-LABEL: func.func @keep_two_uses
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]}
//  CHECK-NEXT:   func.return %p, %c
func.func @keep_two_uses(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x8x8xf32>) -> (tensor<1x8x4x12xf32>, tensor<1x8x8x24xf32>) {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x4x12xf32>
  func.return %p, %c : tensor<1x8x4x12xf32>, tensor<1x8x8x24xf32>
}

// -----

/// Two pools of one convolution: neither folds.
// CHECK-LABEL: func.func @keep_two_pools
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c
//  CHECK-NEXT:   %q = accel.max_pool2d %c
func.func @keep_two_pools(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x8x8xf32>) -> (tensor<1x8x4x12xf32>, tensor<1x8x4x12xf32>) {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x4x12xf32>
  %q = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x4x12xf32>
  func.return %p, %q : tensor<1x8x4x12xf32>, tensor<1x8x4x12xf32>
}

// -----

/// Odd convolution extents (7 rows, 23 columns): the last windows are cut, stays.
// CHECK-LABEL: func.func @keep_odd_extents
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]}
//  CHECK-NEXT:   %d = accel.conv2d_winograd %x, %u {padding = [1, 0, 1, 1]}
//  CHECK-NEXT:   %q = accel.max_pool2d %d {pool_size = [2, 2], strides = [2, 2]}
func.func @keep_odd_extents(%x: tensor<1x8x7x24xf32>, %u: tensor<4x4x8x8xf32>) -> (tensor<1x8x3x12xf32>, tensor<1x8x3x11xf32>) {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x7x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x7x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x7x24xf32>) -> tensor<1x8x3x12xf32>
  %d = accel.conv2d_winograd %x, %u {padding = [1, 0, 1, 1]} : (tensor<1x8x7x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x7x23xf32>
  %q = accel.max_pool2d %d {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x7x23xf32>) -> tensor<1x8x3x11xf32>
  func.return %p, %q : tensor<1x8x3x12xf32>, tensor<1x8x3x11xf32>
}

// -----

/// An NHWC pool (of an NCHW convolution's result read as NHWC) stays.
// CHECK-LABEL: func.func @keep_nhwc
//  CHECK-NEXT:   %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]}
//  CHECK-NEXT:   %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2], layout = "NHWC"}
func.func @keep_nhwc(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x8x8xf32>) -> tensor<1x4x4x24xf32> {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2], layout = "NHWC"} : (tensor<1x8x8x24xf32>) -> tensor<1x4x4x24xf32>
  func.return %p : tensor<1x4x4x24xf32>
}

// -----

/// A pool of a convolution that has its pool already: the second pool stays (an avg pool is
/// never taken).
// CHECK-LABEL: func.func @keep_second_pool
//  CHECK-NEXT:   %p = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_max_pool = true}
//  CHECK-NEXT:   %q = accel.max_pool2d %p {pool_size = [2, 2], strides = [2, 2]}
//  CHECK-NEXT:   %a = accel.avg_pool2d %q {pool_size = [2, 2], strides = [2, 2]}
func.func @keep_second_pool(%x: tensor<1x8x8x24xf32>, %u: tensor<4x4x8x8xf32>) -> tensor<1x8x1x3xf32> {
  %c = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1]} : (tensor<1x8x8x24xf32>, tensor<4x4x8x8xf32>) -> tensor<1x8x8x24xf32>
  %p = accel.max_pool2d %c {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x8x24xf32>) -> tensor<1x8x4x12xf32>
  %q = accel.max_pool2d %p {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x4x12xf32>) -> tensor<1x8x2x6xf32>
  %a = accel.avg_pool2d %q {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x2x6xf32>) -> tensor<1x8x1x3xf32>
  func.return %a : tensor<1x8x1x3xf32>
}
