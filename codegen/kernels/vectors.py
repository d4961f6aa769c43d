"""The vector type and helpers of the shared kernels: the C prelude printed before them.

accel's units (`codegen/accel`) and the host's generated kernel units
(`codegen/c/kernels_conv2d.py`) print it; the names keep accel's `xa_` prefix.

`xa_v` is a gcc vector of `XA_VL` floats, as wide as the compiling CPU allows
(16 with AVX-512, 8 with AVX, else 4: the library is built with
`-march=native`); loads and stores go through `memcpy` (any alignment, no
aliasing question), `xa_ldn`/`xa_stn` move the first `n` lanes of a partial
vector (one masked load or store with AVX-512), `xa_relu`, `xa_max` and `xa_clip` keep numpy's NaN
(`xa_fmax`: the maximum of NaN-free lanes, one instruction; `xa_any_nan` scans floats);
`xa_ld_span` loads a range of lanes (a masked load with AVX-512), and the
`XA_EVEN`.. `XA_ZIP_HI` masks deinterleave and interleave pairs of vectors
(`__builtin_shuffle`, Winograd's tiles: `conv_winograd.py`). The prelude is guarded, so each accel
function may print it before itself and a unit holds it once.
"""

from __future__ import annotations

PRELUDE = """\
#ifndef XA_PRELUDE
#define XA_PRELUDE
/* accel's vectors: gcc vector extensions, as wide as the compiling CPU allows. */
#if defined(__AVX512F__)
#include <immintrin.h>
#define XA_VL 16
#elif defined(__AVX__)
#define XA_VL 8
#else
#define XA_VL 4
#endif
typedef float xa_v __attribute__((vector_size(XA_VL * sizeof(float))));
typedef int32_t xa_vi __attribute__((vector_size(XA_VL * sizeof(float))));
static inline xa_v xa_ld(const float *p) {
  xa_v v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
static inline void xa_st(float *p, xa_v v) { __builtin_memcpy(p, &v, sizeof v); }
/* The first n (< XA_VL: a partial vector) floats; the other lanes are 0. With AVX-512 one
   masked load or store (the lanes past n are not touched), else a copy. */
static inline xa_v xa_ldn(const float *p, int64_t n) {
  if (n >= XA_VL) return xa_ld(p);
#if defined(__AVX512F__)
  return (xa_v)_mm512_maskz_loadu_ps((__mmask16)((1u << n) - 1u), p);
#else
  xa_v v = {0};
  __builtin_memcpy(&v, p, (size_t)n * sizeof(float));
  return v;
#endif
}
static inline void xa_stn(float *p, xa_v v, int64_t n) {
  if (n >= XA_VL) {
    xa_st(p, v);
    return;
  }
#if defined(__AVX512F__)
  _mm512_mask_storeu_ps(p, (__mmask16)((1u << n) - 1u), (__m512)v);
#else
  /* lane by lane: a memcpy of n floats here trips gcc 12's -Warray-bounds under UBSan */
  float lanes[XA_VL];
  __builtin_memcpy(lanes, &v, sizeof v);
  for (int64_t i = 0; i < n; ++i) p[i] = lanes[i];
#endif
}
static inline xa_v xa_splat(float s) { return (xa_v){0} + s; }
static inline float xa_sum(xa_v v) {
  float lanes[XA_VL], total = 0.0f;
  __builtin_memcpy(lanes, &v, sizeof v);
  for (int i = 0; i < XA_VL; ++i) total += lanes[i];
  return total;
}
/* max(v, 0) lane by lane, a NaN kept (numpy's maximum): lanes <= 0 are cleared (-0 -> +0). */
static inline xa_v xa_relu(xa_v v) { return (xa_v)(~(v <= (xa_v){0}) & (xa_vi)v); }
/* v clamped into [lo, hi] lane by lane (relay's clip): a NaN compares false and stays, a lane
   inside the bounds is kept as it is (-0 too). */
static inline xa_v xa_clip(xa_v v, float lo, float hi) {
  const xa_v l = xa_splat(lo), h = xa_splat(hi);
  const xa_vi below = v < l;
  v = (xa_v)((below & (xa_vi)l) | (~below & (xa_vi)v));
  const xa_vi above = v > h;
  return (xa_v)((above & (xa_vi)h) | (~above & (xa_vi)v));
}
/* Lanes lo <= i < hi of p[i] (0 <= lo, hi <= XA_VL), the others 0; the lanes outside are not
   read, so p may point before or after its array there. */
static inline xa_v xa_ld_span(const float *p, int64_t lo, int64_t hi) {
#if defined(__AVX512F__)
  const uint32_t below = lo > 0 ? (1u << lo) - 1u : 0u;
  const uint32_t upto = hi > 0 ? (hi >= 16 ? 0xffffu : (1u << hi) - 1u) : 0u;
  return (xa_v)_mm512_maskz_loadu_ps((__mmask16)(upto & ~below), p);
#else
  float lanes[XA_VL] = {0};
  for (int64_t i = lo; i < hi; ++i) lanes[i] = p[i];
  return xa_ld(lanes);
#endif
}
/* The lane-wise maximum of a running value r and x, NaN winning (numpy's max). */
static inline xa_v xa_max(xa_v r, xa_v x) {
  const xa_vi take = (x > r) | (x != x);
  return (xa_v)((take & (xa_vi)x) | (~take & (xa_vi)r));
}
/* The lane-wise maximum of r and x where neither holds a NaN (one vmaxps with AVX-512). */
static inline xa_v xa_fmax(xa_v r, xa_v x) {
#if defined(__AVX512F__)
  return (xa_v)_mm512_max_ps((__m512)x, (__m512)r);
#else
  const xa_vi take = x > r;
  return (xa_v)((take & (xa_vi)x) | (~take & (xa_vi)r));
#endif
}
/* Whether any of the n floats at p is a NaN. */
static inline int xa_any_nan(const float *p, int64_t n) {
  xa_vi seen = {0};
  int64_t i = 0;
  for (; i + XA_VL <= n; i += XA_VL) {
    const xa_v v = xa_ld(p + i);
    seen |= v != v;
  }
  if (i < n) {
    const xa_v v = xa_ldn(p + i, n - i); /* the lanes past n are 0 */
    seen |= v != v;
  }
  int found = 0;
  for (int l = 0; l < XA_VL; ++l) found |= seen[l] != 0;
  return found;
}
/* Shuffle masks on pairs of vectors (a, b) = lanes 0 .. 2 * XA_VL - 1: the even and odd lanes,
   the even and odd lanes one pair further, and the interleaving of a and b (low, high half). */
#if XA_VL == 16
#define XA_EVEN {0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30}
#define XA_ODD {1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31}
#define XA_NEXT_EVEN {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16}
#define XA_NEXT_ODD {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,17}
#define XA_ZIP_LO {0,16,1,17,2,18,3,19,4,20,5,21,6,22,7,23}
#define XA_ZIP_HI {8,24,9,25,10,26,11,27,12,28,13,29,14,30,15,31}
#endif
#if XA_VL == 8
#define XA_EVEN {0,2,4,6,8,10,12,14}
#define XA_ODD {1,3,5,7,9,11,13,15}
#define XA_NEXT_EVEN {1,2,3,4,5,6,7,8}
#define XA_NEXT_ODD {1,2,3,4,5,6,7,9}
#define XA_ZIP_LO {0,8,1,9,2,10,3,11}
#define XA_ZIP_HI {4,12,5,13,6,14,7,15}
#endif
#if XA_VL == 4
#define XA_EVEN {0,2,4,6}
#define XA_ODD {1,3,5,7}
#define XA_NEXT_EVEN {1,2,3,4}
#define XA_NEXT_ODD {1,2,3,5}
#define XA_ZIP_LO {0,4,1,5}
#define XA_ZIP_HI {2,6,3,7}
#endif
#endif
"""
"""File-scope C the blocked kernels use; guarded, so every function may print it."""

VL_MAX = 16
"""The widest `XA_VL`: the scratch rows are padded for it."""
