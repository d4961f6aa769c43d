"""Float32 local response normalization (`nn.lrn`) over rows, on OpenMP threads, as C.

`xn_lrn_f32(threads, outer, extent, inner, before, after, bias, scale, beta, x, y)`
sets, for `o < outer`, `c < extent`, `i < inner` (the data seen as `[outer, extent,
inner]`, `extent` the normalized axis),
`y[o, c, i] = x[o, c, i] / (bias + scale * s) ** beta`, `s` the sum of `x[o, q, i]²`
over the window `c - before <= q <= c + after` clipped to the axis. The host printer
(`codegen/c/kernels_nn_norm.py`) uses it on float32 data and keeps its scalar loops
for the other types.

Each row `(o, c)` is done in chunks of `XN_CHUNK` positions: the window's rows are added
into double accumulators (loops over contiguous floats, vectorized), then each element
is divided by the power. Numerics as the interpreter's: the squares are summed in double
in window order and the power is taken in double; `beta` 0.75, 0.5 and 1 (ONNX's and
TVM's default is 0.75) by correctly rounded square roots (`b^0.75 = √b·√√b`), which
vectorize, any other `beta` by libm's `pow`. So the result is the interpreter's within
one or two double roundings before the one conversion to float.

Threads: the rows are cut into contiguous chunks claimed by a team of `threads` threads
(`xn_team` and `xn_parallel` of `codegen/kernels/threads.py`, a library this one requires:
the build's `num_threads`, `XR_NUM_THREADS` in `model.h`; 0: OpenMP's default,
`omp_get_max_threads()`), at most one thread and one chunk per `XN_GRAIN` elements times
the window, and never in a child forked after the library loaded (libgomp's pool does not
survive `fork`). One thread runs the rows directly, without opening a parallel region.
"""

from __future__ import annotations

PROTOTYPE = (
    "XR_HIDDEN void xn_lrn_f32(int threads, int64_t outer, int64_t extent, int64_t inner, "
    "int64_t before, int64_t after, double bias, double scale, double beta, "
    "const float *x, float *y)"
)
"""The entry point, as `model.h` declares it."""

CFLAGS = ("-fno-math-errno",)
"""After the shared library's flags: `sqrt` inlined (vectorized) rather than a libm call that
may set `errno` (the results are the same)."""

_SOURCE = """\
/* The shared kernel library's float32 LRN (codegen/kernels/lrn.py). */

#define XN_CHUNK 512
#define XN_GRAIN 65536

static void xn_lrn_rows(int64_t r0, int64_t r1, int64_t extent, int64_t inner, int64_t before,
                        int64_t after, double bias, double scale, double beta,
                        const float *restrict x, float *restrict y) {
  double s[XN_CHUNK];
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t c = r % extent;
    const float *first = x + (r - c) * inner;
    const int64_t q0 = c < before ? 0 : c - before;
    const int64_t q1 = c + after + 1 < extent ? c + after + 1 : extent;
    for (int64_t i0 = 0; i0 < inner; i0 += XN_CHUNK) {
      const int64_t n = inner - i0 < XN_CHUNK ? inner - i0 : XN_CHUNK;
      for (int64_t i = 0; i < n; ++i) s[i] = 0;
      for (int64_t q = q0; q < q1; ++q) {
        const float *row = first + q * inner + i0;
        for (int64_t i = 0; i < n; ++i) {
          const double v = (double)row[i];
          s[i] += v * v;
        }
      }
      const float *in = x + r * inner + i0;
      float *out = y + r * inner + i0;
      if (beta == 0.75) {
        for (int64_t i = 0; i < n; ++i) {
          const double root = sqrt(bias + scale * s[i]);
          out[i] = (float)((double)in[i] / (root * sqrt(root)));
        }
      } else if (beta == 0.5) {
        for (int64_t i = 0; i < n; ++i) out[i] = (float)((double)in[i] / sqrt(bias + scale * s[i]));
      } else if (beta == 1.0) {
        for (int64_t i = 0; i < n; ++i) out[i] = (float)((double)in[i] / (bias + scale * s[i]));
      } else {
        for (int64_t i = 0; i < n; ++i)
          out[i] = (float)((double)in[i] / pow(bias + scale * s[i], beta));
      }
    }
  }
}

struct xn_lrn {
  int64_t extent, inner, before, after;
  double bias, scale, beta;
  const float *x;
  float *y;
};

static void xn_lrn_part(void *args, int64_t r0, int64_t r1) {
  const struct xn_lrn *a = args;
  xn_lrn_rows(r0, r1, a->extent, a->inner, a->before, a->after, a->bias, a->scale, a->beta,
              a->x, a->y);
}

void xn_lrn_f32(int threads, int64_t outer, int64_t extent, int64_t inner, int64_t before,
                int64_t after, double bias, double scale, double beta, const float *x, float *y) {
  const int64_t rows = outer * extent;
  int64_t most = rows * inner * (before + after + 2) / XN_GRAIN;
  if (most > rows) most = rows;
  const int team = xn_team(threads, most);
  if (team > 1) {
    struct xn_lrn a = {extent, inner, before, after, bias, scale, beta, x, y};
    xn_parallel(team, rows, most, xn_lrn_part, &a);
    return;
  }
  xn_lrn_rows(0, rows, extent, inner, before, after, bias, scale, beta, x, y);
}
"""


def source() -> str:
    """The library unit's C."""
    return _SOURCE
