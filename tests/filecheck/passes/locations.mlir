// RUN: xrelay-opt %s -p fold-constant --mlir-print-debuginfo | filecheck %s --check-prefix=FOLD
// RUN: xrelay-opt %s -p fuse-ops --mlir-print-debuginfo | filecheck %s --check-prefix=FUSE
// RUN: xrelay-opt %s -p 'merge-composite{pattern-table=accel}' --mlir-print-debuginfo | filecheck %s --check-prefix=COMPOSITE
// RUN: xrelay-opt %s -p 'partition-for{target=accel}' --mlir-print-debuginfo | filecheck %s --check-prefix=PARTITION
// RUN: xrelay-opt %s -p 'partition-for{target=accel},convert-relay-to-accel' --mlir-print-debuginfo | filecheck %s --check-prefix=ACCEL
// RUN: xrelay-opt %s -p 'partition-for{target=dnnl},convert-relay-to-dnnl' --mlir-print-debuginfo | filecheck %s --check-prefix=DNNL
// RUN: xrelay-opt %s -p 'convert-layout{desired-layouts="nn.conv2d:NHWC:default"}' --mlir-print-debuginfo | filecheck %s --check-prefix=LAYOUT
// RUN: xrelay-opt %s -p build-pipeline --mlir-print-debuginfo | xrelay-opt -t c | filecheck %s --check-prefix=C

/// Locations survive passes (MLIR's rule): an op a pass makes in place of another takes
/// its location (a folded constant, a relaid or lowered op), an op made of several takes
/// `loc(fused[...])` of theirs (a fused function and its call, a composite, a partition),
/// block arguments of a new function are where the values they stand for are, and the
/// generated C names the source of each kernel call in a comment.

// FOLD: %d = relay.constant dense<4.000000e+00> : tensor<4xf32> loc("{{.*}}locations.mlir":50:8)

// FUSE: func.call @fused_add_add_nn_conv2d_nn_bias_add_nn_relu_tanh(%c, %b, %x, %w) {{.*}} loc(fused["{{.*}}locations.mlir":50:8, "{{.*}}":51:9, "{{.*}}":52:8, "{{.*}}":53:8, "{{.*}}":54:8, "{{.*}}":55:8])
// FUSE: func.func private @fused_add_add_nn_conv2d_nn_bias_add_nn_relu_tanh(%p0: tensor<4xf32> loc("{{.*}}":49:8), %p1: tensor<4xf32> loc("{{.*}}":48:67)
// FUSE: func.return %3 : tensor<1x4x8x8xf32> loc(fused[
// FUSE-NEXT: } loc(fused["{{.*}}locations.mlir":50:8,

// COMPOSITE: relay.composite "accel.conv2d_bias_relu"
// COMPOSITE-NEXT: ^bb0(%x_1: tensor<1x3x8x8xf32> loc("{{.*}}":48:17), %w_1: tensor<4x3x3x3xf32> loc("{{.*}}":48:42), %b2_1: tensor<4xf32> loc("{{.*}}":51:9)):
// COMPOSITE: relay.yield %3 : tensor<1x4x8x8xf32> loc(fused["{{.*}}":52:8, "{{.*}}":53:8, "{{.*}}":54:8])
// COMPOSITE-NEXT: } loc(fused["{{.*}}":52:8, "{{.*}}":53:8, "{{.*}}":54:8])

// PARTITION-LABEL: func.func @tvmgen_default_accel_main_0
// PARTITION: } loc(fused["{{.*}}":50:8, "{{.*}}":51:9, "{{.*}}":52:8, "{{.*}}":53:8, "{{.*}}":54:8])
// PARTITION-LABEL: func.func @main
// PARTITION-NEXT: func.call @tvmgen_default_accel_main_0(%x, %w, %b) {{.*}} loc(fused["{{.*}}":50:8,
// PARTITION-NEXT: relay.tanh %0 : tensor<1x4x8x8xf32> loc("{{.*}}":55:8)

// ACCEL: accel.add %accel_0_i2, %d : tensor<4xf32> loc("{{.*}}":51:9)
// ACCEL: accel.conv2d {{.*}} loc(fused["{{.*}}":52:8, "{{.*}}":53:8, "{{.*}}":54:8])

// DNNL: dnnl.reorder %dnnl_0_i0 {{.*}} loc(fused["{{.*}}":52:8,
// DNNL: dnnl.conv2d {{.*}} loc(fused["{{.*}}":52:8,
// DNNL: dnnl.reorder %1 {{.*}} loc(fused["{{.*}}":52:8,

// LAYOUT: relay.layout_transform %x {{.*}} loc("{{.*}}":52:8)
// LAYOUT: relay.nn.conv2d {{.*}} loc("{{.*}}":52:8)

/// In the generated C, one comment per kernel call, `file:line:col` then the fused group's other positions.
// C: {{^}}void xk_main(
// C-NEXT: xk_fused_add_expand_dims({{.*}}); /* loc: {{.*}}locations.mlir:51:9, 53:8 */
// C-NEXT: xk_fused_nn_conv2d_add_nn_relu_tanh({{.*}}); /* loc: {{.*}}locations.mlir:52:8, 53:8, 54:8, 55:8 */
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %c = relay.constant dense<2.0> : tensor<4xf32>
  %d = relay.add %c, %c : tensor<4xf32>
  %b2 = relay.add %b, %d : tensor<4xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.bias_add %0, %b2 : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32>
  %3 = relay.tanh %2 : tensor<1x4x8x8xf32>
  func.return %3 : tensor<1x4x8x8xf32>
}
