"""A threaded region with a slow second thread: static split against claimed chunks.

Simulates what a VM's second vCPU does when the hypervisor runs it late (a time-shared
physical core): one kernel of `--parts` independent parts (about `--work` µs on one
thread, a busy loop per part), run on 2 threads whose worker busy-waits `delay` µs
(the vCPU not running) before it takes any work, or, for `xn_parallel (in chunk)`, inside
its first claimed chunk (preempted while holding one; the last column). Schedules:

- `static`: thread `t` of `n` takes `[total * t / n, total * (t + 1) / n)` (before issue 16's
  dynamic split, every kernel's);
- `equal`: `2 * CHUNKS` equal chunks claimed from a shared counter;
- `claimed`: the chunks `xn_chunks` cuts (each the rest over `2 * CHUNKS`, at least a part),
  claimed from a shared counter (the loop of `codegen/kernels/threads.py`'s `xn_parallel`);
- `coarse`: one chunk per thread (`xn_chunks` with the team as its bound: accel's GEMM-shaped
  kernels, `Team.run`'s `coarse`), claimed from a shared counter: a worker that has not
  started when the master finished its chunk has its chunk taken by the master;
- `omp dynamic`: the same chunks through `#pragma omp for schedule(dynamic, 1)`;
- `in chunk`: the library's own `xn_parallel` (compiled from `threads.source()`),
  the worker's delay inside its first chunk.

Each cell: the median region time over `--repeat` runs, in µs, and in brackets how long
the master waited at the region's end after its last chunk (OpenMP's implicit barrier,
which waits for every team thread to arrive even one that claims nothing). A 1-thread
call (no region) is the reference. Run: `python benchmarks/thread_claims.py`.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from xrelay.codegen.kernels import threads

DRIVER = r"""
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "model.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
static void busy(double us) { const double end = now() + us * 1e-6; while (now() < end) {} }
static volatile float sink;
static int64_t spins;
static void parts(int64_t q0, int64_t q1) {
  for (int64_t q = q0; q < q1; ++q) {
    float x = (float)q;
    for (int64_t i = 0; i < spins; ++i) x = x * 0.999f + 1.0f;
    sink = x;
  }
}
static double delay_us, master_done;
static void part_fn(void *args, int64_t q0, int64_t q1) {
  static __thread double delayed_at = -1;
  if (omp_get_thread_num() == 1 && delay_us > 0 && delayed_at != *(double *)args) {
    delayed_at = *(double *)args;  /* once per region */
    busy(delay_us);
  }
  parts(q0, q1);
}
static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 5) return 2;
  const int64_t total = atoll(argv[1]), repeat = atoll(argv[4]);
  const double work_us = atof(argv[2]);
  spins = 1000;
  double t = now();
  for (int r = 0; r < 20; ++r) parts(0, total);
  spins = (int64_t)(spins * work_us * 1e-6 / ((now() - t) / 20));
  int64_t bounds[64 + 1], equal[2 * XN_CHUNKS_PER + 1], coarse[64 + 1];
  const int64_t chunks = xn_chunks(2, total, total, bounds);
  const int64_t halves = xn_chunks(2, total, 2, coarse);
  for (int c = 0; c <= 2 * XN_CHUNKS_PER; ++c) equal[c] = total * c / (2 * XN_CHUNKS_PER);
  double *times = malloc(repeat * sizeof *times), *waits = malloc(repeat * sizeof *waits);
  char *list = argv[3];
  for (char *at = list; *at;) {
    delay_us = strtod(at, &at);
    if (*at == ',') ++at;
    printf("| %%.0f |", delay_us);
    for (int mode = 0; mode < 7; ++mode) {
      for (int64_t r = 0; r < repeat; ++r) {
        double start = now();
        master_done = start;
        if (mode == 0) {
          parts(0, total);
        } else if (mode == 6) {
          xn_parallel(2, total, total, part_fn, &start);
          master_done = now();  /* not measured inside the library */
        } else {
          int64_t next = 0;
#pragma omp parallel num_threads(2)
          {
            const int t = omp_get_thread_num();
            if (t == 1 && delay_us > 0) busy(delay_us);
            if (mode == 1) {
              parts(total * t / 2, total * (t + 1) / 2);
            } else if (mode >= 2 && mode <= 4) {
              const int64_t *b = mode == 2 ? equal : mode == 3 ? bounds : coarse;
              const int64_t m = mode == 2 ? 2 * XN_CHUNKS_PER : mode == 3 ? chunks : halves;
              for (;;) {
                const int64_t c = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
                if (c >= m) break;
                parts(b[c], b[c + 1]);
              }
            } else {
#pragma omp for schedule(dynamic, 1) nowait
              for (int64_t c = 0; c < chunks; ++c) parts(bounds[c], bounds[c + 1]);
            }
            if (t == 0) master_done = now();
          }
        }
        const double end = now();
        times[r] = (end - start) * 1e6;
        waits[r] = (end - master_done) * 1e6;
      }
      qsort(times, repeat, sizeof *times, compare);
      qsort(waits, repeat, sizeof *waits, compare);
      if (mode == 0 || mode == 6)
        printf(" %%.1f |", times[repeat / 2]);
      else
        printf(" %%.1f (%%.1f) |", times[repeat / 2], waits[repeat / 2]);
    }
    printf("\n");
    fflush(stdout);
  }
  return 0;
}
"""


def main() -> None:
    """Compile the driver against the threads library and print its table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--parts", type=int, default=28, help="parts of the range")
    parser.add_argument("--work", type=float, default=43.0, help="µs of work on one thread")
    parser.add_argument("--delays", default="0,5,10,20,30,40,80", help="worker delays, µs")
    parser.add_argument("--repeat", type=int, default=2001)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        work = Path(name)
        header = ["#include <stdint.h>", "#define XR_HIDDEN", *threads.PROTOTYPES, ""]
        (work / "model.h").write_text("\n".join(header))
        (work / "threads.c").write_text('#include "model.h"\n' + threads.source())
        (work / "driver.c").write_text(DRIVER.replace("%%", "%"))
        exe = work / "driver"
        flags = ["-std=gnu11", "-O2", "-fopenmp", f"-DXN_CHUNKS_PER={threads.CHUNKS}"]
        flags += ["-I", str(work)]
        subprocess.run(
            ["cc", *flags, str(work / "threads.c"), str(work / "driver.c"), "-o", str(exe)],
            check=True,
        )
        print(
            f"{args.parts} parts, {args.work:.0f} µs of work on 1 thread, 2 threads, "
            f"{threads.CHUNKS} chunks per thread; median µs (master's wait at the end)"
        )
        print(
            "| worker delay µs | 1 thread | static | equal | claimed | coarse | omp dynamic "
            "| in chunk |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        command = [str(exe), str(args.parts), str(args.work), args.delays, str(args.repeat)]
        subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
