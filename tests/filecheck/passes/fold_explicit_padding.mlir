// RUN: xrelay-opt %s -p fold-explicit-padding --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p FoldExplicitPadding --split-input-file | filecheck %s
// RUN: xrelay-opt %s -fold-explicit-padding --split-input-file | filecheck %s

/// conv2d NCHW: the pad's H and W widths are added to the conv's own padding (top, left,
/// bottom, right); the pad goes.
// CHECK-LABEL: @conv2d
//  CHECK-NEXT:   %0 = relay.nn.conv2d %x, %w {padding = [2, 3, 2, 1]} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x7x7xf32>
//  CHECK-NEXT:   func.return %0
func.func @conv2d(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x7x7xf32> {
  %0 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 2, 0]} : (tensor<1x2x5x5xf32>) -> tensor<1x2x7x7xf32>
  %1 = relay.nn.conv2d %0, %w {padding = [1, 1, 1, 1]} : (tensor<1x2x7x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x7x7xf32>
  func.return %1 : tensor<1x3x7x7xf32>
}

// -----

/// conv1d NWC and conv3d NDHWC (channels last): only the spatial axes are padded. Two pads in
/// a row fold one after the other.
// CHECK-LABEL: @channels_last
//  CHECK-NEXT:   %0 = relay.nn.conv1d %x, %w {padding = [1, 2], data_layout = "NWC", kernel_layout = "WIO"}
//  CHECK-NEXT:   %1 = relay.nn.conv3d %y, %v {padding = [1, 1, 1, 0, 1, 1], data_layout = "NDHWC", kernel_layout = "DHWIO"}
//  CHECK-NEXT:   func.return %0, %1
func.func @channels_last(%x: tensor<1x6x2xf32>, %w: tensor<3x2x4xf32>, %y: tensor<1x3x3x3x2xf32>, %v: tensor<2x2x2x2x4xf32>) -> (tensor<1x7x4xf32>, tensor<1x3x4x4x4xf32>) {
  %0 = relay.nn.pad %x {pad_width = [0, 0, 1, 2, 0, 0]} : (tensor<1x6x2xf32>) -> tensor<1x9x2xf32>
  %1 = relay.nn.conv1d %0, %w {data_layout = "NWC", kernel_layout = "WIO"} : (tensor<1x9x2xf32>, tensor<3x2x4xf32>) -> tensor<1x7x4xf32>
  %2 = relay.nn.pad %y {pad_width = [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]} : (tensor<1x3x3x3x2xf32>) -> tensor<1x4x3x3x2xf32>
  %3 = relay.nn.pad %2 {pad_width = [0, 0, 0, 0, 1, 1, 1, 1, 0, 0]} : (tensor<1x4x3x3x2xf32>) -> tensor<1x4x5x5x2xf32>
  %4 = relay.nn.conv3d %3, %v {padding = [0, 0, 0, 0, 0, 0], data_layout = "NDHWC", kernel_layout = "DHWIO"} : (tensor<1x4x5x5x2xf32>, tensor<2x2x2x2x4xf32>) -> tensor<1x3x4x4x4xf32>
  func.return %1, %4 : tensor<1x7x4xf32>, tensor<1x3x4x4x4xf32>
}

// -----

/// A max pool folds a pad of the dtype's lowest finite value (-FLT_MAX; 0 for uint8).
// CHECK-LABEL: @max_pool
//  CHECK-NEXT:   %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], padding = [0, 1, 2, 0]}
//  CHECK-NEXT:   %1 = relay.nn.max_pool1d %y {pool_size = [2], padding = [3, 1]}
//  CHECK-NEXT:   func.return %0, %1
func.func @max_pool(%x: tensor<1x2x4x4xf32>, %y: tensor<1x1x4xui8>) -> (tensor<1x2x5x4xf32>, tensor<1x1x7xui8>) {
  %0 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 0, 2, 1, 0], pad_value = -3.4028234663852886e+38} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x5xf32>
  %1 = relay.nn.max_pool2d %0 {pool_size = [2, 2]} : (tensor<1x2x6x5xf32>) -> tensor<1x2x5x4xf32>
  %2 = relay.nn.pad %y {pad_width = [0, 0, 0, 0, 2, 0]} : (tensor<1x1x4xui8>) -> tensor<1x1x6xui8>
  %3 = relay.nn.max_pool1d %2 {pool_size = [2], padding = [1, 1]} : (tensor<1x1x6xui8>) -> tensor<1x1x7xui8>
  func.return %1, %3 : tensor<1x2x5x4xf32>, tensor<1x1x7xui8>
}

// -----

