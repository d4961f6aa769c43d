"""The shared float32 GEMM: packing and a register-blocked, vectorized micro-kernel, as C.

`xg_sgemm(m, n, k, a, ars, acs, b, brs, bcs, c, ldc)` sets
`C[i, j] = sum_q A[i, q] * B[q, j]` for `i < m`, `j < n`, where
`A[i, q] = a[i * ars + q * acs]`, `B[q, j] = b[q * brs + j * bcs]` and
`C[i, j] = c[i * ldc + j]`: any strides, so the callers express transposes
(`nn.dense`'s weight is `B` with `brs = 1, bcs = k`) and batches (one call per
batch, base pointers moved) without copies. `C` must not overlap `A` or `B`.

Blocking (BLIS's loop order): `n` in blocks of `XG_NC` columns, `k` in blocks
of `XG_KC`, `m` in blocks of `XG_MC` rows. Each `XG_KC x XG_NC` block of `B`
is packed into panels of `XG_NR` columns (`q`-major, so a panel row is two
contiguous vectors), each `XG_MC x XG_KC` block of `A` into panels of `XG_MR`
rows; rows and columns past the edge are packed as zeros, so the micro-kernel
always computes a full `XG_MR x XG_NR` tile (the edge tiles are stored through
a scratch tile, their own rows and columns only). The micro-kernel keeps the
tile in `2 * XG_MR` vector accumulators (12 registers of the 16 or 32 the ISA
has), and per step of `q` loads two vectors of `B`, broadcasts `XG_MR`
elements of `A` and does `2 * XG_MR` multiply-adds (fused: the unit is built
with `-ffp-contract=fast`).

A `B` that never changes (a constant weight) is packed once instead, in the order the
blocks are read, by `xg_sgemm_pp`'s first call into a buffer the caller keeps
(`packed_floats`): each later call skips packing `B` (`k x n` floats read and written:
a third of the MLP's 784x512 layer at batch 64).

An `A` that never changes (a convolution's weight, `out = weight @ data`) is packed once
too, every row of it, by `xg_sgemm_pa`'s first call (`packed_a_floats`); a call computes
rows `row0 ..` of it (a thread's share, `row0` a multiple of `MR`) reading their panels.
Packing A is a strided, float-at-a-time copy: repacking SqueezeNet's 1000 x 512 conv weight
per call cost about a fifth of that layer's time.

One or two rows with `A`'s rows and `B`'s columns contiguous (`nn.dense` at
batch 1) take `xg_dots` instead: dot products over vector lanes, 4 columns at a
time, the weights read once per row and not packed (packing would read them
twice and the tile's 6 rows would be mostly padding).

Epilogue: `xg_sgemm_ep(..., bias, res, ldr, act, lo, hi)` also applies, in order,
`+ bias[j]` (one float per column, or NULL), `+ res[i * ldr + j]` (or NULL) and an
activation (`ACTIVATIONS`: relu, clip to `[lo, hi]`, GELU in erf or tanh form, sigmoid,
tanh) to each tile of C right after its last `k` block is stored, while the tile is in L1:
the host's fused `bias_add`/`add`/activation chains (`codegen/c/epilogue.py`). Each step
rounds to float as the unfused ops would; erf, tanh and sigmoid are the vector math
library's (`vmath.py`: the unit requires it), branch-free, so the loops vectorize. `res` must
not overlap C (a later `k` block would read a partial sum as the residual).

Numerics: every `C[i, j]` is one float32 accumulator running over `q` in
order within a `k` block, added to `C` between blocks (the first block
stores): the recursive float32 sum of the `k` products, whose error is at most
about `k * 2^-24 * sum_q |A[i, q] * B[q, j]|` (docs/semantics.md); `xg_dots`
sums `XG_VL` interleaved partial sums, then the lanes and the tail, within
the same bound.

Vectors: GCC vector extensions of `XG_VL` floats, chosen from the compiler's
predefined macros when the unit is compiled: 16 with AVX-512 (`__AVX512F__`),
8 with AVX2 or AVX, else 4 (NEON's and SSE's 128 bits; on a target without
SIMD, GCC lowers the 4-lane vectors to scalar code: the portable fallback).
The packing buffers are thread-local (no allocation per call; a model may run
on several threads at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the host package imports this library (`codegen/kernels/__init__.py`)
    from xrelay.codegen.c.writer import CWriter

MR = 6
"""Rows of the micro-kernel's tile."""

