// RUN: xrelay-opt %s -p plan-memory -t c | filecheck %s

/// The C ABI of xrelay_runtime.h: infos named after the parameters (a tuple parameter is
/// one input per field), the arena allocated once at create, pointers checked at run;
/// constants are binary data (.incbin of constants.bin), symbols hidden; IR names only
/// reach C sanitized (identifiers) or escaped (strings).
// CHECK-LABEL: // ----- model.h
//       CHECK: #include <math.h>
//       CHECK: extern XR_HIDDEN const float xc_0[6];
//       CHECK: XR_HIDDEN void xk_my_model_v2(unsigned char *arena, const float *p0, float *restrict o0);
//  CHECK-NEXT: XR_HIDDEN void xk_main(unsigned char *arena, const float *p0, const float *p1, const int32_t *p2, float *restrict o0, float *restrict o1, float *restrict o2);
// CHECK-LABEL: // ----- model.c
//       CHECK: #include "xrelay_runtime.h"
//  CHECK-NEXT: #include "model.h"
//       CHECK: __asm__(
//  CHECK-NEXT:     "# constants.bin sha256 {{[0-9a-f]+}}\n"
//  CHECK-NEXT:     ".pushsection .rodata.xrelay_constants,\"a\",@progbits\n"
//  CHECK-NEXT:     ".balign 64\n"
//  CHECK-NEXT:     ".globl xc_0\n"
//  CHECK-NEXT:     ".hidden xc_0\n"
//       CHECK:     "xc_0:\n"
//  CHECK-NEXT:     ".incbin \"constants.bin\", 0, 24\n"
//       CHECK: static _Thread_local char xr_last_error[256];
//       CHECK: static const int64_t xr_input_shape_0[2] = {3, 2};
//       CHECK: static const xrelay_tensor_info xr_inputs[3] = {
//  CHECK-NEXT:     {"image", XRELAY_FLOAT32, 2, xr_input_shape_0},
//  CHECK-NEXT:     {"t.0", XRELAY_FLOAT32, 1, xr_input_shape_1},
//  CHECK-NEXT:     {"t.1", XRELAY_INT32, 1, xr_input_shape_2},
//       CHECK:     {"output2", XRELAY_FLOAT32, 2, xr_output_shape_2},
//       CHECK: XR_HIDDEN void xr_refuse(const char *feature) {
//       CHECK: XR_HIDDEN xrelay_model *xr_model_create(void) {
//       CHECK:   model->arena = aligned_alloc(64, 64);
//       CHECK: int32_t xrelay_model_run(xrelay_model *model, const void *const *inputs,
//       CHECK:   if (xr_bad(inputs[2], _Alignof(int32_t),
//  CHECK-NEXT:              "xrelay_model_run: input 2 (\047t.1\047) is NULL",
//  CHECK-NEXT:              "xrelay_model_run: input 2 (\047t.1\047) is not aligned for its dtype")) {
//       CHECK:   xk_main(model->arena, (const float *)inputs[0], (const float *)inputs[1], (const int32_t *)inputs[2], (float *)outputs[0], (float *)outputs[1], (float *)outputs[2]);
//  CHECK-NEXT:   return 0;
//       CHECK: void xrelay_model_destroy(xrelay_model *model) {
//  CHECK-NEXT:   if (model != NULL) {
//  CHECK-NEXT:     free(model->arena);

/// Outputs that are a parameter or a constant are copied; a call writes the output in place.
//       CHECK: void xk_main(unsigned char *arena, const float *p0, const float *p1, const int32_t *p2, float *restrict o0, float *restrict o1, float *restrict o2) {
//  CHECK-NEXT:   (void)p2;
//  CHECK-NEXT:   xk_my_model_v2(arena, p1, o0);
//  CHECK-NEXT:   for (int64_t e = 0; e < 6; ++e) {
//  CHECK-NEXT:     o1[e] = p0[e];
//  CHECK-NEXT:   }
//  CHECK-NEXT:   for (int64_t e = 0; e < 6; ++e) {
//  CHECK-NEXT:     o2[e] = xc_0[e];
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
/// The ISA units (codegen/c/isa.py): the features as data, the baseline check that guards
/// xrelay_model_create.
//       CHECK: // ----- isa_required.c
//       CHECK: const char xr_isa_required[] = ""
//       CHECK: #ifdef __AVX2__
//  CHECK-NEXT:     ",avx2"
//       CHECK: // ----- isa.c
//       CHECK: const char *xrelay_missing_isa(void) {
//       CHECK:   if (xr_needs("avx512f") && !__builtin_cpu_supports("avx512f")) return "avx512f";
//       CHECK: xrelay_model *xrelay_model_create(void) {
//  CHECK-NEXT:   const char *missing = xrelay_missing_isa();
//  CHECK-NEXT:   if (missing != NULL) {
//  CHECK-NEXT:     xr_refuse(missing);
//  CHECK-NEXT:     return NULL;
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return xr_model_create();
//       CHECK: // ----- constants.bin: 24 bytes of binary data
func.func @"my model: v2"(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func @main(%image: tensor<3x2xf32>, %t: tuple<tensor<2xf32>, tensor<2xi32>>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %c = relay.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %f = relay.tuple_get_item %t {index = 0} : (tuple<tensor<2xf32>, tensor<2xi32>>) -> tensor<2xf32>
  %0 = func.call @"my model: v2"(%f) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0, %image, %c : tensor<2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}
