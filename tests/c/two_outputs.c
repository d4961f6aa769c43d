/* Hand-written model implementing xrelay_runtime.h with two inputs, two outputs and an arena:
 *   t = a * scale                   (the intermediate, float32[2, 3], kept in the arena)
 *   scaled = t + 1                  float32[2, 3]
 *   row_max = max(t, axis=1)        float64[2]
 * with a float32[2, 3] and scale an int32 scalar (ndim 0, no shape). */
#include <stdio.h>
#include <stdlib.h>

#include "xrelay_runtime.h"

enum { ROWS = 2, COLS = 3 };

struct xrelay_model {
  float *arena; /* t: ROWS * COLS floats, allocated once in create */
};

static const int64_t a_shape[2] = {ROWS, COLS};
static const int64_t row_max_shape[1] = {ROWS};
static const xrelay_tensor_info inputs[2] = {
    {"a", XRELAY_FLOAT32, 2, a_shape},
    {"scale", XRELAY_INT32, 0, NULL},
};
static const xrelay_tensor_info outputs[2] = {
    {"scaled", XRELAY_FLOAT32, 2, a_shape},
    {"row_max", XRELAY_FLOAT64, 1, row_max_shape},
};
static _Thread_local char last_error[256];

int32_t xrelay_abi_version(void) { return XRELAY_ABI_VERSION; }
/* Portable C: no instruction set feature beyond the compiler\'s default. */
const char *xrelay_required_isa(void) { return ""; }
const char *xrelay_missing_isa(void) { return NULL; }
int32_t xrelay_num_inputs(void) { return 2; }
int32_t xrelay_num_outputs(void) { return 2; }

const xrelay_tensor_info *xrelay_input_info(int32_t index) {
  return index >= 0 && index < 2 ? &inputs[index] : NULL;
}

const xrelay_tensor_info *xrelay_output_info(int32_t index) {
  return index >= 0 && index < 2 ? &outputs[index] : NULL;
}

xrelay_model *xrelay_model_create(void) {
  xrelay_model *model = malloc(sizeof *model);
  float *arena = malloc(ROWS * COLS * sizeof *arena);
  if (model == NULL || arena == NULL) {
    free(model);
    free(arena);
    snprintf(last_error, sizeof last_error, "two_outputs: cannot allocate the arena");
    return NULL;
  }
  model->arena = arena;
  return model;
}

int32_t xrelay_model_run(xrelay_model *model, const void *const *in, void *const *out) {
  const float *a = in[0];
  const int32_t scale = *(const int32_t *)in[1];
  float *t = model->arena;
  float *scaled = out[0];
  double *row_max = out[1];
  last_error[0] = '\0';
  for (int i = 0; i < ROWS * COLS; ++i) {
    t[i] = a[i] * (float)scale;
  }
  for (int i = 0; i < ROWS * COLS; ++i) {
    scaled[i] = t[i] + 1.0f;
  }
  for (int r = 0; r < ROWS; ++r) {
    double m = t[r * COLS];
    for (int c = 1; c < COLS; ++c) {
      m = t[r * COLS + c] > m ? t[r * COLS + c] : m;
    }
    row_max[r] = m;
  }
  return 0;
}

void xrelay_model_destroy(xrelay_model *model) {
  if (model != NULL) {
    free(model->arena);
    free(model);
  }
}

const char *xrelay_last_error(void) { return last_error; }