PROTOTYPE = (
    "XR_HIDDEN void xg_sgemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars, "
    "int64_t acs, const float *b, int64_t brs, int64_t bcs, float *c, int64_t ldc)"
)
"""The entry point, as `model.h` declares it."""

PROTOTYPE_EP = (
    "XR_HIDDEN void xg_sgemm_ep(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars, "
    "int64_t acs, const float *b, int64_t brs, int64_t bcs, float *c, int64_t ldc, "
    "const float *bias, const float *res, int64_t ldr, int act, float lo, float hi)"
)
"""The entry point with an epilogue (see the module docstring), as `model.h` declares it."""

PROTOTYPE_PP = (
    "XR_HIDDEN void xg_sgemm_pp(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars, "
    "int64_t acs, const float *b, int64_t brs, int64_t bcs, float *packed, int *state, "
    "float *c, int64_t ldc, const float *bias, const float *res, int64_t ldr, int act, "
    "float lo, float hi)"
)
"""The entry point for a constant `B`, packed once into `packed`, as `model.h` declares it."""

PROTOTYPE_PA = (
    "XR_HIDDEN void xg_sgemm_pa(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars, "
    "int64_t acs, int64_t row0, int64_t mall, const float *b, int64_t brs, int64_t bcs, "
    "float *packed, int *state, float *c, int64_t ldc, const float *bias, const float *res, "
    "int64_t ldr, int act, float lo, float hi)"
)
"""The entry point for rows of a constant `A`, all of it packed once into `packed`, as
`model.h` declares it."""

NC, NR_MAX = 512, 32
"""Columns per block of `B` (`XG_NC`); the widest panel (`XG_NR` with AVX-512)."""


