/* Hand-written model implementing xrelay_runtime.h: y = relu(x + w), x and y float32[2, 3, 4],
 * w a constant float32[4] broadcast over the last axis. A test fixture for the build step and
 * the runtime; the C emitters generate libraries of this shape.
 * -DXRELAY_TEST_ABI=n makes it report ABI version n (the loader must refuse it);
 * -DXRELAY_TEST_OVERFLOW makes run write one row past y (the sanitizers must catch it).
 * relu_add_live_models() counts the instances not yet destroyed, for lifecycle tests. */
#include <stdio.h>
#include <stdlib.h>

#include "relu_add.h"
#include "xrelay_runtime.h"

#ifndef XRELAY_TEST_ABI
#define XRELAY_TEST_ABI XRELAY_ABI_VERSION
#endif

struct xrelay_model {
  int64_t runs;
};

static const float w[4] = {0.5f, -1.0f, 2.0f, -3.0f};
static const int64_t x_shape[3] = {2, 3, 4};
static const xrelay_tensor_info inputs[1] = {{"x", XRELAY_FLOAT32, 3, x_shape}};
static const xrelay_tensor_info outputs[1] = {{"y", XRELAY_FLOAT32, 3, x_shape}};
static _Thread_local char last_error[256];
static _Atomic int64_t live_models; /* create may run on any thread */

#ifdef XRELAY_TEST_OVERFLOW
enum { ROWS = 2 * 3 + 1 };
#else
enum { ROWS = 2 * 3 };
#endif

XRELAY_API int64_t relu_add_live_models(void);
int64_t relu_add_live_models(void) { return live_models; }

int32_t xrelay_abi_version(void) { return XRELAY_TEST_ABI; }
/* Portable C: no instruction set feature beyond the compiler\'s default. */
const char *xrelay_required_isa(void) { return ""; }
const char *xrelay_missing_isa(void) { return NULL; }
int32_t xrelay_num_inputs(void) { return 1; }
int32_t xrelay_num_outputs(void) { return 1; }

const xrelay_tensor_info *xrelay_input_info(int32_t index) {
  return index == 0 ? &inputs[0] : NULL;
}

const xrelay_tensor_info *xrelay_output_info(int32_t index) {
  return index == 0 ? &outputs[0] : NULL;
}

xrelay_model *xrelay_model_create(void) {
  xrelay_model *model = calloc(1, sizeof *model);
  if (model == NULL) {
    snprintf(last_error, sizeof last_error, "relu_add: out of memory");
    return NULL;
  }
  live_models += 1;
  return model;
}

int32_t xrelay_model_run(xrelay_model *model, const void *const *in, void *const *out) {
  last_error[0] = '\0';
  if (model == NULL) {
    snprintf(last_error, sizeof last_error, "relu_add: model is NULL");
    return 1;
  }
  model->runs += 1;
  relu_add_kernel((const float *)in[0], w, (float *)out[0], ROWS, 4);
  return 0;
}

void xrelay_model_destroy(xrelay_model *model) {
  if (model != NULL) {
    live_models -= 1;
    free(model);
  }
}

const char *xrelay_last_error(void) { return last_error; }
