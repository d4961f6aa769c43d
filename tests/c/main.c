/* Runs any xrelay model library without Python: links against it, checks the query functions,
 * fills every input with element i = ((i % 7) - 3) * 0.75 (integers: (i % 7) - 3, bool: i % 2),
 * runs two instances, and prints each output as
 *     output <name> <dtype> [<dims>] <values...>
 * with values in %.17g. Exit status 0 on success, 1 with a message on stderr otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xrelay_runtime.h"

static int fail(const char *what) {
  fprintf(stderr, "error: %s: %s\n", what, xrelay_last_error());
  return 1;
}

static size_t numel(const xrelay_tensor_info *info) {
  size_t n = 1;
  for (int32_t d = 0; d < info->ndim; ++d) {
    n *= (size_t)info->shape[d];
  }
  return n;
}

/* Exactly the bytes of the tensor (so AddressSanitizer sees any overflow); 1 if it is empty. */
static void *allocate(const xrelay_tensor_info *info) {
  size_t bytes = numel(info) * xrelay_dtype_size(info->dtype);
  return malloc(bytes ? bytes : 1);
}

static void fill(void *buffer, int32_t dtype, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    long k = (long)(i % 7) - 3;
    switch (dtype) {
    case XRELAY_FLOAT32: ((float *)buffer)[i] = (float)k * 0.75f; break;
    case XRELAY_FLOAT64: ((double *)buffer)[i] = (double)k * 0.75; break;
    case XRELAY_INT8: ((int8_t *)buffer)[i] = (int8_t)k; break;
    case XRELAY_INT16: ((int16_t *)buffer)[i] = (int16_t)k; break;
    case XRELAY_INT32: ((int32_t *)buffer)[i] = (int32_t)k; break;
    case XRELAY_INT64: ((int64_t *)buffer)[i] = (int64_t)k; break;
    case XRELAY_UINT8: ((uint8_t *)buffer)[i] = (uint8_t)(i % 7); break;
    case XRELAY_UINT16: ((uint16_t *)buffer)[i] = (uint16_t)(i % 7); break;
    case XRELAY_UINT32: ((uint32_t *)buffer)[i] = (uint32_t)(i % 7); break;
    case XRELAY_UINT64: ((uint64_t *)buffer)[i] = (uint64_t)(i % 7); break;
    case XRELAY_BOOL: ((uint8_t *)buffer)[i] = (uint8_t)(i % 2); break;
    default: memset(buffer, 0, n * xrelay_dtype_size(dtype)); return;
    }
  }
}

static double element(const void *buffer, int32_t dtype, size_t i) {
  switch (dtype) {
  case XRELAY_FLOAT32: return ((const float *)buffer)[i];
  case XRELAY_FLOAT64: return ((const double *)buffer)[i];
  case XRELAY_INT8: return ((const int8_t *)buffer)[i];
  case XRELAY_INT16: return ((const int16_t *)buffer)[i];
  case XRELAY_INT32: return ((const int32_t *)buffer)[i];
  case XRELAY_INT64: return (double)((const int64_t *)buffer)[i];
  case XRELAY_UINT8:
  case XRELAY_BOOL: return ((const uint8_t *)buffer)[i];
  case XRELAY_UINT32: return ((const uint32_t *)buffer)[i];
  case XRELAY_UINT64: return (double)((const uint64_t *)buffer)[i];
  default: return ((const uint16_t *)buffer)[i]; /* uint16, and f16 / bf16 as their bits */
  }
}

static void print(const xrelay_tensor_info *info, const void *buffer) {
  printf("output %s %d [", info->name, (int)info->dtype);
  for (int32_t d = 0; d < info->ndim; ++d) {
    printf(d ? " %lld" : "%lld", (long long)info->shape[d]);
  }
  printf("]");
  for (size_t i = 0; i < numel(info); ++i) {
    printf(" %.17g", element(buffer, info->dtype, i));
  }
  printf("\n");
}

int main(void) {
  if (xrelay_abi_version() != XRELAY_ABI_VERSION) {
    return fail("ABI version mismatch");
  }
  if (strcmp(xrelay_last_error(), "") != 0) {
    return fail("a last error before any failure");
  }
  int32_t n_in = xrelay_num_inputs(), n_out = xrelay_num_outputs();
  if (xrelay_input_info(-1) || xrelay_input_info(n_in) || xrelay_output_info(-1) ||
      xrelay_output_info(n_out)) {
    return fail("info out of range is not NULL");
  }
  xrelay_model_destroy(NULL);
  const void **inputs = calloc((size_t)n_in + 1, sizeof *inputs);
  void **outputs = calloc((size_t)n_out + 1, sizeof *outputs);
  for (int32_t i = 0; i < n_in; ++i) {
    const xrelay_tensor_info *info = xrelay_input_info(i);
    void *buffer = allocate(info);
    fill(buffer, info->dtype, numel(info));
    inputs[i] = buffer;
  }
  for (int32_t i = 0; i < n_out; ++i) {
    outputs[i] = allocate(xrelay_output_info(i));
  }
  /* Two live instances, each with its own arena; both give the outputs. */
  xrelay_model *first = xrelay_model_create();
  xrelay_model *second = xrelay_model_create();
  if (first == NULL || second == NULL) {
    return fail("xrelay_model_create");
  }
  if (xrelay_model_run(first, inputs, outputs) != 0 ||
      xrelay_model_run(second, inputs, outputs) != 0) {
    return fail("xrelay_model_run");
  }
  printf("inputs %d outputs %d\n", (int)n_in, (int)n_out);
  for (int32_t i = 0; i < n_out; ++i) {
    print(xrelay_output_info(i), outputs[i]);
  }
  xrelay_model_destroy(first);
  xrelay_model_destroy(second);
  for (int32_t i = 0; i < n_in; ++i) {
    free((void *)inputs[i]);
  }
  for (int32_t i = 0; i < n_out; ++i) {
    free(outputs[i]);
  }
  free(inputs);
  free(outputs);
  return 0;
}
