// RUN: xrelay-opt %s --split-input-file -p 'optimize{opt-level=3},plan-memory' -t c | filecheck %s

/// conv2d on float64 (NHWC/HWIO, strided, padded) is its own loop nest into the arena, window
/// bounds per row and column, accumulating in double; its bias_add+relu is one fused loop.
// CHECK-LABEL: void xk_fused_nn_conv2d_add_nn_relu({{.*}}) {
//       CHECK:   /* relay.nn.conv2d */
//  CHECK-NEXT:   const double *restrict in0 = p0;
//  CHECK-NEXT:   const double *restrict in1 = p1;
//  CHECK-NEXT:   double *restrict out0 = (double *)(arena + 0);
//       CHECK:         for (int64_t y = 0; y < 3; ++y) {
//  CHECK-NEXT:           const int64_t iy = y * 2 - 1;
//  CHECK-NEXT:           const int64_t ky0 = iy < 0 ? -iy : 0;
//  CHECK-NEXT:           const int64_t ey = 5 - iy;
//  CHECK-NEXT:           const int64_t ky1 = ey < 3 ? ey : 3;
//       CHECK:             double acc = 0;
//  CHECK-NEXT:             for (int64_t ic = 0; ic < 2; ++ic) {
//  CHECK-NEXT:               for (int64_t ky = ky0; ky < ky1; ++ky) {
//  CHECK-NEXT:                 for (int64_t kx = kx0; kx < kx1; ++kx) {
//  CHECK-NEXT:                   acc += (double)in0[n * 50 + (c0 + ic) + (ky + iy) * 10 + (kx + ix) * 2] * (double)in1[oc + ic * 4 + ky * 24 + kx * 8];
//       CHECK:             out0[n * 36 + oc + y * 12 + x * 4] = (double)(acc);
//       CHECK:   /* relay.nn.relu (fused: relay.add) */
//  CHECK-NEXT:   const double *restrict in0 = (double *)(arena + 0);
//  CHECK-NEXT:   const double *restrict in1 = p2;
//  CHECK-NEXT:   double *restrict out0 = o0;
func.func @main(%x: tensor<1x5x5x2xf64>, %w: tensor<3x3x2x4xf64>, %b: tensor<4xf64>) -> tensor<1x3x3x4xf64> {
  %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x5x5x2xf64>, tensor<3x3x2x4xf64>) -> tensor<1x3x3x4xf64>
  %1 = relay.nn.bias_add %0, %b {axis = 3} : (tensor<1x3x3x4xf64>, tensor<4xf64>) -> tensor<1x3x3x4xf64>
  %2 = relay.nn.relu %1 : tensor<1x3x3x4xf64>
  func.return %2 : tensor<1x3x3x4xf64>
}

// -----

/// conv2d on float32 NHWC (HWIO or OHWI) calls the shared NHWC kernel, its bias_add+relu
/// applied in the kernel's store (no loop of their own).
// CHECK-LABEL: void xk_fused_nn_conv2d_add_nn_relu({{.*}}) {
//       CHECK:   /* relay.nn.conv2d */
//       CHECK:   /* fused: relay.add, relay.nn.relu */
//  CHECK-NEXT:   /* the shared NHWC direct kernel (codegen/kernels) */
//  CHECK-NEXT:   xc_conv_nhwc_{{[0-9a-f]+}}(in0, in1, out0, ep_bias);
//  CHECK-NEXT: }
//       CHECK: XR_HIDDEN void xc_conv_nhwc_{{[0-9a-f]+}}(const float *restrict data, const float *restrict weight, float *out, const float *bias) {
func.func @main(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  %1 = relay.nn.bias_add %0, %b {axis = 3} : (tensor<1x3x3x4xf32>, tensor<4xf32>) -> tensor<1x3x3x4xf32>
  %2 = relay.nn.relu %1 : tensor<1x3x3x4xf32>
  func.return %2 : tensor<1x3x3x4xf32>
}

// -----

/// dense on float32 calls the shared GEMM (codegen/kernels/gemm.py, its own unit
/// kernels_gemm.c): data @ weight.T, the transpose given by strides.
// CHECK-LABEL: void xk_fused_nn_dense({{.*}}) {
//       CHECK:   xg_sgemm(2, 3, 8, in0, 8, 1, in1, 1, 8, out0, 3);
//       CHECK: // ----- kernels_gemm.c
func.func @main(%x: tensor<2x8xf32>, %w: tensor<3x8xf32>) -> tensor<2x3xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

/// dense on other dtypes: one double accumulator per output element.
// CHECK-LABEL: void xk_fused_nn_dense({{.*}}) {
//       CHECK:   for (int64_t m = 0; m < 2; ++m) {
//  CHECK-NEXT:     for (int64_t u = 0; u < 3; ++u) {
//  CHECK-NEXT:       double acc = 0;
//  CHECK-NEXT:       for (int64_t q = 0; q < 8; ++q) {
//  CHECK-NEXT:         acc += (double)in0[m * 8 + q] * (double)in1[u * 8 + q];
//       CHECK:       out0[m * 3 + u] = (double)(acc);
//   CHECK-NOT: xg_sgemm
func.func @main(%x: tensor<2x8xf64>, %w: tensor<3x8xf64>) -> tensor<2x3xf64> {
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf64>, tensor<3x8xf64>) -> tensor<2x3xf64>
  func.return %0 : tensor<2x3xf64>
}

