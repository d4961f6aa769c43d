// RUN: xrelay-opt %s -p 'convert-layout{desired-layouts="nn.conv2d:NCHW:default"}' --split-input-file | filecheck %s
/// roi_align and deformable_conv2d listed too (the @vision_* cases; TVM's convert functions).
// RUN: xrelay-opt %s -p 'convert-layout{desired-layouts="nn.conv2d:NCHW:default","vision.roi_align:NCHW:default","nn.deformable_conv2d:NCHW:default"}' --split-input-file | filecheck %s --check-prefix=VISION
/// An op that cannot be converted (or a bad layout) is an error when the pass is built.
// RUN: not xrelay-opt %s -p 'convert-layout{desired-layouts="nn.dense:NCHW"}' 2>&1 | filecheck %s --check-prefix=BADOP
// RUN: not xrelay-opt %s -p 'convert-layout{desired-layouts="nn.conv2d:NWCH"}' 2>&1 | filecheck %s --check-prefix=BADLAYOUT

// BADOP: error: bad options for pass 'convert-layout': desired layout 'nn.dense:NCHW': unknown op 'nn.dense'; convertible ops: nn.conv2d, nn.conv2d_transpose, nn.deformable_conv2d, nn.max_pool2d, nn.avg_pool2d, nn.global_max_pool2d, nn.global_avg_pool2d, image.resize2d, image.resize1d, vision.roi_align, vision.roi_pool
// BADLAYOUT: error: bad options for pass 'convert-layout': desired layout 'nn.conv2d:NWCH': unsupported data layout 'NWCH'; expected NCHW, NHWC, HWNC or NCHW{k}c

/// TVM's case: NHWC/HWIO conv + relu -> transforms of x and w, NCHW conv, relu, one transform back.
// CHECK-LABEL: @fold_nhwc_conv_relu
//  CHECK-NEXT:   %0 = relay.layout_transform %x {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x6x6x8xf32>) -> tensor<1x8x6x6xf32>
//  CHECK-NEXT:   %1 = relay.layout_transform %w {src_layout = "HWIO", dst_layout = "OIHW"} : (tensor<3x3x8x4xf32>) -> tensor<4x8x3x3xf32>
//  CHECK-NEXT:   %2 = relay.nn.conv2d %0, %1 {padding = [1, 1, 1, 1]} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32>
//  CHECK-NEXT:   %3 = relay.nn.relu %2 : tensor<1x4x6x6xf32>
//  CHECK-NEXT:   %4 = relay.layout_transform %3 {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x4x6x6xf32>) -> tensor<1x6x6x4xf32>
//  CHECK-NEXT:   func.return %4 : tensor<1x6x6x4xf32>
func.func @fold_nhwc_conv_relu(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<3x3x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x6x6x4xf32>
  func.return %1 : tensor<1x6x6x4xf32>
}

// -----

/// Two consecutive convs: no transform pair between them, only the boundary ones.
// CHECK-LABEL: @fold_two_convs
//  CHECK-NEXT:   %0 = relay.layout_transform %x {src_layout = "NHWC", dst_layout = "NCHW"}
//  CHECK-NEXT:   %1 = relay.layout_transform %w1 {src_layout = "HWIO", dst_layout = "OIHW"}
//  CHECK-NEXT:   %2 = relay.nn.conv2d %0, %1 :
//  CHECK-NEXT:   %3 = relay.nn.relu %2
//  CHECK-NEXT:   %4 = relay.layout_transform %w2 {src_layout = "HWIO", dst_layout = "OIHW"}
//  CHECK-NEXT:   %5 = relay.nn.conv2d %3, %4 :
//  CHECK-NEXT:   %6 = relay.layout_transform %5 {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   func.return %6
func.func @fold_two_convs(%x: tensor<1x6x6x8xf32>, %w1: tensor<1x1x8x4xf32>, %w2: tensor<1x1x4x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = relay.nn.conv2d %x, %w1 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x6x6x4xf32>
  %2 = relay.nn.conv2d %1, %w2 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x6x6x4xf32>
  func.return %2 : tensor<1x6x6x4xf32>
}

