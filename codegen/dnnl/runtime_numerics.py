"""The C loops through which the dnnl backend keeps relay's numerics where oneDNN's differ.

oneDNN's relu (eltwise op and post-op) gives 0 for NaN, and its max pooling
loses NaN and starts from -FLT_MAX (`docs/semantics.md`); `Primitive.after`
calls these after the primitive: `xd_relu` (a relu post-op, in place), `xd_clip` (a clip
post-op, in place),
`xd_keep_nan` (after oneDNN's eltwise relu: the source's NaN back) and
`xd_special` (whether a max pool's source holds a NaN or -inf, when relay's
pool loop then recomputes the result). dnnl.c is compiled at -O0 (glue around
oneDNN calls); these touch every element, so GCC compiles them at -O3
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

/* Whether src holds a NaN or -inf. */
XD_LOOP static inline int xd_special(const float *src, int64_t n) {
  int special = 0;
  for (int64_t i = 0; i < n; ++i) {
    special |= (src[i] != src[i]) | (src[i] < -FLT_MAX);
  }
  return special;
}
"""
"""The helpers (part of `runtime.HELPERS`)."""
