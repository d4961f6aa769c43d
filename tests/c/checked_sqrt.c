/* Hand-written model implementing xrelay_runtime.h whose run can fail: y = sqrt(x) for
 * float32[5], refusing a negative element with a message in xrelay_last_error().
 * -DXRELAY_TEST_FAIL_CREATE makes xrelay_model_create fail as if the arena could not be had. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrelay_runtime.h"

struct xrelay_model {
  int unused;
};

static const int64_t shape[1] = {5};
static const xrelay_tensor_info inputs[1] = {{"x", XRELAY_FLOAT32, 1, shape}};
static const xrelay_tensor_info outputs[1] = {{"y", XRELAY_FLOAT32, 1, shape}};
static _Thread_local char last_error[256];

int32_t xrelay_abi_version(void) { return XRELAY_ABI_VERSION; }
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
#ifdef XRELAY_TEST_FAIL_CREATE
  snprintf(last_error, sizeof last_error, "checked_sqrt: cannot allocate a 1 TiB arena");
  return NULL;
#else
  return calloc(1, sizeof(xrelay_model));
#endif
}

int32_t xrelay_model_run(xrelay_model *model, const void *const *in, void *const *out) {
  const float *x = in[0];
  float *y = out[0];
  (void)model;
  last_error[0] = '\0';
  for (int i = 0; i < 5; ++i) {
    if (x[i] < 0.0f) {
      snprintf(last_error, sizeof last_error, "checked_sqrt: x[%d] = %g is negative", i,
               (double)x[i]);
      return 2;
    }
    y[i] = sqrtf(x[i]);
  }
  return 0;
}

void xrelay_model_destroy(xrelay_model *model) { free(model); }

const char *xrelay_last_error(void) { return last_error; }
