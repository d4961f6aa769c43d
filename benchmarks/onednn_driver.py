"""The C prelude of the benchmarks' oneDNN drivers (`dnnl_winograd_kernels.py`,
`dnnl_blocked_layouts.py`), and how they are compiled: oneDNN's engine and stream,
`CHECK` (exit 1 naming a failed call), `zeros` and `memory` (zero-filled buffers for a
descriptor), `impl_name`, `fast_impls` (oneDNN's fast implementations of an op) and
`best_us` (a primitive's best of 9 runs of 10 calls after
10 warm-up calls, in µs)."""

from __future__ import annotations

import subprocess
from pathlib import Path

PRELUDE = r"""
#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    dnnl_status_t status_ = (call);                                        \
    if (status_ != dnnl_success) {                                         \
      fprintf(stderr, "%s failed: %d\n", #call, (int)status_);             \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

static dnnl_engine_t engine;
static dnnl_stream_t stream;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *zeros(const dnnl_memory_desc_t *md) {
  size_t bytes = dnnl_memory_desc_get_size(md);
  void *buffer = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
  memset(buffer, 0, bytes);
  return buffer;
}

static dnnl_memory_t memory(const dnnl_memory_desc_t *md) {
  dnnl_memory_t m;
  CHECK(dnnl_memory_create(&m, md, engine, zeros(md)));
  return m;
}

/* The name of `pd`'s implementation. */
static const char *impl_name(const_dnnl_primitive_desc_t pd) {
  const char *impl = NULL;
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
  return impl;
}

#define MAX_IMPLS 16

/* oneDNN's fast implementations of the op `desc` (no reference or gemm kernel), in its
 * order, at most `most` of them (0: all) into `pds`; their count (0 when it has none). */
static int fast_impls(const void *desc, int most, dnnl_primitive_desc_t pds[MAX_IMPLS]) {
  dnnl_primitive_desc_iterator_t it;
  if (dnnl_primitive_desc_iterator_create(&it, desc, NULL, engine, NULL) != dnnl_success) {
    return 0;
  }
  int count = 0;
  do {
    dnnl_primitive_desc_t pd = dnnl_primitive_desc_iterator_fetch(it);
    const char *impl = impl_name(pd);
    int slow = strncmp(impl, "ref", 3) == 0 || strstr(impl, "gemm") != NULL;
    if (slow || count == MAX_IMPLS || (most && count == most)) {
      dnnl_primitive_desc_destroy(pd);
    } else {
      pds[count++] = pd;
    }
  } while (dnnl_primitive_desc_iterator_next(it) == dnnl_success);
  dnnl_primitive_desc_iterator_destroy(it);
  return count;
}

/* Best of 9 runs of 10 calls, after 10 warm-up calls, in microseconds. */
static double best_us(dnnl_primitive_t p, int n, const dnnl_exec_arg_t *args) {
  for (int i = 0; i < 10; ++i) CHECK(dnnl_primitive_execute(p, stream, n, args));
  double best = 1e30;
  for (int r = 0; r < 9; ++r) {
    double start = now();
    for (int i = 0; i < 10; ++i) CHECK(dnnl_primitive_execute(p, stream, n, args));
    double t = (now() - start) / 10;
    best = t < best ? t : best;
  }
  return best * 1e6;
}

"""


def compile_driver(body: str, directory: Path) -> Path:
    """The driver `PRELUDE` + `body` compiled (`cc -O2 ... -ldnnl`) in `directory`."""
    source, exe = directory / "driver.c", directory / "driver"
    source.write_text(PRELUDE + body)
    subprocess.run(["cc", "-O2", str(source), "-o", str(exe), "-ldnnl"], check=True)
    return exe