def packed_floats(n: int, k: int) -> int:
    """Floats `xg_sgemm_pp`'s `packed` buffer needs for a `k x n` B, on any vector width."""
    blocks = -(-n // NC)
    return k * (n + NR_MAX * blocks)


def packed_a_floats(m: int, k: int) -> int:
    """Floats `xg_sgemm_pa`'s `packed` buffer needs for an `m x k` A: every row panel of
    `MR` rows, per block of `k`."""
    return -(-m // MR) * MR * k


@dataclass(frozen=True)
class CallSitePacking:
    """A call site's packed constant weight: its `static` declarations and the C arguments
    (`buffer`, `state`) the GEMM entry points take for it."""

    declarations: tuple[str, ...]
    buffer: str
    state: str
    """A pointer to the packing state (one flag, or the first of one per group)."""

    def declare(self, w: CWriter) -> None:
        """Print the declarations at the call site."""
        for line in self.declarations:
            w.line(line)

    def parameters(self) -> tuple[tuple[str, str, str], ...]:
        """The routine parameters that receive them: `(C type, name, argument)`."""
        return (("float *", "packed", self.buffer), ("int *", "state", self.state))


def call_site_packing(buffer: str, floats: int, groups: int | None = None) -> CallSitePacking:
    """The call site's packed constant weight `buffer` (`floats` floats, 64-byte aligned)
    and its packing state `xp_state` (one flag, or one per group with `groups`).

    They belong to the call site, never to a routine: a routine is shared by every call
    site of its shape (`routine.py`), and two of them with different constant weights
    would read one packed weight."""
    flags = "xp_state" if groups is None else f"xp_state[{groups}]"
    return CallSitePacking(
        (f"static float {buffer}[{floats}] __attribute__((aligned(64)));", f"static int {flags};"),
        buffer,
        "&xp_state" if groups is None else "xp_state",
    )


ACTIVATIONS: dict[str | None, int] = {
    None: 0,
    "relu": 1,
    "clip": 2,
    "gelu_erf": 3,
    "gelu_tanh": 4,
    "sigmoid": 5,
    "tanh": 6,
}
"""An epilogue's activation (`codegen/c/epilogue.py`'s `Activation`) -> `xg_sgemm_ep`'s
`act` code."""


@dataclass(frozen=True)
class GemmEpilogue:
    """`xg_sgemm_ep`'s epilogue arguments: C expressions of the bias (one float per column of
    C, already at the call's first column) and of the residual (at the call's `C[0, 0]`, rows
    `ldr` apart), or None; the activation and a clip's float32 bounds."""

    bias: str | None = None
    residual: str | None = None
    ldr: int = 0
    activation: str | None = None
    clip: tuple[float, float] | None = None

    def arguments(self) -> list[str]:
        """The trailing arguments of `xg_sgemm_ep`."""
        lo, hi = self.clip if self.clip is not None else (0.0, 0.0)
        return [
            self.bias or "NULL",
            self.residual or "NULL",
            str(self.ldr),
            str(ACTIVATIONS[self.activation]),
            _float(lo),
            _float(hi),
        ]


def _float(value: float) -> str:
    """A float32 C literal (hex, exact; infinities as HUGE_VALF)."""
    if value != value:
        return "NAN"
    if value in (float("inf"), float("-inf")):
        return "HUGE_VALF" if value > 0 else "-HUGE_VALF"
    return f"{value.hex()}f"


_HEAD = """\
/* The shared kernel library's float32 GEMM (codegen/kernels/gemm.py). */
#if defined(__AVX512F__)
#define XG_VL 16
#elif defined(__AVX2__) || defined(__AVX__)
#define XG_VL 8
#else
#define XG_VL 4 /* NEON, SSE, or the portable fallback */
#endif
#define XG_MR 6
#define XG_NR (2 * XG_VL)
#define XG_KC 256
#define XG_MC 144
#define XG_NC 512
typedef float xg_v __attribute__((vector_size(XG_VL * sizeof(float))));
static inline xg_v xg_ld(const float *p) {
  xg_v v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
static inline void xg_st(float *p, xg_v v) { __builtin_memcpy(p, &v, sizeof v); }
static inline int64_t xg_min(int64_t x, int64_t y) { return x < y ? x : y; }
static _Thread_local float xg_pa[XG_MC * XG_KC] __attribute__((aligned(64)));
static _Thread_local float xg_pb[XG_KC * XG_NC] __attribute__((aligned(64)));

/* A[0:mc, 0:kc] (a at its first element) in panels of XG_MR rows: pa[r * kc + q * XG_MR + i]
   is A[r + i, q], zero past row mc. */
static void xg_pack_a(int64_t mc, int64_t kc, const float *a, int64_t ars, int64_t acs,
                      float *restrict pa) {
  for (int64_t r = 0; r < mc; r += XG_MR) {
    float *restrict dst = pa + r * kc;
    for (int64_t i = 0; i < XG_MR; ++i) {
      if (r + i < mc) {
        const float *src = a + (r + i) * ars;
        for (int64_t q = 0; q < kc; ++q) dst[q * XG_MR + i] = src[q * acs];
      } else {
        for (int64_t q = 0; q < kc; ++q) dst[q * XG_MR + i] = 0.0f;
      }
    }
  }
}

/* B[0:kc, 0:nc] in panels of XG_NR columns: pb[s * kc + q * XG_NR + j] is B[q, s + j], zero
   past column nc. */
static void xg_pack_b(int64_t kc, int64_t nc, const float *b, int64_t brs, int64_t bcs,
                      float *restrict pb) {
  for (int64_t s = 0; s < nc; s += XG_NR) {
    float *restrict dst = pb + s * kc;
    if (bcs == 1 && s + XG_NR <= nc) {
      for (int64_t q = 0; q < kc; ++q)
        __builtin_memcpy(dst + q * XG_NR, b + q * brs + s, XG_NR * sizeof(float));
      continue;
    }
    for (int64_t j = 0; j < XG_NR; ++j) {
      if (s + j < nc) {
        const float *src = b + (s + j) * bcs;
        for (int64_t q = 0; q < kc; ++q) dst[q * XG_NR + j] = src[q * brs];
      } else {
        for (int64_t q = 0; q < kc; ++q) dst[q * XG_NR + j] = 0.0f;
      }
    }
  }
}
"""

_EPILOGUE = """\
/* The epilogue on rows x cols of C: + bias[j], + res[i * ldr + j], then the activation
   (act: 0 none, 1 relu, 2 clip to [lo, hi], 3 erf GELU, 4 tanh GELU, 5 sigmoid, 6 tanh), each
   rounded to float as the unfused ops would; NaN stays NaN through relu and clip. */
static void xg_epilogue(int64_t rows, int64_t cols, float *c, int64_t ldc, const float *bias,
                        const float *res, int64_t ldr, int act, float lo, float hi) {
  for (int64_t i = 0; i < rows; ++i) {
    float *restrict row = c + i * ldc;
    if (bias)
      for (int64_t j = 0; j < cols; ++j) row[j] += bias[j];
    if (res) {
      const float *restrict r = res + i * ldr;
      for (int64_t j = 0; j < cols; ++j) row[j] += r[j];
    }
    switch (act) {
    case 1:
      for (int64_t j = 0; j < cols; ++j)
        row[j] = (row[j] != row[j] || row[j] > 0.0f) ? row[j] : 0.0f;
      break;
    case 2:
      for (int64_t j = 0; j < cols; ++j) row[j] = row[j] < lo ? lo : (row[j] > hi ? hi : row[j]);
      break;
    case 3:
      for (int64_t j = 0; j < cols; ++j)
        row[j] = row[j] * 0.5f * (1.0f + xv_erff(row[j] * 0.707106781f));
      break;
    case 4:
      for (int64_t j = 0; j < cols; ++j) {
        const float v = row[j];
        row[j] = 0.5f * v * (1.0f + xv_tanhf(0.797884561f * (v + 0.044715f * v * v * v)));
      }
      break;
    case 5:
      for (int64_t j = 0; j < cols; ++j) row[j] = xv_sigmoidf(row[j]);
      break;
    case 6:
      for (int64_t j = 0; j < cols; ++j) row[j] = xv_tanhf(row[j]);
      break;
    default:
      break;
    }
  }
}
"""

_DOTS = """\
static inline float xg_hsum(xg_v v) {
  float lanes[XG_VL], total = 0.0f;
  __builtin_memcpy(lanes, &v, sizeof v);
  for (int i = 0; i < XG_VL; ++i) total += lanes[i];
  return total;
}

/* Few rows of A contiguous (acs == 1) by columns of B contiguous (brs == 1, nn.dense's
   weight): dot products over vector lanes, 4 columns at a time, B read once per row and
   not packed. */
static void xg_dots(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars,
                    const float *b, int64_t bcs, float *restrict c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    const float *x = a + i * ars;
    for (int64_t j = 0; j < n; j += 4) {
      const int64_t cols = xg_min(4, n - j);
      const float *w[4];
      for (int64_t u = 0; u < 4; ++u) w[u] = b + (j + (u < cols ? u : 0)) * bcs;
      xg_v s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
      int64_t q = 0;
      for (; q + XG_VL <= k; q += XG_VL) {
        const xg_v v = xg_ld(x + q);
        s0 += v * xg_ld(w[0] + q);
        s1 += v * xg_ld(w[1] + q);
        s2 += v * xg_ld(w[2] + q);
        s3 += v * xg_ld(w[3] + q);
      }
      float t[4] = {xg_hsum(s0), xg_hsum(s1), xg_hsum(s2), xg_hsum(s3)};
      for (; q < k; ++q)
        for (int64_t u = 0; u < 4; ++u) t[u] += x[q] * w[u][q];
      for (int64_t u = 0; u < cols; ++u) c[i * ldc + j + u] = t[u];
    }
  }
}
"""

_MAIN = """\
/* The blocked product (see the module docstring); B's blocks come from `packed` (laid out by
   xg_pack_b_all) when it is not NULL, else are packed here. */
static void xg_blocked(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars, int64_t acs,
                       const float *b, int64_t brs, int64_t bcs, const float *packed,
                       const float *apacked, int64_t arow0, int64_t mall, float *c,
                       int64_t ldc, const float *bias, const float *res, int64_t ldr, int act,
                       float lo, float hi) {
  const int ep = bias != NULL || res != NULL || act != 0;
  const int64_t mp = (mall + XG_MR - 1) / XG_MR * XG_MR;
  const float *next = packed;
  for (int64_t j0 = 0; j0 < n; j0 += XG_NC) {
    const int64_t nc = xg_min(XG_NC, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += XG_KC) {
      const int64_t kc = xg_min(XG_KC, k - p0);
      const int last = ep && p0 + kc == k;
      const float *pb = next;
      if (packed != NULL) {
        next += kc * ((nc + XG_NR - 1) / XG_NR * XG_NR);
      } else {
        xg_pack_b(kc, nc, b + p0 * brs + j0 * bcs, brs, bcs, xg_pb);
        pb = xg_pb;
      }
      for (int64_t i0 = 0; i0 < m; i0 += XG_MC) {
        const int64_t mc = xg_min(XG_MC, m - i0);
        const float *pa = xg_pa;
        if (apacked != NULL)
          pa = apacked + p0 * mp + (arow0 + i0) * kc;
        else
          xg_pack_a(mc, kc, a + i0 * ars + p0 * acs, ars, acs, xg_pa);
        for (int64_t s = 0; s < nc; s += XG_NR)
          for (int64_t r = 0; r < mc; r += XG_MR) {
            float *ct = c + (i0 + r) * ldc + j0 + s;
            const int64_t rows = xg_min(XG_MR, mc - r), cols = xg_min(XG_NR, nc - s);
            xg_tile(kc, pa + r * kc, pb + s * kc, ct, ldc, rows, cols, p0 > 0);
            if (last)
              xg_epilogue(rows, cols, ct, ldc, bias ? bias + j0 + s : NULL,
                          res ? res + (i0 + r) * ldr + j0 + s : NULL, ldr, act, lo, hi);
          }
      }
    }
  }
}

XR_HIDDEN void xg_sgemm_ep(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars,
                           int64_t acs, const float *b, int64_t brs, int64_t bcs, float *c,
                           int64_t ldc, const float *bias, const float *res, int64_t ldr,
                           int act, float lo, float hi) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || (m <= 2 && acs == 1 && brs == 1)) {
    if (k <= 0) {
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = 0.0f;
    } else {
      xg_dots(m, n, k, a, ars, b, bcs, c, ldc);
    }
    if (bias != NULL || res != NULL || act != 0)
      xg_epilogue(m, n, c, ldc, bias, res, ldr, act, lo, hi);
    return;
  }
  xg_blocked(m, n, k, a, ars, acs, b, brs, bcs, NULL, NULL, 0, 0, c, ldc, bias, res, ldr, act, lo,
             hi);
}

/* Waits for, or does, the one-time packing `*state` guards (0 not yet, 1 being done by
   another thread, 2 done): `pack(args)` by the first caller. */
static void xg_once(int *state, void (*pack)(const void *), const void *args) {
  if (__atomic_load_n(state, __ATOMIC_ACQUIRE) == 2) return;
  int expected = 0;
  if (__atomic_compare_exchange_n(state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    pack(args);
    __atomic_store_n(state, 2, __ATOMIC_RELEASE);
    return;
  }
  while (__atomic_load_n(state, __ATOMIC_ACQUIRE) != 2) {
  }
}

struct xg_b_all {
  int64_t n, k, brs, bcs;
  const float *b;
  float *dst;
};

/* B (k x n, any strides) packed once, in the order xg_blocked reads its blocks, into `dst`
   (at least xg_sgemm_pp's bound: k * (n + 32 * ceil(n / XG_NC)) floats). */
static void xg_pack_b_all(const void *args) {
  const struct xg_b_all *p = args;
  const int64_t n = p->n, k = p->k, brs = p->brs, bcs = p->bcs;
  const float *b = p->b;
  float *dst = p->dst;
  for (int64_t j0 = 0; j0 < n; j0 += XG_NC) {
    const int64_t nc = xg_min(XG_NC, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += XG_KC) {
      const int64_t kc = xg_min(XG_KC, k - p0);
      xg_pack_b(kc, nc, b + p0 * brs + j0 * bcs, brs, bcs, dst);
      dst += kc * ((nc + XG_NR - 1) / XG_NR * XG_NR);
    }
  }
}

/* xg_sgemm_ep with a B that never changes (a constant weight): `packed` holds it packed,
   done by the first call (`*state`: 0 not yet, 1 being packed by another thread, 2 done). */
XR_HIDDEN void xg_sgemm_pp(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars,
                           int64_t acs, const float *b, int64_t brs, int64_t bcs, float *packed,
                           int *state, float *c, int64_t ldc, const float *bias,
                           const float *res, int64_t ldr, int act, float lo, float hi) {
  if (m <= 2 || n <= 0 || k <= 0) {
    xg_sgemm_ep(m, n, k, a, ars, acs, b, brs, bcs, c, ldc, bias, res, ldr, act, lo, hi);
    return;
  }
  const struct xg_b_all all = {n, k, brs, bcs, b, packed};
  xg_once(state, xg_pack_b_all, &all);
  xg_blocked(m, n, k, a, ars, acs, b, brs, bcs, packed, NULL, 0, 0, c, ldc, bias, res, ldr, act,
             lo, hi);
}

struct xg_a_all {
  int64_t m, k, ars, acs;
  const float *a;
  float *dst;
};

/* A (m x k, any strides) packed once for every row: per XG_KC block of k, its rows in panels
   of XG_MR (xg_pack_a over all m rows), so rows r.. of block p0 start at
   dst + p0 * roundup(m, XG_MR) + r * kc. */
static void xg_pack_a_all(const void *args) {
  const struct xg_a_all *p = args;
  const int64_t mp = (p->m + XG_MR - 1) / XG_MR * XG_MR;
  for (int64_t p0 = 0; p0 < p->k; p0 += XG_KC) {
    const int64_t kc = xg_min(XG_KC, p->k - p0);
    xg_pack_a(p->m, kc, p->a + p0 * p->acs, p->ars, p->acs, p->dst + p0 * mp);
  }
}

/* xg_sgemm_ep on rows row0 .. row0 + m of an A (mall x k, `a` at its row 0) that never changes
   (a constant weight): `packed` holds all of it packed, done by the first call (`*state`);
   row0 is a multiple of XG_MR (6: the caller's split). */
XR_HIDDEN void xg_sgemm_pa(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars,
                           int64_t acs, int64_t row0, int64_t mall, const float *b, int64_t brs,
                           int64_t bcs, float *packed, int *state, float *c, int64_t ldc,
                           const float *bias, const float *res, int64_t ldr, int act, float lo,
                           float hi) {
  if (m <= 0 || n <= 0 || k <= 0) {
    xg_sgemm_ep(m, n, k, a + row0 * ars, ars, acs, b, brs, bcs, c, ldc, bias, res, ldr, act, lo,
                hi);
    return;
  }
  const struct xg_a_all all = {mall, k, ars, acs, a, packed};
  xg_once(state, xg_pack_a_all, &all);
  xg_blocked(m, n, k, a + row0 * ars, ars, acs, b, brs, bcs, NULL, packed, row0, mall, c, ldc,
             bias, res, ldr, act, lo, hi);
}

XR_HIDDEN void xg_sgemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars,
                        int64_t acs, const float *b, int64_t brs, int64_t bcs, float *c,
                        int64_t ldc) {
  xg_sgemm_ep(m, n, k, a, ars, acs, b, brs, bcs, c, ldc, NULL, NULL, 0, 0, 0.0f, 0.0f);
}
"""


def _tile() -> str:
    """The micro-kernel `xg_tile`: an `XG_MR x XG_NR` tile over `kc` packed steps, stored into
    (`add` = 0) or added to (`add` = 1) its `rows x cols` corner of C; unrolled here."""
    acc = [(f"c{i}_0", f"c{i}_1") for i in range(MR)]
    names = [name for pair in acc for name in pair]
    lines = [
        "/* The micro-kernel: C[0:rows, 0:cols] = (or +=) the packed panels' product. */",
        "static inline void xg_tile(int64_t kc, const float *restrict pa,",
        "                           const float *restrict pb, float *restrict c, int64_t ldc,",
        "                           int64_t rows, int64_t cols, int add) {",
        f"  xg_v {', '.join(f'{a} = {{0}}' for a in names)};",
        "  for (int64_t q = 0; q < kc; ++q) {",
        "    const xg_v b0 = xg_ld(pb + q * XG_NR), b1 = xg_ld(pb + q * XG_NR + XG_VL);",
        "    const float *ap = pa + q * XG_MR;",
    ]
    for i, (lo, hi) in enumerate(acc):
        lines.append(f"    {lo} += ap[{i}] * b0;")
        lines.append(f"    {hi} += ap[{i}] * b1;")
    lines += ["  }", "  if (rows == XG_MR && cols == XG_NR) {", "    if (add) {"]
    for i, (lo, hi) in enumerate(acc):
        lines.append(f"      xg_st(c + {i} * ldc, xg_ld(c + {i} * ldc) + {lo});")
        lines.append(f"      xg_st(c + {i} * ldc + XG_VL, xg_ld(c + {i} * ldc + XG_VL) + {hi});")
    lines += ["    } else {"]
    for i, (lo, hi) in enumerate(acc):
        lines.append(f"      xg_st(c + {i} * ldc, {lo});")
        lines.append(f"      xg_st(c + {i} * ldc + XG_VL, {hi});")
    lines += ["    }", "    return;", "  }", "  float t[XG_MR * XG_NR];"]
    for i, (lo, hi) in enumerate(acc):
        lines.append(f"  xg_st(t + {i} * XG_NR, {lo});")
        lines.append(f"  xg_st(t + {i} * XG_NR + XG_VL, {hi});")
    lines += [
        "  for (int64_t i = 0; i < rows; ++i)",
        "    for (int64_t j = 0; j < cols; ++j)",
        "      c[i * ldc + j] = add ? c[i * ldc + j] + t[i * XG_NR + j] : t[i * XG_NR + j];",
        "}",
        "",
    ]
    return "\n".join(lines)


def source() -> str:
    """The library unit's C definitions (after `#include "model.h"`)."""
    return f"{_HEAD}\n{_tile()}\n{_EPILOGUE}\n{_DOTS}\n{_MAIN}"


def call(
    shape: tuple[int | str, int | str, int | str],
    a: tuple[str, int, int],
    b: tuple[str, int, int],
    c: tuple[str, int],
    epilogue: GemmEpilogue | None = None,
    packed: tuple[str, str] | None = None,
    a_packed: tuple[str, str, int | str, int] | None = None,
) -> str:
    """A C statement calling `xg_sgemm` (or `xg_sgemm_ep` with an epilogue, `xg_sgemm_pp`
    with `packed`: B's packed buffer and a pointer to its state; `xg_sgemm_pa` with
    `a_packed`: A's packed buffer, its state, the first row and A's rows, `a` at row 0):
    `shape` = (m, n, k) (C expressions or ints), `a` =
    (pointer, row stride, column stride) as `b`, `c` = (pointer, row stride)."""
    m, n, k = shape
    args = [str(m), str(n), str(k), *map(str, a), *map(str, b), *map(str, c)]
    if a_packed is not None:  # (buffer, state pointer, first row, A's rows); `a` at row 0
        buffer, state, row0, mall = a_packed
        head = [str(m), str(n), str(k), *map(str, a), str(row0), str(mall), *map(str, b)]
        tail = (epilogue or GemmEpilogue()).arguments()
        return f"xg_sgemm_pa({', '.join([*head, buffer, state, *map(str, c), *tail])});"
    if packed is not None:
        args[9:9] = packed
        tail = (epilogue or GemmEpilogue()).arguments()
        return f"xg_sgemm_pp({', '.join([*args, *tail])});"
    if epilogue is None:
        return f"xg_sgemm({', '.join(args)});"
    return f"xg_sgemm_ep({', '.join([*args, *epilogue.arguments()])});"
