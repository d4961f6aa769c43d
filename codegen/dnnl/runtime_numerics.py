"""The C loops through which the dnnl backend keeps relay's numerics where oneDNN's differ.

oneDNN's relu (eltwise op and post-op) gives 0 for NaN (`docs/semantics.md`);
`Primitive.after` calls these after the primitive: `xd_relu` (a relu post-op, in place),
`xd_clip` (a clip post-op, in place), `xd_keep_nan` (after oneDNN's eltwise relu: the
source's NaN back), `xd_softmax_nan` (a softmax or log_softmax row where oneDNN gave a NaN
is NaN throughout) and `xd_layer_norm_wide` (a layer norm row whose squared deviations may
overflow oneDNN's float accumulators is computed again in double). dnnl.c is compiled at
-O0 (glue around oneDNN calls); these touch every element, so GCC compiles them at -O3
(`XD_LOOP`; other compilers at the unit's level).
"""

from __future__ import annotations

NUMERICS = r"""
/* relay's numerics where oneDNN's differ (docs/semantics.md), the loops compiled at -O3. */
#if defined(__GNUC__) && !defined(__clang__)
#define XD_LOOP __attribute__((optimize("O3")))
#else
#define XD_LOOP
#endif

/* relu keeping NaN, in place: v <= 0 ? 0 : v (so -0 becomes +0). */
XD_LOOP static inline void xd_relu(float *dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = dst[i] <= 0.0f ? 0.0f : dst[i];
  }
}

/* Whether each of n floats is finite (no NaN, no infinity): its exponent bits not all set. */
XD_LOOP static inline int xd_finite(const float *x, int64_t n) {
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits;
    memcpy(&bits, &x[i], sizeof bits);
    bad |= (uint32_t)((bits & 0x7f800000u) == 0x7f800000u);
  }
  return bad == 0;
}

/* A relu post-op primitive k did not run: xrelay's, keeping NaN. */
static inline void xd_relu_after(const xd_state *s, int k, float *dst, int64_t n) {
  if (!xd_fused(s, k)) {
    xd_relu(dst, n);
  }
}

/* clip keeping NaN and -0.0 inside the bounds, in place: v < lo ? lo : v > hi ? hi : v. */
XD_LOOP static inline void xd_clip(float *dst, int64_t n, float lo, float hi) {
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = dst[i] < lo ? lo : dst[i] > hi ? hi : dst[i];
  }
}

/* After oneDNN's relu of src into dst: each NaN of src copied back. */
XD_LOOP static inline void xd_keep_nan(float *restrict dst, const float *restrict src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = src[i] != src[i] ? src[i] : dst[i];
  }
}

/* After oneDNN's softmax or log softmax of rows of n: a row where it gave a NaN is NaN
 * throughout, as relay's (a NaN, +inf or a row of -inf makes relay's `x - max` NaN, so its
 * sum; oneDNN's only where that element is). */
XD_LOOP static inline void xd_softmax_nan(float *dst, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    float *row = dst + r * n;
    int nan = 0;
    for (int64_t i = 0; i < n; ++i) {
      nan |= row[i] != row[i];
    }
    if (nan) {
      for (int64_t i = 0; i < n; ++i) {
        row[i] = NAN;
      }
    }
  }
}

/* After oneDNN's layer norm of rows of n: a row holding a value so large that its squared
 * deviations may overflow float (oneDNN's accumulators) is computed again in double, as relay's
 * (two passes: the mean, then the mean squared deviation). gamma / beta NULL when unused. */
XD_LOOP static inline void xd_layer_norm_wide(float *restrict dst, const float *restrict src,
                                              const float *gamma, const float *beta,
                                              int64_t rows, int64_t n, double epsilon) {
  const float limit = sqrtf(FLT_MAX / (float)n) * 0.25f;
  for (int64_t r = 0; r < rows; ++r) {
    const float *x = src + r * n;
    int wide = 0;
    for (int64_t i = 0; i < n; ++i) {
      wide |= !(fabsf(x[i]) <= limit);
    }
    if (!wide) {
      continue;
    }
    double mean = 0.0, var = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      mean += x[i];
    }
    mean /= (double)n;
    for (int64_t i = 0; i < n; ++i) {
      var += (x[i] - mean) * (x[i] - mean);
    }
    double inv = 1.0 / sqrt(var / (double)n + epsilon);
    for (int64_t i = 0; i < n; ++i) {
      double v = (x[i] - mean) * inv;
      v = gamma != NULL ? v * gamma[i] : v;
      dst[r * n + i] = (float)(beta != NULL ? v + beta[i] : v);
    }
  }
}
"""
"""The helpers (part of `runtime.HELPERS`)."""
