/* The loop nest of the relu_add fixture: its own translation unit, hidden from the ABI. */
#include "relu_add.h"

void relu_add_kernel(const float *x, const float *w, float *y, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      float v = x[i * cols + j] + w[j];
      y[i * cols + j] = v > 0.0f ? v : 0.0f;
    }
  }
}
