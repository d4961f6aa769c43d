"""Float32 row kernels: softmax, log_softmax and layer norm along any axis, as C.

The tensor is seen as `outer x extent x inner` around the op's axis.
`inner == 1` (the last axis) works on contiguous rows: reductions (maximum,
sums) in `XN_VL`-lane vectors (GCC vector extensions, the width chosen from
the compiler's macros as `gemm.py` does), elementwise passes as plain loops
the compiler vectorizes (calling `vmath.py`'s inline `xv_expf`). `inner > 1`
vectorizes across the inner stride instead: per outer index, chunks of up to
`XN_CHUNK` inner positions keep their running statistics in small arrays and
every pass over the axis is a contiguous loop over the chunk.

- `xn_softmax_f32(outer, extent, inner, x, y, log)`: `m` the row's maximum (NaN
  if the row holds one, as numpy's), `e = exp(x - m)` stored in `y` and summed
  in float (all terms in [0, 1]: no cancellation, relative error at most
  about `(extent / XN_VL + XN_VL) * 2^-24`), then `y = e * (1 / sum)`, or
  `y = (x - m) - log(sum)` for log_softmax. A row holding NaN or +inf, or all
  -inf, is NaN throughout (`x - m` is), as on the interpreter.
- `xn_layer_norm_f32(outer, extent, inner, x, gamma, beta, eps, y)`: the
  corrected two-pass algorithm in float: `m0` the mean, then the sums of
  `d = x - m0` and of `d^2`; `mean = m0 + sum(d) / n` and
  `var = sum(d^2) / n - (sum(d) / n)^2` (the second term removes the first
  pass's rounding error to first order, so `var` has relative error about
  `n / XN_VL * 2^-24` even where the mean is large against the deviation,
  where `E[x^2] - E[x]^2` would cancel). The mean stays two floats, `m0` and
  `sum(d) / n`, and each element is `((x - m0) - sum(d) / n)`: `x - m0` is
  exact near the mean, so a deviation far below the mean's float rounding
  (1000 + 1e-3 noise) keeps its digits. A row whose float statistics are not
  finite (a NaN or ±inf in it, or squares past FLT_MAX) is computed again in
  double, two passes, as the interpreter. `y = ((x - m0) - sum(d) / n) * rstd * gamma + beta`,
  `rstd = 1 / sqrt(var + eps)` in double; `gamma` / `beta` may be NULL
  (`scale` / `center` false).
"""

from __future__ import annotations

PROTOTYPES = (
    "XR_HIDDEN void xn_softmax_f32(int64_t outer, int64_t extent, int64_t inner, "
    "const float *x, float *y, int log);",
    "XR_HIDDEN void xn_layer_norm_f32(int64_t outer, int64_t extent, int64_t inner, "
    "const float *x, const float *gamma, const float *beta, double eps, float *y);",
)
"""The entry points, as `model.h` declares them."""

_HEAD = """\
/* The shared kernel library's float32 row kernels (codegen/kernels/rows.py). */
#if defined(__AVX512F__)
#define XN_VL 16
#elif defined(__AVX2__) || defined(__AVX__)
#define XN_VL 8
#else
#define XN_VL 4 /* NEON, SSE, or the portable fallback */
#endif
#define XN_CHUNK 256
typedef float xn_v __attribute__((vector_size(XN_VL * sizeof(float))));
typedef int32_t xn_vi __attribute__((vector_size(XN_VL * sizeof(float))));
static inline xn_v xn_ld(const float *p) {
  xn_v v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
static inline xn_v xn_splat(float x) { return (xn_v){0} + x; }
static inline float xn_hsum(xn_v v) {
  float lanes[XN_VL], total = 0.0f;
  __builtin_memcpy(lanes, &v, sizeof v);
  for (int i = 0; i < XN_VL; ++i) total += lanes[i];
  return total;
}
static inline int64_t xn_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* The maximum of x[0:n] with NaN winning (numpy); -inf when n == 0. */
static float xn_max(int64_t n, const float *x) {
  xn_v m = xn_splat(-__builtin_inff());
  xn_vi nan = (xn_vi){0};
  int64_t j = 0;
  for (; j + XN_VL <= n; j += XN_VL) {
    const xn_v v = xn_ld(x + j);
    const xn_vi up = v > m;
    m = (xn_v)((up & (xn_vi)v) | (~up & (xn_vi)m));
    nan |= v != v;
  }
  float lanes[XN_VL], r = -__builtin_inff();
  int32_t flags[XN_VL], any = 0;
  __builtin_memcpy(lanes, &m, sizeof m);
  __builtin_memcpy(flags, &nan, sizeof nan);
  for (int i = 0; i < XN_VL; ++i) {
    r = lanes[i] > r ? lanes[i] : r;
    any |= flags[i];
  }
  for (; j < n; ++j) {
    r = x[j] > r ? x[j] : r;
    any |= x[j] != x[j];
  }
  return any ? __builtin_nanf("") : r;
}

/* The float sum of x[0:n] in XN_VL lanes (two vectors), then the lanes and the tail. */
static float xn_sum(int64_t n, const float *x) {
  xn_v a = (xn_v){0}, b = (xn_v){0};
  int64_t j = 0;
  for (; j + 2 * XN_VL <= n; j += 2 * XN_VL) {
    a += xn_ld(x + j);
    b += xn_ld(x + j + XN_VL);
  }
  float total = xn_hsum(a + b);
  for (; j < n; ++j) total += x[j];
  return total;
}

/* The sums of d = x - m and of d * d over x[0:n]. */
static void xn_deviations(int64_t n, const float *x, float m, float *sd, float *sd2) {
  const xn_v mv = xn_splat(m);
  xn_v a = (xn_v){0}, b = (xn_v){0};
  int64_t j = 0;
  for (; j + XN_VL <= n; j += XN_VL) {
    const xn_v d = xn_ld(x + j) - mv;
    a += d;
    b += d * d;
  }
  float s = xn_hsum(a), s2 = xn_hsum(b);
  for (; j < n; ++j) {
    const float d = x[j] - m;
    s += d;
    s2 += d * d;
  }
  *sd = s;
  *sd2 = s2;
}
"""

