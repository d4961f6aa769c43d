// RUN: xrelay-opt %s -p 'convert-layout{desired-layouts="nn.conv2d:NCHW4c:OIHW4i4o"}' --split-input-file | filecheck %s
// RUN: not xrelay-opt %s -p 'convert-layout{desired-layouts="nn.conv2d:NCHW4c:default"}' 2>&1 | filecheck %s --check-prefix=BADKERNEL

// BADKERNEL: error: bad options for pass 'convert-layout': desired layout 'nn.conv2d:NCHW4c:default': a blocked data layout needs a kernel layout, not 'default'

/// A blocked data layout makes TVM's contrib_conv2d_NCHWc; the pools and relu follow NCHW4c,
/// one transform back at the return.
// CHECK-LABEL: @to_nchw4c
//  CHECK-NEXT:   %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x8x6x6xf32>) -> tensor<1x2x6x6x4xf32>
//  CHECK-NEXT:   %1 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "OIHW4i4o"} : (tensor<8x8x3x3xf32>) -> tensor<2x2x3x3x4x4xf32>
//  CHECK-NEXT:   %2 = relay.nn.contrib_conv2d_NCHWc %0, %1 {padding = [1, 1, 1, 1], data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"} : (tensor<1x2x6x6x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x6x6x4xf32>
//  CHECK-NEXT:   %3 = relay.nn.relu %2 : tensor<1x2x6x6x4xf32>
//  CHECK-NEXT:   %4 = relay.nn.max_pool2d %3 {pool_size = [2, 2], strides = [2, 2], layout = "NCHW4c"} : (tensor<1x2x6x6x4xf32>) -> tensor<1x2x3x3x4xf32>
//  CHECK-NEXT:   %5 = relay.nn.global_avg_pool2d %4 {layout = "NCHW4c"} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x4xf32>
//  CHECK-NEXT:   %6 = relay.layout_transform %5 {src_layout = "NCHW4c", dst_layout = "NCHW"} : (tensor<1x2x1x1x4xf32>) -> tensor<1x8x1x1xf32>
//  CHECK-NEXT:   func.return %6
func.func @to_nchw4c(%x: tensor<1x8x6x6xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x1x1xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = relay.nn.relu %0 : tensor<1x8x6x6xf32>
  %2 = relay.nn.max_pool2d %1 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x8x6x6xf32>) -> tensor<1x8x3x3xf32>
  %3 = relay.nn.global_avg_pool2d %2 : (tensor<1x8x3x3xf32>) -> tensor<1x8x1x1xf32>
  func.return %3 : tensor<1x8x1x1xf32>
}

// -----

/// As TVM's convert_conv2d: a conv on a parameter whose 3 channels 4 does not divide stays.
// CHECK-LABEL: @indivisible_input
//  CHECK-NEXT:   %0 = relay.nn.conv2d %x, %w : (tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32>
//  CHECK-NEXT:   func.return %0
func.func @indivisible_input(%x: tensor<1x3x6x6xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32>
  func.return %0 : tensor<1x8x4x4xf32>
}
