// RUN: xrelay-opt %s -p plan-memory -t c | filecheck %s

/// Host pools split their planes over a team of threads that claim chunks of them
/// (xn_parallel, through a routine unpacking the pointers; one thread calls the range
/// routine directly);
/// big concatenations and block transposes (ShuffleNet's channel shuffle) copy rows with
/// the threads library's xn_copy_rows; small ones keep their loops.
// CHECK:      #define XR_NUM_THREADS 0
// CHECK:      typedef void (*xn_part)(void *args, int64_t q0, int64_t q1);
// CHECK:      XR_HIDDEN int xn_team(int threads, int64_t most);
// CHECK:      /* relay.nn.max_pool2d */
// CHECK:      xc_pool_[[POOL:[0-9a-f]+]](in0, out0);
// CHECK:      /* relay.concatenate */
// CHECK:      xn_copy_rows(XR_NUM_THREADS, 1, 207936 * (int64_t)sizeof *out0, in0, 207936 * (int64_t)sizeof *out0, out0 + 0, 311904 * (int64_t)sizeof *out0);
// CHECK-NEXT: xn_copy_rows(XR_NUM_THREADS, 1, 103968 * (int64_t)sizeof *out0, in1, 103968 * (int64_t)sizeof *out0, out0 + 207936, 311904 * (int64_t)sizeof *out0);
// CHECK:      /* relay.transpose */
// CHECK:      for (int64_t j2 = 0; j2 < 3; ++j2) {
// CHECK-NEXT: xn_copy_rows(XR_NUM_THREADS, 32, 3249 * (int64_t)sizeof *out0, in0 + j0 * 311904 + j2 * 103968, 3249 * (int64_t)sizeof *out0, out0 + j0 * 311904 + j2 * 3249, 9747 * (int64_t)sizeof *out0);
// CHECK:      /* relay.concatenate */
// CHECK-NOT:  xn_copy_rows
// CHECK:      for (int64_t e = 0; e < 6; ++e) {
// CHECK:      // ----- kernels_threads.c
// CHECK:      int64_t xn_chunks(int team, int64_t total, int64_t most, int64_t *bounds) {
// CHECK:      static void xn_claim(int64_t *next, const int64_t *bounds, int64_t chunks, xn_part part,
// CHECK:          const int64_t c = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
// CHECK-NEXT:     if (c >= chunks) return;
// CHECK-NEXT:     part(args, bounds[c], bounds[c + 1]);
// CHECK:      #pragma omp parallel num_threads(team)
// CHECK-NEXT: #endif
// CHECK-NEXT:   xn_claim(&next, bounds, chunks, part, args);
// CHECK:      xn_parallel(team, total, total / XN_GRAIN, xn_copy_part, &c);
// CHECK:      // ----- kernels_generated.c
// CHECK:      XR_HIDDEN void xc_pool_range_[[RANGE:[0-9a-f]+]](const float *restrict in0, float *restrict out0, int64_t q0, int64_t q1) {
// CHECK:      XR_HIDDEN void xc_pool_chunk_[[CHUNK:[0-9a-f]+]](void *args, int64_t q0, int64_t q1) {
// CHECK-NEXT:   void *const *xn_args = args;
// CHECK-NEXT:   xc_pool_range_[[RANGE]]((const float *)xn_args[0], (float *)xn_args[1], q0, q1);
// CHECK:      XR_HIDDEN void xc_pool_[[POOL]](const float *restrict in0, float *restrict out0) {
// CHECK-NEXT:   const int team = xn_team(XR_NUM_THREADS, 15);
// CHECK-NEXT:   if (team > 1) {
// CHECK-NEXT:     void *xn_args[2] = {(void *)in0, (void *)out0};
// CHECK-NEXT:     xn_parallel(team, 64, 15, xc_pool_chunk_[[CHUNK]], xn_args);
// CHECK-NEXT:   }
// CHECK-NEXT:   else {
// CHECK-NEXT:     xc_pool_range_[[RANGE]](in0, out0, 0, 64);
func.func @main(%x: tensor<1x64x57x57xf32>, %y: tensor<1x32x57x57xf32>, %s: tensor<1x2x3xf32>) -> (tensor<1x64x28x28xf32>, tensor<1x96x57x57xf32>, tensor<1x32x3x57x57xf32>, tensor<1x4x3xf32>) {
  %0 = relay.nn.max_pool2d %x {pool_size = [3, 3], strides = [2, 2], padding = [0, 0, 0, 0], ceil_mode = true} : (tensor<1x64x57x57xf32>) -> tensor<1x64x28x28xf32>
  %1 = relay.concatenate %x, %y {axis = 1} : (tensor<1x64x57x57xf32>, tensor<1x32x57x57xf32>) -> tensor<1x96x57x57xf32>
  %2 = relay.reshape %1 {newshape = [1, 3, 32, 57, 57]} : (tensor<1x96x57x57xf32>) -> tensor<1x3x32x57x57xf32>
  %3 = relay.transpose %2 {axes = [0, 2, 1, 3, 4]} : (tensor<1x3x32x57x57xf32>) -> tensor<1x32x3x57x57xf32>
  %4 = relay.concatenate %s, %s {axis = 1} : (tensor<1x2x3xf32>, tensor<1x2x3xf32>) -> tensor<1x4x3xf32>
  func.return %0, %1, %3, %4 : tensor<1x64x28x28xf32>, tensor<1x96x57x57xf32>, tensor<1x32x3x57x57xf32>, tensor<1x4x3xf32>
}
