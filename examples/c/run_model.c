/* run_model.c - run a model library built by xrelay from C, without Python.
 *
 * Links against the library (no dlopen), reads the inputs' and outputs' infos, fills
 * every float32 input with element i = ((i % 7) - 3) * 0.25, runs one model instance
 * and prints the first values of each float32 output as
 *     output0 [1 10]: <up to 8 values in %.9g>
 * From the repository root (see examples/c/README.md):
 *     xrelay-run examples/tinyres.mlir --target c --export model.so
 *     cc -std=c11 -Wall -Wextra -I codegen/runtime examples/c/run_model.c ./model.so -o run_model
 *     ./run_model
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrelay_runtime.h"

static size_t elements(const xrelay_tensor_info *info) {
  size_t n = 1;
  for (int32_t d = 0; d < info->ndim; ++d) n *= (size_t)info->shape[d];
  return n;
}

int main(void) {
  int32_t n_in = xrelay_num_inputs(), n_out = xrelay_num_outputs();
  const void **inputs = calloc((size_t)n_in + 1, sizeof *inputs);
  void **outputs = calloc((size_t)n_out + 1, sizeof *outputs);
  for (int32_t i = 0; i < n_in; ++i) {
    const xrelay_tensor_info *info = xrelay_input_info(i);
    if (info->dtype != XRELAY_FLOAT32) {
      fprintf(stderr, "input %s is not float32; this example fills float32 only\n", info->name);
      return 1;
    }
    float *x = malloc(elements(info) * sizeof *x + 1);
    for (size_t k = 0; k < elements(info); ++k) x[k] = (float)((long)(k % 7) - 3) * 0.25f;
    inputs[i] = x;
  }
  for (int32_t i = 0; i < n_out; ++i) {
    const xrelay_tensor_info *info = xrelay_output_info(i);
    outputs[i] = malloc(elements(info) * xrelay_dtype_size(info->dtype) + 1);
  }
  xrelay_model *model = xrelay_model_create(); /* allocates the arena, once */
  if (model == NULL || xrelay_model_run(model, inputs, outputs) != 0) {
    fprintf(stderr, "error: %s\n", xrelay_last_error());
    return 1;
  }
  for (int32_t i = 0; i < n_out; ++i) {
    const xrelay_tensor_info *info = xrelay_output_info(i);
    printf("%s [", info->name);
    for (int32_t d = 0; d < info->ndim; ++d) printf(d ? " %lld" : "%lld", (long long)info->shape[d]);
    printf("]:");
    for (size_t k = 0; info->dtype == XRELAY_FLOAT32 && k < elements(info) && k < 8; ++k)
      printf(" %.9g", ((const float *)outputs[i])[k]);
    printf("\n");
  }
  xrelay_model_destroy(model);
  for (int32_t i = 0; i < n_in; ++i) free((void *)inputs[i]);
  for (int32_t i = 0; i < n_out; ++i) free(outputs[i]);
  free(inputs);
  free(outputs);
  return 0;
}
