"""Host copies, the thread team size and the dynamic split every threaded kernel uses, as C.

`xn_team(threads, most)`: how many threads a host kernel opens for work worth `most`
threads (at most one per `XN_GRAIN` bytes moved, the caller's measure): `threads` (the
build's `num_threads`, `XR_NUM_THREADS` in `model.h`; 0: OpenMP's default,
`omp_get_max_threads()`) capped at `most`, at least 1; 1 in a child forked after the
library loaded (libgomp's pool does not survive `fork`) and in a build without OpenMP.

`xn_parallel(team, total, most, part, args)`: `part(args, q0, q1)` over contiguous
ranges that cover `[0, total)`, on an OpenMP team of `team` threads. `xn_chunks` cuts
the range into chunks, in order, each the rest over `team * XN_CHUNKS` (rounded up: on
2 threads the first is an eighth of the range) and at least `total / most` parts
(`most`: the parts that each hold the kernel's grain of work, so a chunk is still worth
one), at most `XN_MOST_CHUNKS`; each thread claims the next chunk from a shared counter
(`__atomic_fetch_add`) until none is left. A static split (thread `t` of `n` taking
`[total * t / n, total * (t + 1) / n)`) makes every region as slow as its slowest
thread: on a VM whose second vCPU starts late or runs intermittently (a time-shared
physical core) the master waited for the late thread's half, and 2 threads were slower
than 1. Claimed chunks let a late thread take fewer, so the region costs at most about
the 1-thread time, as long as the late thread arrives before the master has claimed
every chunk (OpenMP's implicit barrier at the region's end still waits for every team
thread to arrive, even one that claims nothing); the shrinking chunks end both threads
together when neither is late (equal chunks of an eighth lost ~3 of 22 µs to the last
one). Each output is computed by the same code whoever claims its chunk: the results do
not depend on the team or the claiming order. `team < 2` or a single chunk: one direct
call `part(args, 0, total)`, no region (callers print their own direct call for one
thread, without the indirection).
`benchmarks/thread_claims.py` times the schedules with a simulated late thread: atomic
claiming costs what libgomp's `schedule(dynamic, 1)` does, and needs no loop construct;
`tests/test_threads_claim.py` runs `xn_parallel` on a generated kernel with one thread
sleeping.

`xn_copy_rows(threads, rows, length, src, src_stride, dst, dst_stride)`: for `r < rows`,
the `length` bytes at `src + r * src_stride` to `dst + r * dst_stride` (the regions do
not overlap). The `rows * length` bytes are cut into contiguous spans claimed by the
threads (`xn_parallel`; a span may start or end inside a row, so one long row splits
too) when there are more than `XN_GRAIN` of them per thread; otherwise one `memcpy` per
row on the caller's thread. A byte copy: exact for every dtype.

Printed C for callers (accel's `Team.run`, the host's pools): `call` (the region or the
direct call) and `trampoline` (a kernel's range function as a `part`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the host package imports this library (`codegen/kernels/__init__.py`)
    from xrelay.codegen.c.writer import CWriter

PROTOTYPES = (
    "typedef void (*xn_part)(void *args, int64_t q0, int64_t q1);",
    "XR_HIDDEN int xn_team(int threads, int64_t most);",
    "XR_HIDDEN int64_t xn_chunks(int team, int64_t total, int64_t most, int64_t *bounds);",
    "XR_HIDDEN void xn_parallel(int team, int64_t total, int64_t most, xn_part part, void *args);",
    "XR_HIDDEN void xn_copy_rows(int threads, int64_t rows, int64_t length, const void *src, "
    "int64_t src_stride, void *dst, int64_t dst_stride);",
)
"""The entry points, as `model.h` declares them."""

GRAIN = 65536
"""Bytes moved per thread at least (`XN_GRAIN`): below it a second thread costs more than it
saves."""

CHUNKS = 4
"""A chunk is at most the rest over `CHUNKS` times the team (`XN_CHUNKS`): the first an
eighth of the range on 2 threads, a thread held up inside it costs the region at most
that."""

MOST_CHUNKS = 64
"""Chunks per region at most (`XN_MOST_CHUNKS`, the bounds array on the stack): the last
takes the rest."""

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
#define XN_CHUNKS %(chunks)d
#define XN_MOST_CHUNKS %(most_chunks)d

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

int64_t xn_chunks(int team, int64_t total, int64_t most, int64_t *bounds) {
  const int64_t least = most > 0 ? (total + most - 1) / most : total;
  const int64_t share = (int64_t)team * XN_CHUNKS;
  int64_t m = 0, at = 0;
  bounds[0] = 0;
  while (at < total) {
    int64_t size = (total - at + share - 1) / share;
    if (size < least) size = least;
    if (size > total - at || m == XN_MOST_CHUNKS - 1) size = total - at;
    at += size;
    bounds[++m] = at;
  }
  return m;
}

/* Claims chunks until none is left (every thread of the team runs it). */
static void xn_claim(int64_t *next, const int64_t *bounds, int64_t chunks, xn_part part,
                     void *args) {
  for (;;) {
    const int64_t c = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
    if (c >= chunks) return;
    part(args, bounds[c], bounds[c + 1]);
  }
}

void xn_parallel(int team, int64_t total, int64_t most, xn_part part, void *args) {
  int64_t bounds[XN_MOST_CHUNKS + 1];
  const int64_t chunks = team < 2 ? 1 : xn_chunks(team, total, most, bounds);
  if (chunks < 2) {
    part(args, 0, total);
    return;
  }
  int64_t next = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(team)
#endif
  xn_claim(&next, bounds, chunks, part, args);
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

struct xn_copy {
  int64_t length, src_stride, dst_stride;
  const unsigned char *src;
  unsigned char *dst;
};

static void xn_copy_part(void *args, int64_t b0, int64_t b1) {
  const struct xn_copy *c = args;
  xn_copy_span(b0, b1, c->length, c->src, c->src_stride, c->dst, c->dst_stride);
}

void xn_copy_rows(int threads, int64_t rows, int64_t length, const void *src,
                  int64_t src_stride, void *dst, int64_t dst_stride) {
  const int64_t total = rows * length;
  if (total <= 0) return;
  const int team = xn_team(threads, total / XN_GRAIN);
  if (team > 1) {
    struct xn_copy c = {length, src_stride, dst_stride, src, dst};
    xn_parallel(team, total, total / XN_GRAIN, xn_copy_part, &c);
    return;
  }
  xn_copy_span(0, total, length, src, src_stride, dst, dst_stride);
}
"""


