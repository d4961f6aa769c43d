// RUN: xrelay-opt %s -p 'convert-layout{desired-layouts="nn.conv2d:NHWC:default","nn.max_pool2d:NHWC"}' --split-input-file | filecheck %s

/// NCHW -> NHWC: the global pool follows the conv; batch_flatten reads NCHW again.
// CHECK-LABEL: @fold_nchw_to_nhwc
//  CHECK-NEXT:   %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x8x6x6xf32>) -> tensor<1x6x6x8xf32>
//  CHECK-NEXT:   %1 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "HWIO"} : (tensor<4x8x3x3xf32>) -> tensor<3x3x8x4xf32>
//  CHECK-NEXT:   %2 = relay.nn.conv2d %0, %1 {padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<3x3x8x4xf32>) -> tensor<1x6x6x4xf32>
//  CHECK-NEXT:   %3 = relay.nn.global_avg_pool2d %2 {layout = "NHWC"} : (tensor<1x6x6x4xf32>) -> tensor<1x1x1x4xf32>
//  CHECK-NEXT:   %4 = relay.layout_transform %3 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x1x1x4xf32>) -> tensor<1x4x1x1xf32>
//  CHECK-NEXT:   %5 = relay.nn.batch_flatten %4
//  CHECK-NEXT:   func.return %5
func.func @fold_nchw_to_nhwc(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = relay.nn.global_avg_pool2d %0 : (tensor<1x4x6x6xf32>) -> tensor<1x4x1x1xf32>
  %2 = relay.nn.batch_flatten %1 : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  func.return %2 : tensor<1x4xf32>
}

// -----

/// `default` for an NHWC depthwise conv (groups = channels in = channels out) is HWOI, as in TVM.
// CHECK-LABEL: @fold_depthwise
//       CHECK:   %1 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "HWOI"} : (tensor<4x1x3x3xf32>) -> tensor<3x3x4x1xf32>
//  CHECK-NEXT:   %2 = relay.nn.conv2d %0, %1 {groups = 4, data_layout = "NHWC", kernel_layout = "HWOI"}
//  CHECK-NEXT:   %3 = relay.layout_transform %2 {src_layout = "NHWC", dst_layout = "NCHW"}
func.func @fold_depthwise(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w {groups = 4} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>
  func.return %0 : tensor<1x4x4x4xf32>
}

// -----

/// A constant weight gets a transform (FoldConstant folds it); an add of two converted values
/// needs none; concatenate and split move their axis from 1 to 3.
// CHECK-LABEL: @fold_join_and_split
//  CHECK-NEXT:   %w = relay.constant dense<1.000000e+00> : tensor<4x8x1x1xf32>
//  CHECK-NEXT:   %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   %1 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "HWIO"}
//  CHECK-NEXT:   %2 = relay.nn.conv2d %0, %1
//  CHECK-NEXT:   %3 = relay.nn.conv2d %0, %1
//  CHECK-NEXT:   %4 = relay.add %2, %3 : tensor<1x6x6x4xf32>
//  CHECK-NEXT:   %5 = relay.concatenate %4, %2 {axis = 3} : (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>) -> tensor<1x6x6x8xf32>
//  CHECK-NEXT:   %6 = relay.split %5 {indices_or_sections = 2, axis = 3}
//  CHECK-NEXT:   %7 = relay.tuple_get_item %6 {index = 0}
//  CHECK-NEXT:   %8 = relay.layout_transform %7 {src_layout = "NHWC", dst_layout = "NCHW"}
//  CHECK-NEXT:   func.return %8
func.func @fold_join_and_split(%x: tensor<1x8x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = relay.constant dense<1.0> : tensor<4x8x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
  %1 = relay.nn.conv2d %x, %w : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
  %2 = relay.add %0, %1 : tensor<1x4x6x6xf32>
  %3 = relay.concatenate %2, %0 {axis = 1} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32>
  %4 = relay.split %3 {indices_or_sections = 2, axis = 1} : (tensor<1x8x6x6xf32>) -> tuple<tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>>
  %5 = relay.tuple_get_item %4 {index = 0} : (tuple<tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>>) -> tensor<1x4x6x6xf32>
  func.return %5 : tensor<1x4x6x6xf32>
}

// -----

/// A listed pool is converted on its own, without any conv.
// CHECK-LABEL: @fold_listed_pool
//  CHECK-NEXT:   %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   %1 = relay.nn.max_pool2d %0 {pool_size = [2, 2], layout = "NHWC"} : (tensor<1x6x6x8xf32>) -> tensor<1x5x5x8xf32>
//  CHECK-NEXT:   %2 = relay.layout_transform %1 {src_layout = "NHWC", dst_layout = "NCHW"}
//  CHECK-NEXT:   func.return %2
func.func @fold_listed_pool(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x5x5xf32> {
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2]} : (tensor<1x8x6x6xf32>) -> tensor<1x8x5x5xf32>
  func.return %0 : tensor<1x8x5x5xf32>
}

// -----

/// A tuple read only through tuple_get_item carries its fields' layouts; a tuple returned whole
/// gets its fields back in the original layout.
// CHECK-LABEL: @fold_tuples
//       CHECK:   %2 = relay.nn.conv2d %0, %1
//  CHECK-NEXT:   %3 = relay.tuple %2, %x : (tensor<1x6x6x4xf32>, tensor<1x8x6x6xf32>)
//  CHECK-NEXT:   %4 = relay.tuple_get_item %3 {index = 0}
//  CHECK-NEXT:   %5 = relay.exp %4 : tensor<1x6x6x4xf32>
//  CHECK-NEXT:   %6 = relay.layout_transform %5 {src_layout = "NHWC", dst_layout = "NCHW"}
//  CHECK-NEXT:   %7 = relay.tuple %6, %x
//  CHECK-NEXT:   func.return %7
func.func @fold_tuples(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x1x1xf32>) -> tuple<tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
  %1 = relay.tuple %0, %x : (tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>) -> tuple<tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>>
  %2 = relay.tuple_get_item %1 {index = 0} : (tuple<tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>>) -> tensor<1x4x6x6xf32>
  %3 = relay.exp %2 : tensor<1x4x6x6xf32>
  %4 = relay.tuple %3, %x : (tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>) -> tuple<tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>>
  func.return %4 : tuple<tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>>
}

// -----

/// A conv already NHWC/HWIO, its pool already NHWC: unchanged.
// CHECK-LABEL: @keep_nhwc
//  CHECK-NEXT:   %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
//  CHECK-NEXT:   %1 = relay.nn.max_pool2d %0 {pool_size = [2, 2], layout = "NHWC"}
//  CHECK-NEXT:   func.return %1
func.func @keep_nhwc(%x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>) -> tensor<1x5x5x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.nn.max_pool2d %0 {pool_size = [2, 2], layout = "NHWC"} : (tensor<1x6x6x4xf32>) -> tensor<1x5x5x4xf32>
  func.return %1 : tensor<1x5x5x4xf32>
}
