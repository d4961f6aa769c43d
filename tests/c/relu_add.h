/* y = relu(x + w): the kernel shared by the two translation units of the relu_add fixture. */
#ifndef RELU_ADD_H
#define RELU_ADD_H
#include <stdint.h>

/* y[i, j] = max(x[i, j] + w[j], 0) for `rows` rows of `cols` elements. */
void relu_add_kernel(const float *x, const float *w, float *y, int64_t rows, int64_t cols);

#endif