/// An average pool that does not count padding and has none: the folded pool counts it (as the
/// pad's zeros were). One that counts its padding keeps doing so.
// CHECK-LABEL: @avg_pool
//  CHECK-NEXT:   %0 = relay.nn.avg_pool2d %x {count_include_pad = true, pool_size = [2, 2], padding = [1, 0, 1, 0]}
//  CHECK-NEXT:   %1 = relay.nn.avg_pool3d %y {count_include_pad = true, pool_size = [2, 2, 2], padding = [1, 0, 1, 1, 1, 0]}
//  CHECK-NEXT:   func.return %0, %1
func.func @avg_pool(%x: tensor<1x2x4x4xf32>, %y: tensor<1x1x3x3x3xf32>) -> (tensor<1x2x5x3xf32>, tensor<1x1x4x3x3xf32>) {
  %0 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 0, 0]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x4xf32>
  %1 = relay.nn.avg_pool2d %0 {pool_size = [2, 2]} : (tensor<1x2x6x4xf32>) -> tensor<1x2x5x3xf32>
  %2 = relay.nn.pad %y {pad_width = [0, 0, 0, 0, 1, 0, 0, 0, 0, 0]} : (tensor<1x1x3x3x3xf32>) -> tensor<1x1x4x3x3xf32>
  %3 = relay.nn.avg_pool3d %2 {pool_size = [2, 2, 2], padding = [0, 0, 1, 1, 1, 0], count_include_pad = true} : (tensor<1x1x4x3x3xf32>) -> tensor<1x1x4x3x3xf32>
  func.return %1, %3 : tensor<1x2x5x3xf32>, tensor<1x1x4x3x3xf32>
}

// -----

/// A pad read by a conv and by a relu: the conv folds it, the relu keeps reading it.
// CHECK-LABEL: @shared
//  CHECK-NEXT:   %0 = relay.nn.pad %x
//  CHECK-NEXT:   %1 = relay.nn.conv1d %x, %w {padding = [1, 1]}
//  CHECK-NEXT:   %2 = relay.nn.relu %0
func.func @shared(%x: tensor<1x2x5xf32>, %w: tensor<3x2x3xf32>) -> (tensor<1x3x5xf32>, tensor<1x2x7xf32>) {
  %0 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1]} : (tensor<1x2x5xf32>) -> tensor<1x2x7xf32>
  %1 = relay.nn.conv1d %0, %w : (tensor<1x2x7xf32>, tensor<3x2x3xf32>) -> tensor<1x3x5xf32>
  %2 = relay.nn.relu %0 : tensor<1x2x7xf32>
  func.return %1, %2 : tensor<1x3x5xf32>, tensor<1x2x7xf32>
}

// -----

/// Kept: a non-zero pad value, a reflect pad, padding on the channel axis (an average pool counting its padding), a max pool after a
/// zero pad (not float32's lowest), -inf before a max pool (TVM folds only the lowest finite
/// value), an average pool with padding of its own that does not count it, the pad as the
/// conv's weight, and a transposed convolution (not one of TVM's consumers).
// CHECK-LABEL: @kept
//   CHECK-COUNT-8: relay.nn.pad
//       CHECK-NOT: relay.nn.pad
func.func @kept(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>, tensor<1x2x6x6xf32>, tensor<1x2x2x2xf32>, tensor<1x2x6x6xf32>) {
  %0 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 1, 1], pad_value = 1.0} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %1 = relay.nn.conv2d %0, %w : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %2 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 1, 1], pad_mode = "reflect"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %3 = relay.nn.conv2d %2, %w : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %4 = relay.nn.pad %x {pad_width = [0, 0, 0, 1, 1, 1, 1, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x3x6x6xf32>
  %5 = relay.nn.avg_pool2d %4 {pool_size = [3, 3], count_include_pad = true} : (tensor<1x3x6x6xf32>) -> tensor<1x3x4x4xf32>
  %7 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 1, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %8 = relay.nn.max_pool2d %7 {pool_size = [2, 2]} : (tensor<1x2x6x6xf32>) -> tensor<1x2x5x5xf32>
  %9 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 1, 1], pad_value = 0xfff0000000000000 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %10 = relay.nn.max_pool2d %9 {pool_size = [2, 2]} : (tensor<1x2x6x6xf32>) -> tensor<1x2x5x5xf32>
  %11 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 1, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %12 = relay.nn.avg_pool2d %11 {pool_size = [3, 3], padding = [1, 1, 1, 1]} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %13 = relay.nn.pad %w {pad_width = [0, 0, 0, 0, 0, 0, 0, 0]} : (tensor<2x2x3x3xf32>) -> tensor<2x2x3x3xf32>
  %14 = relay.nn.conv2d %x, %13 : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x2x2xf32>
  %15 = relay.nn.pad %x {pad_width = [0, 0, 0, 0, 1, 1, 1, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %16 = relay.nn.conv2d_transpose %15, %w {padding = [1, 1, 1, 1]} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  func.return %1, %3, %5, %8, %10, %12, %14, %16 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>, tensor<1x2x6x6xf32>, tensor<1x2x2x2xf32>, tensor<1x2x6x6xf32>
}