_SOFTMAX = """\
static void xn_softmax_row(int64_t n, const float *restrict x, float *restrict y, int log) {
  const float m = xn_max(n, x);
  for (int64_t j = 0; j < n; ++j) y[j] = xv_expf(x[j] - m);
  const float total = xn_sum(n, y);
  if (log) {
    const float shift = (float)logf(total);
    for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - m) - shift;
  } else {
    const float scale = 1.0f / total;
    for (int64_t j = 0; j < n; ++j) y[j] *= scale;
  }
}

/* Columns i0 .. i0 + w of one outer slice, the axis at stride `inner`. */
static void xn_softmax_columns(int64_t extent, int64_t inner, int64_t w, const float *restrict x,
                              float *restrict y, int log) {
  float m[XN_CHUNK], s[XN_CHUNK];
  for (int64_t i = 0; i < w; ++i) m[i] = -__builtin_inff();
  for (int64_t j = 0; j < extent; ++j) {
    const float *row = x + j * inner;
    for (int64_t i = 0; i < w; ++i) {
      const float v = row[i];
      m[i] = ((v > m[i]) | (v != v)) ? v : m[i];
    }
  }
  for (int64_t i = 0; i < w; ++i) s[i] = 0.0f;
  for (int64_t j = 0; j < extent; ++j) {
    const float *row = x + j * inner;
    float *out = y + j * inner;
    for (int64_t i = 0; i < w; ++i) {
      const float e = xv_expf(row[i] - m[i]);
      out[i] = e;
      s[i] += e;
    }
  }
  if (log) {
    for (int64_t i = 0; i < w; ++i) s[i] = xv_logf(s[i]);
    for (int64_t j = 0; j < extent; ++j) {
      const float *row = x + j * inner;
      float *out = y + j * inner;
      for (int64_t i = 0; i < w; ++i) out[i] = (row[i] - m[i]) - s[i];
    }
  } else {
    for (int64_t i = 0; i < w; ++i) s[i] = 1.0f / s[i];
    for (int64_t j = 0; j < extent; ++j) {
      float *out = y + j * inner;
      for (int64_t i = 0; i < w; ++i) out[i] *= s[i];
    }
  }
}

void xn_softmax_f32(int64_t outer, int64_t extent, int64_t inner, const float *x, float *y,
                    int log) {
  for (int64_t o = 0; o < outer; ++o) {
    const float *xo = x + o * extent * inner;
    float *yo = y + o * extent * inner;
    if (inner == 1) {
      xn_softmax_row(extent, xo, yo, log);
      continue;
    }
    for (int64_t i0 = 0; i0 < inner; i0 += XN_CHUNK)
      xn_softmax_columns(extent, inner, xn_min(XN_CHUNK, inner - i0), xo + i0, yo + i0, log);
  }
}
"""

