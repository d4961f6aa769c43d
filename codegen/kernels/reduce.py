"""Float32 reductions (`sum`, `mean`, `prod`, `max`, `min`) over one block of axes, as C.

`xs_reduce_f32(kind, outer, extent, inner, x, y)` sets
`y[o, i] = reduce_j x[o, j, i]` for `o < outer`, `j < extent`, `i < inner`
(`kind`: `XS_SUM`, `XS_MEAN`, `XS_PROD`, `XS_MAX`, `XS_MIN`, the constants in
`KINDS`): any reduction whose reduced axes are adjacent once the unit dims are
dropped (`sum` over the last axes, over H and W, over axis 1, ...). The host
printer (`codegen/c/kernels_reduce.py`) uses it on float32 and keeps its loops
for the other cases.

`inner == 1` reduces contiguous rows in `XS_VL` lanes; `inner > 1` keeps one
accumulator per inner position (chunks of `XS_CHUNK`) and adds whole rows of
the axis, a contiguous loop the compiler vectorizes. Sums, means and products
accumulate in double, as the interpreter (numpy's float64), here at no cost
worth a float accumulator: a reduction reads each element once and is bound by
memory, and converting lanes to double keeps it vectorized. The mean divides
the double sum by the count, so an empty axis gives 0 / 0 = NaN; an empty sum
is 0, an empty product 1. `max` / `min` compare in float (exact) with NaN
winning (numpy); over an empty axis they are -inf / +inf (docs/semantics.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

KINDS: Mapping[str, int] = MappingProxyType(
    {"relay.sum": 0, "relay.mean": 1, "relay.prod": 2, "relay.max": 3, "relay.min": 4}
)
"""The reductions the kernel does, by relay op name: its `kind` argument."""

PROTOTYPE = (
    "XR_HIDDEN void xs_reduce_f32(int kind, int64_t outer, int64_t extent, int64_t inner, "
    "const float *x, float *y)"
)
"""The entry point, as `model.h` declares it."""

_SOURCE = """\
/* The shared kernel library's float32 reductions (codegen/kernels/reduce.py). */
#if defined(__AVX512F__)
#define XS_VL 16
#elif defined(__AVX2__) || defined(__AVX__)
#define XS_VL 8
#else
#define XS_VL 4
#endif
#define XS_CHUNK 512
enum { XS_SUM, XS_MEAN, XS_PROD, XS_MAX, XS_MIN };
typedef float xs_v __attribute__((vector_size(XS_VL * sizeof(float))));
typedef int32_t xs_vi __attribute__((vector_size(XS_VL * sizeof(float))));

/* Sum (or product) of x[0:n] in double, XS_VL lanes, then the lanes and the tail. */
static double xs_row_sum(int64_t n, const float *restrict x, int product) {
  double acc[XS_VL];
  int64_t j = 0;
  if (product) {
    double total = 1.0;
    for (int l = 0; l < XS_VL; ++l) acc[l] = 1.0;
    for (; j + XS_VL <= n; j += XS_VL)
      for (int l = 0; l < XS_VL; ++l) acc[l] *= (double)x[j + l];
    for (int l = 0; l < XS_VL; ++l) total *= acc[l];
    for (; j < n; ++j) total *= (double)x[j];
    return total;
  }
  double total = 0.0;
  for (int l = 0; l < XS_VL; ++l) acc[l] = 0.0;
  for (; j + XS_VL <= n; j += XS_VL)
    for (int l = 0; l < XS_VL; ++l) acc[l] += (double)x[j + l];
  for (int l = 0; l < XS_VL; ++l) total += acc[l];
  for (; j < n; ++j) total += (double)x[j];
  return total;
}

