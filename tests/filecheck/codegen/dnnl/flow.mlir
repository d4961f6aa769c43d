// RUN: xrelay-opt %s -p 'partition-for{target=dnnl},optimize{opt-level=3},convert-relay-to-dnnl,plan-memory' -t c | filecheck %s

/// The whole flow: conv2d+bias_add+relu becomes one dnnl.conv2d (bias; the relu applied after it by xd_relu, which keeps NaN, unless the run's inputs are finite: then oneDNN's relu post-op, xd_fuse_relu) on NHWC
/// activations, between a reorder in and a reorder out, printed in dnnl.c; tanh stays host
/// code. The partition's oneDNN objects live in an instance slot after the planned arena:
/// model.c creates them with the instance (xd_init_), checks each run (xd_check_) and frees
/// them with it (xd_destroy_). At init the constant weights are reordered into the layout the
/// convolution chose (xd_weights); each run points the memory objects of the function's
/// parameter and result at the caller's buffers (xd_set) and executes the primitives.
// CHECK-LABEL: // ----- model.c
//       CHECK: XR_HIDDEN int xd_init_xk_tvmgen_default_dnnl_main_0(unsigned char *arena, char *error, size_t size);
//  CHECK-NEXT: XR_HIDDEN void xd_destroy_xk_tvmgen_default_dnnl_main_0(unsigned char *arena);
//  CHECK-NEXT: XR_HIDDEN int xd_check_xk_tvmgen_default_dnnl_main_0(unsigned char *arena, char *error, size_t size);
//       CHECK:   model->arena = aligned_alloc(64, 2880);
//       CHECK:   memset(model->arena + 2816, 0, 8);
//  CHECK-NEXT:   if (xd_init_xk_tvmgen_default_dnnl_main_0(model->arena, xr_last_error, sizeof xr_last_error) != 0) {
//  CHECK-NEXT:     xd_destroy_xk_tvmgen_default_dnnl_main_0(model->arena);
//  CHECK-NEXT:     free(model->arena);
//       CHECK:   xk_main(model->arena, (const float *)inputs[0], (float *)outputs[0]);
//  CHECK-NEXT:   if (xd_check_xk_tvmgen_default_dnnl_main_0(model->arena, xr_last_error, sizeof xr_last_error) != 0) {
//  CHECK-NEXT:     return 1;
//       CHECK: void xrelay_model_destroy(xrelay_model *model) {
//  CHECK-NEXT:   if (model != NULL) {
//  CHECK-NEXT:     xd_destroy_xk_tvmgen_default_dnnl_main_0(model->arena);
//  CHECK-NEXT:     free(model->arena);
//       CHECK: void xk_main(unsigned char *arena, const float *p0, float *restrict o0) {
//  CHECK-NEXT:   xk_tvmgen_default_dnnl_main_0(arena + 1024, p0, (float *)(arena + 0));
//       CHECK:     /* relay.tanh */
//   CHECK-NOT: dnnl.
// CHECK-LABEL: // ----- dnnl.c
//       CHECK: #include <dnnl.h>
//       CHECK: #if !defined(DNNL_VERSION_MAJOR) || DNNL_VERSION_MAJOR != 2
//       CHECK: static int xk_tvmgen_default_dnnl_main_0_init_1(xd_state *s, unsigned char *arena, char *error, size_t size) {
//  CHECK-NEXT:   static const char what[] = "dnnl.conv2d #1 in @tvmgen_default_dnnl_main_0";
//       CHECK:   static const dnnl_dims_t src_dims = {1, 3, 8, 8};
//  CHECK-NEXT:   static const dnnl_dims_t src_strides = {192, 1, 24, 3};
//       CHECK:   XD_TRY(xd_md(&weights, 4, weights_dims, NULL), "describing weights");
//       CHECK:   if (xd_primitive(s, 1, &desc, 0, XD_RELU_POST_OP, 1.0f, what, error, size)) {
//       CHECK:   if (xd_weights(s, 3, 1, 0, &user_weights, xc_0, what, error, size)) {
//       CHECK:   if (xd_memory(s, 4, 1, dnnl_query_weights_md, 1, NULL, xc_1, 16, what, error, size)) {
//       CHECK: #ifndef XRELAY_DNNL_RELU_POST_OP
//  CHECK-NEXT:   xd_fuse_relu(s, 1, 0);
//  CHECK-NEXT: #endif
//  CHECK-NEXT:   return 0;
//       CHECK: static int xk_tvmgen_default_dnnl_main_0_create(unsigned char *instance, char *error, size_t size) {
//  CHECK-NEXT:   xd_state **slot = (xd_state **)(instance + 2816);
//  CHECK-NEXT:   unsigned char *arena = instance + 1024;
//  CHECK-NEXT:   if (xd_new(slot, 3, 8, 1, error, size)) {
//       CHECK:   return xd_scratchpad(*slot, error, size);
//       CHECK: XR_HIDDEN int xd_init_xk_tvmgen_default_dnnl_main_0(unsigned char *instance, char *error, size_t size) {
//  CHECK-NEXT:   int saved = xd_threads_begin(0);
//  CHECK-NEXT:   int failed = xk_tvmgen_default_dnnl_main_0_create(instance, error, size);
//  CHECK-NEXT:   xd_threads_end(saved);
//       CHECK: void xk_tvmgen_default_dnnl_main_0(unsigned char *arena, const float *p0, float *restrict o0) {
//  CHECK-NEXT:   xd_state *s = *(xd_state **)(arena + 1792);
//  CHECK-NEXT: #ifndef XRELAY_DNNL_RELU_POST_OP
//  CHECK-NEXT:   s->finite = xd_finite((const float *)p0, 192);
//  CHECK-NEXT: #endif
//  CHECK-NEXT:   {
//  CHECK-NEXT:     /* dnnl.reorder */
//  CHECK-NEXT:     static const char what[] = "dnnl.reorder #0 in @tvmgen_default_dnnl_main_0";
//  CHECK-NEXT:     xd_set(s, 0, p0, what);
//  CHECK-NEXT:     dnnl_exec_arg_t args[3] = {{[{]}}{DNNL_ARG_FROM, s->mems[0]}, {DNNL_ARG_TO, s->mems[1]}, {0, NULL}};
//  CHECK-NEXT:     xd_exec(s, 0, args, 2, what);
//  CHECK-NEXT:   }
//  CHECK-NEXT:   {
//  CHECK-NEXT:     /* dnnl.conv2d */
//  CHECK-NEXT:     static const char what[] = "dnnl.conv2d #1 in @tvmgen_default_dnnl_main_0";
//  CHECK-NEXT:     dnnl_exec_arg_t args[5] = {{[{]}}{DNNL_ARG_SRC, s->mems[2]}, {DNNL_ARG_WEIGHTS, s->mems[3]}, {DNNL_ARG_BIAS, s->mems[4]}, {DNNL_ARG_DST, s->mems[5]}, {0, NULL}};
//  CHECK-NEXT:     xd_exec(s, 1, args, 4, what);
//  CHECK-NEXT: #ifndef XRELAY_DNNL_RELU_POST_OP
//  CHECK-NEXT:     xd_relu_after(s, 1, (float *)(arena + 0), 256);
//  CHECK-NEXT: #endif
//       CHECK:     /* dnnl.reorder */
//       CHECK:     xd_set(s, 7, o0, what);
//       CHECK: // ----- constants.bin: 448 bytes of binary data
func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %b = relay.constant dense<0.25> : tensor<4xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32>
  %3 = relay.tanh %2 : tensor<1x4x8x8xf32>
  func.return %3 : tensor<1x4x8x8xf32>
}