_LAYER_NORM = """\
/* The mean (as hi + lo floats) and 1 / sqrt(var + eps) of n values at stride `step`, in
   double (the fallback). */
static void xn_stats_double(int64_t n, int64_t step, const float *x, double eps, float *hi,
                            float *lo, float *rstd) {
  double sum = 0.0, squares = 0.0;
  for (int64_t j = 0; j < n; ++j) sum += (double)x[j * step];
  const double mu = sum / (double)n;
  for (int64_t j = 0; j < n; ++j) {
    const double d = (double)x[j * step] - mu;
    squares += d * d;
  }
  *hi = (float)mu;
  *lo = (float)(mu - (double)*hi);
  *rstd = (float)(1.0 / sqrt(squares / (double)n + eps));
}

/* The row's statistics from the float sums (corrected two-pass): the mean is m0 + *lo; 0 if
   they are not finite. */
static int xn_finish(int64_t n, float m0, float sd, float sd2, double eps, float *lo,
                     float *rstd) {
  const float inv = 1.0f / (float)n, shift = sd * inv;
  float var = sd2 * inv - shift * shift;
  var = var < 0.0f ? 0.0f : var;
  *lo = shift;
  *rstd = (float)(1.0 / sqrt((double)var + eps));
  return m0 - m0 == 0.0f && var - var == 0.0f && sd2 - sd2 == 0.0f;
}

/* y = ((x - hi) - lo) * rstd * gamma + beta: x - hi is exact where x is near the mean, so
   the mean's rounding to float does not reach a small deviation. */
static void xn_normalize(int64_t n, const float *restrict x, const float *restrict gamma,
                         const float *restrict beta, float hi, float lo, float rstd,
                         float *restrict y) {
  if (gamma && beta) {
    for (int64_t j = 0; j < n; ++j) y[j] = ((x[j] - hi) - lo) * rstd * gamma[j] + beta[j];
  } else if (gamma) {
    for (int64_t j = 0; j < n; ++j) y[j] = ((x[j] - hi) - lo) * rstd * gamma[j];
  } else if (beta) {
    for (int64_t j = 0; j < n; ++j) y[j] = ((x[j] - hi) - lo) * rstd + beta[j];
  } else {
    for (int64_t j = 0; j < n; ++j) y[j] = ((x[j] - hi) - lo) * rstd;
  }
}

static void xn_layer_norm_columns(int64_t extent, int64_t inner, int64_t w,
                                  const float *restrict x, const float *restrict gamma,
                                  const float *restrict beta, double eps, float *restrict y) {
  float m[XN_CHUNK], s[XN_CHUNK], s2[XN_CHUNK]; /* then: mean hi, 1 / sqrt(var + eps), lo */
  for (int64_t i = 0; i < w; ++i) s[i] = 0.0f;
  for (int64_t j = 0; j < extent; ++j)
    for (int64_t i = 0; i < w; ++i) s[i] += x[j * inner + i];
  const float inv = 1.0f / (float)extent;
  for (int64_t i = 0; i < w; ++i) {
    m[i] = s[i] * inv;
    s[i] = 0.0f;
    s2[i] = 0.0f;
  }
  for (int64_t j = 0; j < extent; ++j)
    for (int64_t i = 0; i < w; ++i) {
      const float d = x[j * inner + i] - m[i];
      s[i] += d;
      s2[i] += d * d;
    }
  for (int64_t i = 0; i < w; ++i) {
    float hi = m[i], lo, rstd;
    if (!xn_finish(extent, hi, s[i], s2[i], eps, &lo, &rstd))
      xn_stats_double(extent, inner, x + i, eps, &hi, &lo, &rstd);
    m[i] = hi;
    s[i] = rstd;
    s2[i] = lo;
  }
  for (int64_t j = 0; j < extent; ++j) {
    const float g = gamma ? gamma[j] : 1.0f, b = beta ? beta[j] : 0.0f;
    const float *row = x + j * inner;
    float *out = y + j * inner;
    for (int64_t i = 0; i < w; ++i) out[i] = ((row[i] - m[i]) - s2[i]) * s[i] * g + b;
  }
}

void xn_layer_norm_f32(int64_t outer, int64_t extent, int64_t inner, const float *x,
                       const float *gamma, const float *beta, double eps, float *y) {
  for (int64_t o = 0; o < outer; ++o) {
    const float *xo = x + o * extent * inner;
    float *yo = y + o * extent * inner;
    if (inner != 1) {
      for (int64_t i0 = 0; i0 < inner; i0 += XN_CHUNK)
        xn_layer_norm_columns(extent, inner, xn_min(XN_CHUNK, inner - i0), xo + i0, gamma, beta,
                              eps, yo + i0);
      continue;
    }
    float hi = xn_sum(extent, xo) / (float)extent, sd, sd2, lo, rstd;
    xn_deviations(extent, xo, hi, &sd, &sd2);
    if (!xn_finish(extent, hi, sd, sd2, eps, &lo, &rstd))
      xn_stats_double(extent, 1, xo, eps, &hi, &lo, &rstd);
    xn_normalize(extent, xo, gamma, beta, hi, lo, rstd, yo);
  }
}
"""


def source() -> str:
    """The library unit's C (after `#include "model.h"`, which holds vmath's functions)."""
    return _HEAD + _SOFTMAX + _LAYER_NORM