// -----

/// max_pool2d starts from the lowest value when the window reaches the padding;
/// avg_pool2d with count_include_pad counts the declared padding, never ceil_mode's.
/// (float64: the loops every dtype but float32 keeps; float32 is the shared kernel's, below.)
// CHECK-LABEL: void xk_fused_nn_max_pool2d({{.*}}) {
//       CHECK:   double m = ky0 == 0 && kx0 == 0 && ky1 == 3 && kx1 == 3 ? (-INFINITY) : (-DBL_MAX);
//       CHECK:       const double v = in0[n * 50 + c * 25 + (ky + iy) * 5 + (kx + ix)];
//  CHECK-NEXT:       m = (v > m || v != v) ? v : m;
// CHECK-LABEL: void xk_fused_nn_avg_pool2d({{.*}}) {
//       CHECK:   sum += (double)in0[n * 50 + c * 25 + (ky + iy) * 5 + (kx + ix)];
//       CHECK:   const int64_t py = 5 - iy;
//  CHECK-NEXT:   const int64_t cy = py < 2 ? (py > 0 ? py : 0) : 2;
//       CHECK:   const int64_t count = cy * cx > 0 ? cy * cx : 1;
//  CHECK-NEXT:   out0[n * 18 + c * 9 + y * 3 + x] = (double)(sum / (double)count);
func.func @main(%x: tensor<1x2x5x5xf64>) -> (tensor<1x2x3x3xf64>, tensor<1x2x3x3xf64>) {
  %0 = relay.nn.max_pool2d %x {pool_size = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64>
  %1 = relay.nn.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], ceil_mode = true, count_include_pad = true} : (tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64>
  func.return %0, %1 : tensor<1x2x3x3xf64>, tensor<1x2x3x3xf64>
}

// -----

/// Reductions loop over the kept dims, then the reduced ones; argmax keeps the first
/// extremum (a NaN wins, as numpy's).
// CHECK-LABEL: void xk_fused_sum({{.*}}) {
//       CHECK:   for (int64_t j1 = 0; j1 < 4; ++j1) {
//  CHECK-NEXT:     double acc = 0;
//  CHECK-NEXT:     for (int64_t j0 = 0; j0 < 3; ++j0) {
//  CHECK-NEXT:       for (int64_t j2 = 0; j2 < 5; ++j2) {
//  CHECK-NEXT:         const float v = in0[j0 * 20 + j1 * 5 + j2];
//  CHECK-NEXT:         acc += (double)v;
//       CHECK:     out0[j1] = (float)(acc);
// CHECK-LABEL: void xk_fused_argmax({{.*}}) {
//       CHECK:   if (at < 0 || (v > best || (v != v && best == best))) {
//       CHECK:   out0[j0 * 5 + j2] = (int32_t)at;
func.func @main(%x: tensor<3x4x5xf32>) -> (tensor<4xf32>, tensor<3x1x5xi32>) {
  %0 = relay.sum %x {axis = [0, 2]} : (tensor<3x4x5xf32>) -> tensor<4xf32>
  %1 = relay.argmax %x {axis = [1], keepdims = true} : (tensor<3x4x5xf32>) -> tensor<3x1x5xi32>
  func.return %0, %1 : tensor<4xf32>, tensor<3x1x5xi32>
}

// -----

/// concatenate and split move whole rows (plain copy loops); the split's fields are two
/// result buffers of one op.
// CHECK-LABEL: void xk_fused_concatenate({{.*}}) {
//       CHECK:   for (int64_t r = 0; r < 2; ++r) {
//  CHECK-NEXT:     for (int64_t e = 0; e < 3; ++e) {
//  CHECK-NEXT:       out0[(r * 4) + e] = in0[(r * 3) + e];
//       CHECK:       out0[(r * 4 + 3) + e] = in1[r + e];
// CHECK-LABEL: void xk_fused_split(unsigned char *arena, const float *p0, float *restrict o0, float *restrict o1) {
//       CHECK:   float *restrict out0 = o0;
//  CHECK-NEXT:   float *restrict out1 = o1;
//       CHECK:       out0[(r * 2) + e] = in0[(r * 4) + e];
//       CHECK:       out1[(r * 2) + e] = in0[(r * 4 + 2) + e];
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = relay.concatenate %x, %y {axis = 1} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %1 = relay.split %0 {indices_or_sections = 2, axis = 1} : (tensor<2x4xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>
  %2 = relay.tuple_get_item %1 {index = 0} : (tuple<tensor<2x2xf32>, tensor<2x2xf32>>) -> tensor<2x2xf32>
  %3 = relay.tuple_get_item %1 {index = 1} : (tuple<tensor<2x2xf32>, tensor<2x2xf32>>) -> tensor<2x2xf32>
  func.return %0, %2, %3 : tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
