/// The hooks come from a plugin file: conv2d's doubles its weight (TVM's test_alter_op); relu's
/// runs a rank-4 relu in NHWC between two transforms and keeps (returns None for) other ranks.
// RUN: echo 'from xrelay import relay; from xrelay.passes.alter_op_layout import register_alter_op_layout as r; r("nn.conv2d", lambda op, i: relay.Call(type(op), [i[0], relay.multiply(i[1], relay.const(2.0))], op.properties)); r("nn.relu", lambda op, i: relay.layout_transform(relay.nn.relu(relay.layout_transform(i[0], "NCHW", "NHWC")), "NHWC", "NCHW") if len(op.operands[0].type.get_shape()) == 4 else None)' > %t.hooks.py
// RUN: xrelay-opt %s --load-pass-plugin %t.hooks.py -p alter-op-layout --split-input-file | filecheck %s
/// Without hooks the pass changes nothing.
// RUN: xrelay-opt %s -p alter-op-layout --split-input-file | filecheck %s --check-prefix=NOHOOK

/// The conv is replaced by what its hook returns: the same conv on `weight * 2.0`.
// CHECK-LABEL: @fold_conv_hook
//  CHECK-NEXT:   %0 = relay.constant dense<2.000000e+00> : tensor<f32>
//  CHECK-NEXT:   %1 = relay.multiply %w, %0 : (tensor<4x8x3x3xf32>, tensor<f32>) -> tensor<4x8x3x3xf32>
//  CHECK-NEXT:   %2 = relay.nn.conv2d %x, %1 {padding = [1, 1, 1, 1]} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32>
//  CHECK-NEXT:   func.return %2
// NOHOOK-LABEL: @fold_conv_hook
//  NOHOOK-NEXT:   %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]}
//  NOHOOK-NEXT:   func.return %0
func.func @fold_conv_hook(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %0 : tensor<1x4x6x6xf32>
}

// -----

/// Two altered relus in a row: the transform back and forth between them cancels.
// CHECK-LABEL: @fold_relu_pair_cancels
//  CHECK-NEXT:   %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x8x6x4xf32>) -> tensor<1x6x4x8xf32>
//  CHECK-NEXT:   %1 = relay.nn.relu %0 : tensor<1x6x4x8xf32>
//  CHECK-NEXT:   %2 = relay.nn.relu %1 : tensor<1x6x4x8xf32>
//  CHECK-NEXT:   %3 = relay.layout_transform %2 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x6x4x8xf32>) -> tensor<1x8x6x4xf32>
//  CHECK-NEXT:   func.return %3
// NOHOOK-LABEL: @fold_relu_pair_cancels
//  NOHOOK-NEXT:   %0 = relay.nn.relu %x
//  NOHOOK-NEXT:   %1 = relay.nn.relu %0
//  NOHOOK-NEXT:   func.return %1
func.func @fold_relu_pair_cancels(%x: tensor<1x8x6x4xf32>) -> tensor<1x8x6x4xf32> {
  %0 = relay.nn.relu %x : tensor<1x8x6x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x8x6x4xf32>
  func.return %1 : tensor<1x8x6x4xf32>
}

// -----

/// A transform the graph already had is undone by the one the relu's replacement starts with.
// CHECK-LABEL: @fold_cancels_original_transform
//  CHECK-NEXT:   %0 = relay.nn.relu %x : tensor<1x6x4x8xf32>
//  CHECK-NEXT:   %1 = relay.layout_transform %0 {src_layout = "NHWC", dst_layout = "NCHW"}
//  CHECK-NEXT:   func.return %1
func.func @fold_cancels_original_transform(%x: tensor<1x6x4x8xf32>) -> tensor<1x8x6x4xf32> {
  %0 = relay.layout_transform %x {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x6x4x8xf32>) -> tensor<1x8x6x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x8x6x4xf32>
  func.return %1 : tensor<1x8x6x4xf32>
}

// -----

/// The relu hook returns None for a rank-2 relu: it stays; ops without a hook stay.
// CHECK-LABEL: @keep_hook_declines
//  CHECK-NEXT:   %0 = relay.nn.relu %x : tensor<2x8xf32>
//  CHECK-NEXT:   %1 = relay.exp %0 : tensor<2x8xf32>
//  CHECK-NEXT:   func.return %1
func.func @keep_hook_declines(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = relay.nn.relu %x : tensor<2x8xf32>
  %1 = relay.exp %0 : tensor<2x8xf32>
  func.return %1 : tensor<2x8xf32>
}

// -----

/// A function for an external compiler is skipped.
// CHECK-LABEL: @keep_external
//  CHECK-NEXT:   %0 = relay.nn.conv2d %x, %w
//  CHECK-NEXT:   func.return %0
func.func @keep_external(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x4x4xf32> attributes {Compiler = "accel"} {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x4x4xf32>
  func.return %0 : tensor<1x4x4x4xf32>
}
