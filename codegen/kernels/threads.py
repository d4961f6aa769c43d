"""Host copies and the thread team size, on OpenMP threads, as C.

`xn_team(threads, most)`: how many threads a host kernel opens for work worth `most`
threads (at most one per `XN_GRAIN` bytes moved, the caller's measure): `threads` (the
build's `num_threads`, `XR_NUM_THREADS` in `model.h`; 0: OpenMP's default,
`omp_get_max_threads()`) capped at `most`, at least 1; 1 in a child forked after the
library loaded (libgomp's pool does not survive `fork`) and in a build without OpenMP.
The generated routines that split their planes over threads
(`codegen/c/kernels_pool2d.py`) ask it before their `omp parallel for`.

`xn_copy_rows(threads, rows, length, src, src_stride, dst, dst_stride)`: for `r < rows`,
the `length` bytes at `src + r * src_stride` to `dst + r * dst_stride` (the regions do
not overlap). The `rows * length` bytes are cut into equal contiguous spans, one per
thread (a span may start or end inside a row, so one long row splits too), when there
are more than `XN_GRAIN` of them; otherwise one `memcpy` per row on the caller's thread.
A byte copy: exact for every dtype.
"""

from __future__ import annotations

PROTOTYPES = (
    "XR_HIDDEN int xn_team(int threads, int64_t most);",
    "XR_HIDDEN void xn_copy_rows(int threads, int64_t rows, int64_t length, const void *src, "
    "int64_t src_stride, void *dst, int64_t dst_stride);",
)
"""The entry points, as `model.h` declares them."""

GRAIN = 65536
"""Bytes moved per thread at least (`XN_GRAIN`): below it a second thread costs more than it
saves."""

CFLAGS = ("-fopenmp",)
"""After the shared library's flags."""

LDFLAGS = ("-fopenmp",)
"""The link needs libgomp."""

_SOURCE = """\
/* The shared kernel library's host threads and copies (codegen/kernels/threads.py). */
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#include <pthread.h>
static int xn_threads_forked;
static void xn_threads_after_fork(void) { xn_threads_forked = 1; }
__attribute__((constructor)) static void xn_threads_watch_fork(void) {
  pthread_atfork(NULL, NULL, xn_threads_after_fork);
}
#endif

#define XN_GRAIN %(grain)d

int xn_team(int threads, int64_t most) {
#ifdef _OPENMP
  int64_t team = xn_threads_forked ? 1 : (threads > 0 ? threads : omp_get_max_threads());
  if (team > most) team = most;
  return team > 1 ? (int)team : 1;
#else
  (void)threads;
  (void)most;
  return 1;
#endif
}

static void xn_copy_span(int64_t b0, int64_t b1, int64_t length, const unsigned char *src,
                         int64_t src_stride, unsigned char *dst, int64_t dst_stride) {
  while (b0 < b1) {
    const int64_t r = b0 / length, at = b0 - r * length;
    const int64_t end = (r + 1) * length < b1 ? (r + 1) * length : b1;
    memcpy(dst + r * dst_stride + at, src + r * src_stride + at, (size_t)(end - b0));
    b0 = end;
  }
}

void xn_copy_rows(int threads, int64_t rows, int64_t length, const void *src,
                  int64_t src_stride, void *dst, int64_t dst_stride) {
  const int64_t total = rows * length;
  if (total <= 0) return;
  const int team = xn_team(threads, total / XN_GRAIN);
  if (team > 1) {
#ifdef _OPENMP
#pragma omp parallel for num_threads(team) schedule(static)
#endif
    for (int part = 0; part < team; ++part)
      xn_copy_span(total * part / team, total * (part + 1) / team, length, src, src_stride,
                   dst, dst_stride);
    return;
  }
  xn_copy_span(0, total, length, src, src_stride, dst, dst_stride);
}
"""


def source() -> str:
    """The library unit's C."""
    return _SOURCE % {"grain": GRAIN}