/* Maximum (max != 0) or minimum of x[0:n], NaN winning; -inf / +inf when empty. */
static float xs_row_extreme(int64_t n, const float *restrict x, int max) {
  const float start = max ? -__builtin_inff() : __builtin_inff();
  xs_v best = (xs_v){0} + start;
  xs_vi nan = (xs_vi){0};
  int64_t j = 0;
  for (; j + XS_VL <= n; j += XS_VL) {
    xs_v v;
    __builtin_memcpy(&v, x + j, sizeof v);
    const xs_vi wins = max ? v > best : v < best; /* the loop is unswitched on max */
    best = (xs_v)((wins & (xs_vi)v) | (~wins & (xs_vi)best));
    nan |= v != v;
  }
  float lanes[XS_VL], r = start;
  int32_t flags[XS_VL], any = 0;
  __builtin_memcpy(lanes, &best, sizeof best);
  __builtin_memcpy(flags, &nan, sizeof nan);
  for (int l = 0; l < XS_VL; ++l) {
    r = (max ? lanes[l] > r : lanes[l] < r) ? lanes[l] : r;
    any |= flags[l];
  }
  for (; j < n; ++j) {
    r = (max ? x[j] > r : x[j] < r) ? x[j] : r;
    any |= x[j] != x[j];
  }
  return any ? __builtin_nanf("") : r;
}

/* Columns i0 .. i0 + w of one outer slice: rows of the axis at stride `inner`. */
static void xs_columns(int kind, int64_t extent, int64_t inner, int64_t w, const float *restrict x,
                       float *restrict y) {
  if (kind == XS_MAX || kind == XS_MIN) {
    const float start = kind == XS_MAX ? -__builtin_inff() : __builtin_inff();
    for (int64_t i = 0; i < w; ++i) y[i] = start;
    for (int64_t j = 0; j < extent; ++j) {
      const float *row = x + j * inner;
      if (kind == XS_MAX) {
        for (int64_t i = 0; i < w; ++i) {
          const float v = row[i];
          y[i] = ((v > y[i]) | (v != v)) ? v : y[i];
        }
      } else {
        for (int64_t i = 0; i < w; ++i) {
          const float v = row[i];
          y[i] = ((v < y[i]) | (v != v)) ? v : y[i];
        }
      }
    }
    return;
  }
  double acc[XS_CHUNK];
  const double start = kind == XS_PROD ? 1.0 : 0.0;
  for (int64_t i = 0; i < w; ++i) acc[i] = start;
  for (int64_t j = 0; j < extent; ++j) {
    const float *row = x + j * inner;
    if (kind == XS_PROD) {
      for (int64_t i = 0; i < w; ++i) acc[i] *= (double)row[i];
    } else {
      for (int64_t i = 0; i < w; ++i) acc[i] += (double)row[i];
    }
  }
  if (kind == XS_MEAN) {
    for (int64_t i = 0; i < w; ++i) y[i] = (float)(acc[i] / (double)extent);
  } else {
    for (int64_t i = 0; i < w; ++i) y[i] = (float)acc[i];
  }
}

void xs_reduce_f32(int kind, int64_t outer, int64_t extent, int64_t inner, const float *x,
                   float *y) {
  for (int64_t o = 0; o < outer; ++o) {
    const float *xo = x + o * extent * inner;
    float *yo = y + o * inner;
    if (inner == 1) {
      if (kind == XS_MAX || kind == XS_MIN) {
        *yo = xs_row_extreme(extent, xo, kind == XS_MAX);
      } else {
        const double total = xs_row_sum(extent, xo, kind == XS_PROD);
        *yo = (float)(kind == XS_MEAN ? total / (double)extent : total);
      }
      continue;
    }
    for (int64_t i0 = 0; i0 < inner; i0 += XS_CHUNK) {
      const int64_t w = inner - i0 < XS_CHUNK ? inner - i0 : XS_CHUNK;
      xs_columns(kind, extent, inner, w, xo + i0, yo + i0);
    }
  }
}
"""


def source() -> str:
    """The library unit's C (after `#include "model.h"`)."""
    return _SOURCE