def source() -> str:
    """The library unit's C."""
    return _SOURCE % {"grain": GRAIN, "chunks": CHUNKS, "most_chunks": MOST_CHUNKS}


def call(w: CWriter, team: str, total: str, most: str, part: str, args: list[str]) -> None:
    """Print `xn_parallel(team, total, most, part, args)`: `args` (C pointer expressions)
    gathered into a local array `xn_args` of `void *` that `part` (`trampoline`) reads; in
    a block of the caller's (it declares `xn_args`)."""
    cast = ", ".join(f"(void *){arg}" for arg in args)
    w.line(f"void *xn_args[{len(args)}] = {{{cast}}};")
    w.line(f"xn_parallel({team}, {total}, {most}, {part}, xn_args);")


def trampoline(target: str, ctypes: list[str]) -> list[str]:
    """The body of an `xn_part` (`void part(void *args, int64_t q0, int64_t q1)`):
    `target(<args as ctypes>, q0, q1)`, `args` being the array `call` printed (`ctypes`:
    each pointer's C type, e.g. `const float *`)."""
    pointers = ", ".join(f"({ctype})xn_args[{i}]" for i, ctype in enumerate(ctypes))
    return ["  void *const *xn_args = args;", f"  {target}({pointers}, q0, q1);"]


PART_PARAMS = "void *args, int64_t q0, int64_t q1"
"""An `xn_part`'s parameters."""
