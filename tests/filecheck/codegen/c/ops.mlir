// RUN: xrelay-opt %s --split-input-file -p 'optimize{opt-level=3},plan-memory' -t c | filecheck %s
// RUN: xrelay-opt %s --split-input-file -p 'plan-memory' -t c | filecheck %s --check-prefix=PLAIN

/// An elementwise chain is one flat loop: every op one scalar, a splat constant a literal.
// CHECK-LABEL: void xk_fused_exp_multiply_add_nn_relu(unsigned char *arena, const float *p0, float *restrict o0) {
//       CHECK:   /* relay.nn.relu (fused: relay.exp, relay.multiply, relay.add) */
//  CHECK-NEXT:   const float *restrict in0 = p0;
//  CHECK-NEXT:   float *restrict out0 = o0;
//  CHECK-NEXT:   #pragma GCC unroll 1
//  CHECK-NEXT:   for (int64_t i = 0; i < 16; ++i) {
//  CHECK-NEXT:     const float [[X:t[0-9]+]] = in0[i];
//  CHECK-NEXT:     const float [[E:t[0-9]+]] = xv_expf([[X]]);
//  CHECK-NEXT:     const float [[C:t[0-9]+]] = 2.0f;
//  CHECK-NEXT:     const float [[M:t[0-9]+]] = [[E]] * [[C]];
//  CHECK-NEXT:     const float [[A:t[0-9]+]] = [[M]] + [[X]];
//  CHECK-NEXT:     const float [[R:t[0-9]+]] = ([[A]] != [[A]] || [[A]] > 0.0f) ? [[A]] : 0.0f;
//  CHECK-NEXT:     out0[i] = [[R]];
//  CHECK-NEXT:   }
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c = relay.constant dense<2.0> : tensor<f32>
  %0 = relay.exp %x : tensor<4x4xf32>
  %1 = relay.multiply %0, %c : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %2 = relay.add %1, %x : tensor<4x4xf32>
  %3 = relay.nn.relu %2 : tensor<4x4xf32>
  func.return %3 : tensor<4x4xf32>
}

// -----

/// Broadcasting is index arithmetic: one loop per non-unit dim (adjacent dims every operand
/// reads alike would share one), the rhs read at [i1]; a short inner loop is kept rolled.
// CHECK-LABEL: void xk_fused_subtract_tanh({{.*}}) {
//       CHECK:   for (int64_t i0 = 0; i0 < 2; ++i0) {
//  CHECK-NEXT:     for (int64_t i1 = 0; i1 < 3; ++i1) {
//  CHECK-NEXT:       #pragma GCC unroll 1
//  CHECK-NEXT:       for (int64_t i2 = 0; i2 < 4; ++i2) {
//  CHECK-NEXT:         const float [[A:t[0-9]+]] = in0[i0 * 12 + i1 * 4 + i2];
//  CHECK-NEXT:         const float [[B:t[0-9]+]] = in1[i1];
//  CHECK-NEXT:         const float [[D:t[0-9]+]] = [[A]] - [[B]];
//  CHECK-NEXT:         const float [[T:t[0-9]+]] = xv_tanhf([[D]]);
//  CHECK-NEXT:         out0[i0 * 12 + i1 * 4 + i2] = [[T]];
func.func @main(%x: tensor<2x3x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = relay.subtract %x, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %1 = relay.tanh %0 : tensor<2x3x4xf32>
  func.return %1 : tensor<2x3x4xf32>
}

// -----

/// A value two fused ops read is computed once per element; bias_add reads its bias at
/// the channel; a 1-dim of the result gets no loop.
// PLAIN-LABEL: {"biased", XRELAY_FLOAT32
//       PLAIN:   /* relay.maximum (fused: relay.nn.bias_add, relay.sigmoid, relay.tanh) */
//       PLAIN:   for (int64_t i1 = 0; i1 < 3; ++i1) {
//  PLAIN-NEXT:     #pragma GCC unroll 1
//  PLAIN-NEXT:     for (int64_t i2 = 0; i2 < 5; ++i2) {
//  PLAIN-NEXT:       const float [[X:t[0-9]+]] = in0[i1 * 5 + i2];
//  PLAIN-NEXT:       const float [[B:t[0-9]+]] = in1[i1];
//  PLAIN-NEXT:       const float [[S:t[0-9]+]] = [[X]] + [[B]];
//  PLAIN-NEXT:       const float [[G:t[0-9]+]] = xv_sigmoidf([[S]]);
//  PLAIN-NEXT:       const float [[T:t[0-9]+]] = xv_tanhf([[S]]);
//  PLAIN-NEXT:       const float [[M:t[0-9]+]] = ([[G]] != [[G]] || [[G]] > [[T]]) ? [[G]] : [[T]];
//  PLAIN-NEXT:       out0[i1 * 5 + i2] = [[M]];
func.func @main(%biased: tensor<1x3x5xf32>, %b: tensor<3xf32>) -> tensor<1x3x5xf32> {
  %0 = relay.nn.bias_add %biased, %b : (tensor<1x3x5xf32>, tensor<3xf32>) -> tensor<1x3x5xf32>
  %1 = relay.sigmoid %0 : tensor<1x3x5xf32>
  %2 = relay.tanh %0 : tensor<1x3x5xf32>
  %3 = relay.maximum %1, %2 : tensor<1x3x5xf32>
  func.return %3 : tensor<1x3x5xf32>
}