// -----

/// bias_add is TVM's add (ConvertLayout requires CanonicalizeOps): its `[C]` bias and a
/// per-channel constant `[C]` are widened to `[1, 1, 1, C]` then transformed.
// CHECK-LABEL: @fold_bias_and_channel_constant
//       CHECK:   %2 = relay.nn.conv2d %0, %1
//  CHECK-NEXT:   %3 = relay.expand_dims %b {axis = 0, num_newaxis = 3} : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
//  CHECK-NEXT:   %4 = relay.layout_transform %3 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x1x1x4xf32>) -> tensor<1x4x1x1xf32>
//  CHECK-NEXT:   %5 = relay.add %2, %4 : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
//  CHECK-NEXT:   %6 = relay.constant dense<2.000000e+00> : tensor<4xf32>
//  CHECK-NEXT:   %7 = relay.expand_dims %6 {axis = 0, num_newaxis = 3} : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
//  CHECK-NEXT:   %8 = relay.layout_transform %7 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x1x1x4xf32>) -> tensor<1x4x1x1xf32>
//  CHECK-NEXT:   %9 = relay.multiply %5, %8 : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
//  CHECK-NEXT:   %10 = relay.layout_transform %9 {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   func.return %10
func.func @fold_bias_and_channel_constant(%x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.nn.bias_add %0, %b {axis = 3} : (tensor<1x6x6x4xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  %2 = relay.constant dense<2.0> : tensor<4xf32>
  %3 = relay.multiply %1, %2 : (tensor<1x6x6x4xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  func.return %3 : tensor<1x6x6x4xf32>
}

// -----

/// A pool not listed follows its input to NCHW; batch_norm's axis moves and `[0]` keeps the layout.
// CHECK-LABEL: @fold_pool_and_batch_norm
//       CHECK:   %2 = relay.nn.conv2d %0, %1
//  CHECK-NEXT:   %3 = relay.nn.max_pool2d %2 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
//  CHECK-NEXT:   %4 = relay.nn.batch_norm %3, %g, %g, %g, %g : (tensor<1x4x3x3xf32>, {{.*}}) -> tuple<tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>>
//  CHECK-NEXT:   %5 = relay.tuple_get_item %4 {index = 0}
//  CHECK-NEXT:   %6 = relay.tuple_get_item %4 {index = 1}
//  CHECK-NEXT:   %7 = relay.layout_transform %5 {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   func.return %7, %6
func.func @fold_pool_and_batch_norm(%x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>, %g: tensor<4xf32>) -> (tensor<1x3x3x4xf32>, tensor<4xf32>) {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.nn.max_pool2d %0 {pool_size = [2, 2], strides = [2, 2], layout = "NHWC"} : (tensor<1x6x6x4xf32>) -> tensor<1x3x3x4xf32>
  %2 = relay.nn.batch_norm %1, %g, %g, %g, %g {axis = 3} : (tensor<1x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>>
  %3 = relay.tuple_get_item %2 {index = 0} : (tuple<tensor<1x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<1x3x3x4xf32>
  %4 = relay.tuple_get_item %2 {index = 1} : (tuple<tensor<1x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  func.return %3, %4 : tensor<1x3x3x4xf32>, tensor<4xf32>
}

// -----

/// An op that is not layout-agnostic (reshape) gets the original layout back, once for two uses.
// CHECK-LABEL: @fold_boundary
//       CHECK:   %3 = relay.exp %2
//  CHECK-NEXT:   %4 = relay.layout_transform %3 {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   %5 = relay.reshape %4
//  CHECK-NEXT:   %6 = relay.reshape %4
//  CHECK-NEXT:   func.return %5, %6
func.func @fold_boundary(%x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>) -> (tensor<144xf32>, tensor<36x4xf32>) {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.exp %0 : tensor<1x6x6x4xf32>
  %2 = relay.reshape %1 {newshape = [-1]} : (tensor<1x6x6x4xf32>) -> tensor<144xf32>
  %3 = relay.reshape %1 {newshape = [-1, 4]} : (tensor<1x6x6x4xf32>) -> tensor<36x4xf32>
  func.return %2, %3 : tensor<144xf32>, tensor<36x4xf32>
}

// -----

/// A value read inside a relay.if branch crosses into it in its original layout.
// CHECK-LABEL: @fold_if_branch
//       CHECK:   %2 = relay.nn.conv2d %0, %1
//  CHECK-NEXT:   %3 = relay.layout_transform %2 {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   %4 = relay.if %c
//  CHECK-NEXT:     %5 = relay.tanh %3 : tensor<1x6x6x4xf32>
func.func @fold_if_branch(%c: tensor<i1>, %x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<1x6x6x4xf32> {
    %2 = relay.tanh %0 : tensor<1x6x6x4xf32>
    relay.yield %2 : tensor<1x6x6x4xf32>
  } else {
    relay.yield %0 : tensor<1x6x6x4xf32>
  }
  func.return %1 : tensor<1x6x6x4xf32>
}

// -----

/// A transform of the input the other way cancels with the one the conv needs, and goes away.
// CHECK-LABEL: @fold_cancel_input_transform
//  CHECK-NEXT:   %0 = relay.layout_transform %w {src_layout = "HWIO", dst_layout = "OIHW"}
//  CHECK-NEXT:   %1 = relay.nn.conv2d %x, %0 :
//  CHECK-NEXT:   %2 = relay.layout_transform %1 {src_layout = "NCHW", dst_layout = "NHWC"}
//  CHECK-NEXT:   func.return %2
func.func @fold_cancel_input_transform(%x: tensor<1x8x6x6xf32>, %w: tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x8x6x6xf32>) -> tensor<1x6x6x8xf32>
  %1 = relay.nn.conv2d %0, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  func.return %1 : tensor<1x6x6x4xf32>
}

// -----

/// A conv already in NCHW/OIHW is left as it is.
// CHECK-LABEL: @keep_nchw
//  CHECK-NEXT:   %0 = relay.nn.conv2d %x, %w : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
//  CHECK-NEXT:   %1 = relay.nn.relu %0
//  CHECK-NEXT:   func.return %1
func.func @keep_nchw(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
  %1 = relay.nn.relu %0 : tensor<1x4x6x6xf32>
  func.return %1 : tensor<1x4x6x6xf32>
}

// -----

/// NHWC ops with no conv (a pool not listed) are left alone.
// CHECK-LABEL: @keep_no_conv
//  CHECK-NEXT:   %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], layout = "NHWC"}
//  CHECK-NEXT:   %1 = relay.nn.relu %0
//  CHECK-NEXT:   func.return %1
func.func @keep_no_conv(%x: tensor<1x6x6x8xf32>) -> tensor<1x5x5x8xf32> {
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], layout = "NHWC"} : (tensor<1x6x6x8xf32>) -> tensor<1x5x5x8xf32>
  %1 = relay.nn.relu %0 : tensor<1x5x5x8xf32>
  func.return %1 : tensor<1x5x5x8xf32>
}

// -----

/// A function for an external compiler is skipped.
// CHECK-LABEL: @keep_external
//  CHECK-NEXT:   %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
//  CHECK-NEXT:   func.return %0
func.func @keep_external(%x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32> attributes {Compiler = "accel"} {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  func.return %0 : tensor<1x6x6x4xf32>
}

// -----

/// Listed roi_align takes the conv's new layout: no transform between them; rois as they are.
// VISION-LABEL: @vision_roi_align_follows
//  VISION-NEXT:   %0 = relay.layout_transform %x {src_layout = "NHWC", dst_layout = "NCHW"}
//  VISION-NEXT:   %1 = relay.layout_transform %w {src_layout = "HWIO", dst_layout = "OIHW"}
//  VISION-NEXT:   %2 = relay.nn.conv2d %0, %1 :
//  VISION-NEXT:   %3 = relay.vision.roi_align %2, %r {pooled_size = [2, 2], spatial_scale = 0.5} : (tensor<1x4x6x6xf32>, tensor<3x5xf32>) -> tensor<3x4x2x2xf32>
//  VISION-NEXT:   %4 = relay.nn.relu %3 : tensor<3x4x2x2xf32>
//  VISION-NEXT:   %5 = relay.layout_transform %4 {src_layout = "NCHW", dst_layout = "NHWC"}
//  VISION-NEXT:   func.return %5
func.func @vision_roi_align_follows(%x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>, %r: tensor<3x5xf32>) -> tensor<3x2x2x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.vision.roi_align %0, %r {pooled_size = [2, 2], spatial_scale = 0.5, layout = "NHWC"} : (tensor<1x6x6x4xf32>, tensor<3x5xf32>) -> tensor<3x2x2x4xf32>
  %2 = relay.nn.relu %1 : tensor<3x2x2x4xf32>
  func.return %2 : tensor<3x2x2x4xf32>
}

// -----

/// roi_pool not listed keeps its NHWC layout: the conv's result goes back before it.
// VISION-LABEL: @vision_roi_pool_not_listed
//       VISION:   %2 = relay.nn.conv2d %0, %1 :
//  VISION-NEXT:   %3 = relay.layout_transform %2 {src_layout = "NCHW", dst_layout = "NHWC"}
//  VISION-NEXT:   %4 = relay.vision.roi_pool %3, %r {pooled_size = [2, 2], spatial_scale = 0.5, layout = "NHWC"}
//  VISION-NEXT:   func.return %4
func.func @vision_roi_pool_not_listed(%x: tensor<1x6x6x8xf32>, %w: tensor<1x1x8x4xf32>, %r: tensor<3x5xf32>) -> tensor<3x2x2x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = relay.vision.roi_pool %0, %r {pooled_size = [2, 2], spatial_scale = 0.5, layout = "NHWC"} : (tensor<1x6x6x4xf32>, tensor<3x5xf32>) -> tensor<3x2x2x4xf32>
  func.return %1 : tensor<3x2x2x4xf32>
}

// -----

/// Listed deformable_conv2d: data and offset relaid to NCHW, the weight to OIHW.
// VISION-LABEL: @vision_deformable
//  VISION-NEXT:   %0 = relay.layout_transform %x {src_layout = "NHWC", dst_layout = "NCHW"}
//  VISION-NEXT:   %1 = relay.layout_transform %o {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x3x3x18xf32>) -> tensor<1x18x3x3xf32>
//  VISION-NEXT:   %2 = relay.layout_transform %w {src_layout = "HWIO", dst_layout = "OIHW"}
//  VISION-NEXT:   %3 = relay.nn.deformable_conv2d %0, %1, %2 : (tensor<1x2x5x5xf32>, tensor<1x18x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
//  VISION-NEXT:   %4 = relay.layout_transform %3 {src_layout = "NCHW", dst_layout = "NHWC"}
//  VISION-NEXT:   func.return %4
func.func @vision_deformable(%x: tensor<1x5x5x2xf32>, %o: tensor<1x3x3x18xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = relay.nn.deformable_conv2d %x, %o, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x5x5x2xf32>, tensor<1x3x3x18xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  func.return %0 : tensor<1x3x3x4xf32>
}

// -----

/// A deformable_conv2d already in NCHW/OIHW is left as it is.
// VISION-LABEL: @vision_deformable_keep
//  VISION-NEXT:   %0 = relay.nn.deformable_conv2d %x, %o, %w :
//  VISION-NEXT:   func.return %0
func.func @vision_deformable_keep(%x: tensor<1x2x5x5xf32>, %o: tensor<1x18x3x3xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x2x5x5xf32>, tensor<1x18x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return %0 : tensor<1x4x3x3xf32>
}
