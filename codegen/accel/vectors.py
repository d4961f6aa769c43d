"""accel's vector type and helpers: the C prelude every accel function is printed after.

`xa_v` is a gcc vector of `XA_VL` floats, as wide as the compiling CPU allows
(16 with AVX-512, 8 with AVX, else 4: the library is built with
`-march=native`); loads and stores go through `memcpy` (any alignment, no
aliasing question), `xa_ldn`/`xa_stn` move the first `n` lanes of a partial
vector, `xa_relu` keeps numpy's NaN. The prelude is guarded, so each accel
function may print it before itself and a unit holds it once.
"""

from __future__ import annotations

PRELUDE = """\
#ifndef XA_PRELUDE
#define XA_PRELUDE
/* accel's vectors: gcc vector extensions, as wide as the compiling CPU allows. */
#if defined(__AVX512F__)
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
/* The first n (< XA_VL: a partial vector) floats; the other lanes are 0. */
static inline xa_v xa_ldn(const float *p, int64_t n) {
  if (n >= XA_VL) return xa_ld(p);
  xa_v v = {0};
  __builtin_memcpy(&v, p, (size_t)n * sizeof(float));
  return v;
}
static inline void xa_stn(float *p, xa_v v, int64_t n) {
  if (n >= XA_VL) {
    xa_st(p, v);
    return;
  }
  __builtin_memcpy(p, &v, (size_t)n * sizeof(float));
}
static inline xa_v xa_splat(float s) { return (xa_v){0} + s; }
static inline float xa_sum(xa_v v) {
  float lanes[XA_VL], total = 0.0f;
  __builtin_memcpy(lanes, &v, sizeof v);
  for (int i = 0; i < XA_VL; ++i) total += lanes[i];
  return total;
}
/* max(v, 0) lane by lane, a NaN kept (numpy's maximum): lanes below 0 are cleared. */
static inline xa_v xa_relu(xa_v v) { return (xa_v)(~(v < (xa_v){0}) & (xa_vi)v); }
#endif
"""
"""File-scope C the blocked kernels use; guarded, so every accel function may print it."""

VL_MAX = 16
"""The widest `XA_VL`: the scratch rows are padded for it."""