// -----

/// Integers wrap through the unsigned type (helpers in model.h); comparisons give bytes.
// PLAIN-LABEL: {"wrapping", XRELAY_INT32
//       PLAIN:   const int32_t [[S:t[0-9]+]] = xr_add_i32([[A:t[0-9]+]], [[B:t[0-9]+]]);
//  PLAIN-NEXT:   const int32_t [[D:t[0-9]+]] = xr_div_i32([[S]], [[B]]);
//  PLAIN-NEXT:   const uint8_t [[L:t[0-9]+]] = (uint8_t)([[D]] < [[A]]);
//  PLAIN-NEXT:   out0[i] = [[L]];
func.func @main(%wrapping: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi1> {
  %0 = relay.add %wrapping, %b : tensor<8xi32>
  %1 = relay.divide %0, %b : tensor<8xi32>
  %2 = relay.less %1, %wrapping : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  func.return %2 : tensor<8xi1>
}

// -----

/// The plan reuses the transposed exp's bytes for the second transpose before the add runs,
/// so the multiply that reads them is not fused into the add: it gets its own loop.
// PLAIN-LABEL: {"clobbered", XRELAY_FLOAT32
//       PLAIN:   /* relay.transpose */
//       PLAIN:   float *restrict out0 = (float *)(arena + 64);
//       PLAIN:   /* relay.multiply */
//  PLAIN-NEXT:   const float *restrict in0 = (float *)(arena + 64);
//       PLAIN:   /* relay.transpose */
//  PLAIN-NEXT:   const float *restrict in0 = p0;
//  PLAIN-NEXT:   float *restrict out0 = (float *)(arena + 64);
//       PLAIN:   /* relay.add */
//  PLAIN-NEXT:   const float *restrict in0 = (float *)(arena + 0);
//  PLAIN-NEXT:   const float *restrict in1 = (float *)(arena + 64);
func.func @main(%clobbered: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = relay.exp %clobbered : tensor<4x4xf32>
  %1 = relay.transpose %0 : tensor<4x4xf32>
  %2 = relay.multiply %1, %clobbered : tensor<4x4xf32>
  %3 = relay.transpose %clobbered : tensor<4x4xf32>
  %4 = relay.add %2, %3 : tensor<4x4xf32>
  func.return %4 : tensor<4x4xf32>
}

// -----

/// Reshape-like ops print nothing: the pooled value is read through them where it lies.
// PLAIN-LABEL: {"pooled", XRELAY_FLOAT32
//       PLAIN:   /* relay.nn.global_avg_pool2d */
//       PLAIN:   float *restrict out0 = (float *)(arena + 0);
//   PLAIN-NOT:   relay.nn.batch_flatten
//   PLAIN-NOT:   relay.squeeze
//       PLAIN:   /* relay.nn.relu */
//  PLAIN-NEXT:   const float *restrict in0 = (float *)(arena + 0);
//  PLAIN-NEXT:   float *restrict out0 = o0;
//  PLAIN-NEXT:   #pragma GCC unroll 1
//  PLAIN-NEXT:   for (int64_t i = 0; i < 8; ++i) {
func.func @main(%pooled: tensor<2x4x3x3xf32>) -> tensor<8xf32> {
  %0 = relay.nn.global_avg_pool2d %pooled : (tensor<2x4x3x3xf32>) -> tensor<2x4x1x1xf32>
  %1 = relay.nn.batch_flatten %0 : (tensor<2x4x1x1xf32>) -> tensor<2x4xf32>
  %2 = relay.reshape %1 {newshape = [-1]} : (tensor<2x4xf32>) -> tensor<8xf32>
  %3 = relay.nn.relu %2 : tensor<8xf32>
  func.return %3 : tensor<8xf32>
}
