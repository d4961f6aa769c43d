"""Float32 `exp`, `log`, `tanh`, `sigmoid`, `erf` and `gelu_erf` that GCC vectorizes, as C.

`HEADER` defines them as branch-free `static inline float xv_<name>f(float)`
(selects, bit casts through `memcpy`, no calls, no tables), so a loop calling
them in a unit compiled with `-O3` and the machine's ISA is vectorized to the
full vector width (AVX-512, AVX2, NEON, SSE: whatever the compiler targets;
the same text everywhere). The library unit (`source`) holds array routines
`xv_<name>_f32(n, x, y)` over them (the tests measure them; kernels may call them).

Methods (our own fits; coefficients from least squares on Chebyshev nodes):
- `exp`: `x = k ln2 + r`, `|r| <= ln2 / 2`, `k` rounded by adding `1.5 * 2^23`;
  `e^r` by its degree-7 Taylor polynomial; `2^k` applied as two normal scales
  `2^(k/2) * 2^(k - k/2)` so subnormal results are rounded once. `x` is clamped
  to [-110, 89] first (beyond: +inf, +0).
- `log`: `x = 2^e * m`, `m` in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^23
  first); `log m = 2 atanh(s)`, `s = (m - 1) / (m + 1)`, odd series to `s^9`.
- `tanh`: `|x| < 0.625`: `x + x^3 P(x^2)` (degree 5); else
  `sign(x) (1 - 2 / (e^(2|x|) + 1))`.
- `sigmoid`: `e = exp(-|x|)`; `1 / (1 + e)` for `x >= 0`, `e / (1 + e)` below
  (no cancellation, no overflow).
- `erf`: `|x| < 1`: `x P(x^2)` (degree 6); else `sign(x) (1 - exp(Q(|x|)))`, `Q` a
  degree-8 fit of `log erfc` on [1, 4] (`|x|` clamped to 4: erf is 1 in float32
  from 3.92).
- `gelu_erf(x) = x * 0.5 * (1 + erf(x / sqrt(2)))`.

Special values as numpy's float32 functions: NaN in, NaN out; `exp(-inf) = 0`,
`exp(inf) = inf`, overflow to inf above 88.72, gradual underflow;
`log(0) = -inf`, `log(x < 0) = NaN`, `log(inf) = inf`; `tanh(±inf) = ±1`,
`erf(±inf) = ±1`, `sigmoid(-inf) = 0`, `sigmoid(inf) = 1`; `tanh`, `erf` keep
`-0.0`.

Maximum error, in units in the last place of the float64 numpy value
(`math.erf` for erf) rounded to float32 (below the smallest normal: of the
smallest normal), over every 97th float32 bit pattern of both signs (all
exponents, subnormals included), with and without fused multiply-adds: exp
0.92 (1.18 without FMA), log 1.90, tanh 1.34, sigmoid 2.63, erf 2.49.
`MAX_ULP` (documented in docs/semantics.md) rounds these up; `tests/test_vmath.py`
checks it over every 1009th pattern. `gelu_erf` is within 4 ulps of the larger
of `|x|` and its result (for negative `x`, `1 + erf` cancels).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

FUNCTIONS = ("exp", "log", "tanh", "sigmoid", "erf", "gelu_erf")
"""The functions, as `xv_<name>f` (inline) and `xv_<name>_f32` (array routine)."""

MAX_ULP: Mapping[str, float] = MappingProxyType(
    {"exp": 1.5, "log": 2.0, "tanh": 2.0, "sigmoid": 3.0, "erf": 3.0}
)
"""The documented maximum error of each function, in float32 ulps (test_vmath checks it)."""

HEADER = """\
/* Vectorizable float32 math (codegen/kernels/vmath.py): branch-free, inlined into loops. */
static inline uint32_t xv_bits(float x) {
  uint32_t u;
  __builtin_memcpy(&u, &x, sizeof u);
  return u;
}
static inline float xv_float(uint32_t u) {
  float x;
  __builtin_memcpy(&x, &u, sizeof x);
  return x;
}
static inline float xv_copysign(float magnitude, float sign) {
  return xv_float((xv_bits(magnitude) & 0x7fffffffu) | (xv_bits(sign) & 0x80000000u));
}
static inline float xv_expf(float x) {
  float c = x < -110.0f ? -110.0f : x; /* NaN stays */
  c = c > 89.0f ? 89.0f : c;
  const float shifter = 12582912.0f; /* 1.5 * 2^23: the sum is rounded to an integer */
  const float t = c * 1.44269504088896341f + shifter;
  const float k = t - shifter;
  const int32_t ki = (int32_t)(xv_bits(t) - xv_bits(shifter));
  float r = c - k * 0.693145751953125f; /* ln2's leading bits: k * them is exact */
  r = r - k * 1.428606765330187045e-06f;
  const float p =
      1.0f + r * (1.0f + r * (0.5f + r * (1.66666667e-1f + r * (4.16666667e-2f +
      r * (8.33333333e-3f + r * (1.38888889e-3f + r * 1.98412698e-4f))))));
  const int32_t k1 = ki / 2;
  const float s1 = xv_float((uint32_t)(k1 + 127) << 23);
  const float s2 = xv_float((uint32_t)(ki - k1 + 127) << 23);
  return p * s1 * s2;
}
static inline float xv_logf(float x) {
  const int small = x < 1.17549435e-38f; /* subnormal, zero or negative */
  const float xs = x * (small ? 8388608.0f : 1.0f); /* no arithmetic in a select's arm */
  const uint32_t t = xv_bits(xs) - 0x3f3504f3u; /* bits of sqrt(1/2) */
  const int32_t e = (int32_t)t >> 23;
  const float m = xv_float(xv_bits(xs) - ((uint32_t)e << 23)); /* in [sqrt(1/2), sqrt(2)) */
  const float f = m - 1.0f;
  const float s = f / (2.0f + f);
  const float z = s * s;
  const float ef = (float)(e - (small ? 23 : 0));
  const float tail = s * z * (6.66666667e-1f + z * (4.0e-1f + z * (2.85714286e-1f +
                     z * 2.22222222e-1f)));
  const float r = ef * 0.693145751953125f + (2.0f * s + (tail + ef * 1.428606765330187045e-06f));
  /* 0, negatives, +inf, NaN; blended through bits: a select of the result would let GCC
     compute r in a branch (dead for the special inputs), which does not vectorize */
  const uint32_t special = -(uint32_t)((x <= 0.0f) | (x == __builtin_inff()) | (x != x));
  const float value = x == 0.0f ? -__builtin_inff() : (x < 0.0f ? __builtin_nanf("") : x);
  return xv_float((xv_bits(r) & ~special) | (xv_bits(value) & special));
}
static inline float xv_tanhf(float x) {
  const float a = xv_float(xv_bits(x) & 0x7fffffffu);
  const float z = x * x;
  const float odd = x + x * z * (-3.33333310e-1f + z * (1.33332125e-1f +
                      z * (-5.39474550e-2f + z * (2.17040041e-2f + z * (-8.18466990e-3f +
                      z * 2.14899094e-3f)))));
  const float small = xv_copysign(odd, x); /* -0.0 stays -0.0 */
  const float e = xv_expf(2.0f * a);
  const float big = xv_copysign(1.0f - 2.0f / (e + 1.0f), x);
  return a < 0.625f ? small : big;
}
static inline float xv_sigmoidf(float x) {
  const float e = xv_expf(x < 0.0f ? x : -x);
  const float r = 1.0f / (1.0f + e);
  return x < 0.0f ? e * r : r;
}
static inline float xv_erff(float x) {
  float a = xv_float(xv_bits(x) & 0x7fffffffu);
  const float z = x * x;
  const float small = x * (1.12837917e+0f + z * (-3.76126288e-1f + z * (1.12836124e-1f +
                      z * (-2.68548083e-2f + z * (5.19005321e-3f + z * (-8.02435137e-4f +
                      z * 7.89820214e-5f))))));
  const float c = (a > 4.0f ? 4.0f : a) - 2.5f; /* NaN stays */
  const float q = -7.80681528e+0f + c * (-5.35268068e+0f + c * (-9.43893640e-1f +
                  c * (-1.08585170e-2f + c * (2.16516031e-3f + c * (-4.20144568e-4f +
                  c * (7.73944255e-5f + c * (-1.33093904e-5f + c * 1.61406166e-6f)))))));
  const float big = xv_copysign(1.0f - xv_expf(q), x);
  return a < 1.0f ? small : big;
}
static inline float xv_gelu_erff(float x) {
  return x * 0.5f * (1.0f + xv_erff(x * 0.707106781186547524f));
}
"""
"""The inline functions, for `model.h` (after `<stdint.h>`)."""

PROTOTYPES = tuple(
    f"void xv_{name}_f32(int64_t n, const float *x, float *y);" for name in FUNCTIONS
)
"""The array routines' declarations."""


def source() -> str:
    """The library unit: `xv_<name>_f32(n, x, y)` sets `y[i] = xv_<name>f(x[i])`."""
    return "".join(
        f"void xv_{name}_f32(int64_t n, const float *restrict x, float *restrict y) {{\n"
        f"  for (int64_t i = 0; i < n; ++i) y[i] = xv_{name}f(x[i]);\n"
        "}\n"
        for name in FUNCTIONS
    )


def standalone() -> str:
    """One C file with the functions and the array routines, for tests and benchmarks
    (compiled on its own, the routines exported: the include `model.h` would give)."""
    export = "#pragma GCC visibility push(default)\n"
    return f"#include <stdint.h>\n{HEADER}\n{export}{source()}#pragma GCC visibility pop\n"
