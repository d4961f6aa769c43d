// RUN: xrelay-opt %s -p 'partition-for{target=accel},optimize{opt-level=3},convert-relay-to-accel,plan-memory' -t c | filecheck %s

/// The whole flow: conv2d+bias_add+relu becomes one accel.conv2d with its epilogue and the
/// pool another partition, both printed in accel.c (their loop nests in
/// kernels_generated.c); tanh stays host code in model.c, and main calls the partitions
/// through their model.h prototypes, each on its own arena region.
// CHECK-LABEL: // ----- model.h
//       CHECK: XR_HIDDEN void xk_tvmgen_default_accel_main_0(unsigned char *arena, const float *p0, float *restrict o0);
//  CHECK-NEXT: XR_HIDDEN void xk_tvmgen_default_accel_main_3(unsigned char *arena, const float *p0, float *restrict o0);
// CHECK-LABEL: // ----- model.c
//       CHECK: void xk_main(unsigned char *arena, const float *p0, float *restrict o0) {
//  CHECK-NEXT:   xk_tvmgen_default_accel_main_0(arena + 2048, p0, (float *)(arena + 0));
//  CHECK-NEXT:   xk_fused_tanh(arena + 2048, (float *)(arena + 0), (float *)(arena + 1024));
//  CHECK-NEXT:   xk_tvmgen_default_accel_main_3(arena + 2048, (float *)(arena + 1024), o0);
//       CHECK:     /* relay.tanh */
//   CHECK-NOT: accel.
// CHECK-LABEL: // ----- accel.c
//       CHECK: void xk_tvmgen_default_accel_main_0(unsigned char *arena, const float *p0, float *restrict o0) {
//       CHECK:     /* accel.conv2d */
//  CHECK-NEXT:     const float *restrict in0 = p0;
//  CHECK-NEXT:     const float *restrict in1 = xc_0;
//  CHECK-NEXT:     const float *restrict in2 = xc_1;
//  CHECK-NEXT:     float *restrict out0 = o0;
//  CHECK-NEXT:     [[CONV:xa_conv2d_[0-9a-f]+]](in0, in1, in2, out0);
//       CHECK: void xk_tvmgen_default_accel_main_3(unsigned char *arena, const float *p0, float *restrict o0) {
//       CHECK:     /* accel.max_pool2d */
//       CHECK:     [[POOL:xa_max_pool2d_[0-9a-f]+]](in0, out0);
//   CHECK-NOT: relay.
/// The kernels' loop nests are routines in the generated library unit.
// CHECK-LABEL: // ----- kernels_generated.c
//       CHECK: XR_HIDDEN void [[CONV]](const float *restrict in0, const float *restrict in1, const float *restrict in2, float *restrict out0) {
//       CHECK:         a0_0 = xa_splat(in2[oc + 0]);
//       CHECK:         a0_0 = xa_relu(a0_0);
//       CHECK: XR_HIDDEN void [[POOL]](const float *restrict in0, float *restrict out0) {
//       CHECK: // ----- constants.bin: 448 bytes of binary data
func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %b = relay.constant dense<0.25> : tensor<4xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32>
  %3 = relay.tanh %2 : tensor<1x4x8x8xf32>
  %4 = relay.nn.max_pool2d %3 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  func.return %4 : tensor<1x4x4x4xf32>
}
