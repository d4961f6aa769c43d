"""The dynamic split (`xn_parallel`, `codegen/kernels/threads.py`) run directly on a real
threaded kernel, with chunks claimed unevenly: a host max pool's generated units
(`kernels_generated.c`: the range routine and its chunk trampoline; `kernels_threads.c`)
compiled here with a test driver whose `part` makes one thread sleep on its first chunk,
so the others claim the rest. Whoever claims what, the output must be bit-identical to
one direct call over every plane, at 1, 2 and 3 threads, each chunk computed once; the
same with one chunk per thread (the bound accel's GEMM-shaped kernels pass: `coarse`)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.codegen.build import BASE_CFLAGS
from xrelay.codegen.kernels import threads
from xrelay.codegen.runtime import INCLUDE_DIR

import xrelay
from xrelay import IRModule, relay

SHAPE = (1, 37, 57, 59)  # 37 planes, ~1 MB moved: 15 grains

DRIVER = r"""
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "model.h"

#define PLANES %(planes)d
#define MOST %(most)d
static int sleeper;
static int claims[64];
static int64_t covered[PLANES];

/* The kernel's chunk, after `sleeper` (a thread number) sleeps 50 ms on its first one. */
static void slow_part(void *args, int64_t q0, int64_t q1) {
  static __thread int slept;
  const int t = omp_get_thread_num();
  if (t == sleeper && !slept) {
    slept = 1;
    const struct timespec pause = {0, 50000000};
    nanosleep(&pause, NULL);
  }
  __atomic_fetch_add(&claims[t], 1, __ATOMIC_RELAXED);
  for (int64_t q = q0; q < q1; ++q) __atomic_fetch_add(&covered[q], 1, __ATOMIC_RELAXED);
  %(chunk)s(args, q0, q1);
}

int main(int argc, char **argv) {
  if (argc != 6) return 2;
  const int team = atoi(argv[1]);
  const int64_t most = atoi(argv[5]) > 0 ? atoi(argv[5]) : MOST;
  sleeper = atoi(argv[2]);
  const size_t n_in = %(n_in)d, n_out = %(n_out)d;
  float *in = malloc(n_in * sizeof *in), *out = malloc(n_out * sizeof *out);
  FILE *f = fopen(argv[3], "rb");
  if (fread(in, sizeof *in, n_in, f) != n_in) return 2;
  fclose(f);
  if (team == 0) {
    %(range)s(in, out, 0, PLANES);  /* the reference: one direct call */
  } else {
    void *args[2] = {in, out};
    xn_parallel(team, PLANES, most, slow_part, args);
  }
  f = fopen(argv[4], "wb");
  fwrite(out, sizeof *out, n_out, f);
  fclose(f);
  for (int64_t q = 0; q < PLANES; ++q)
    if (team > 0 && covered[q] != 1) return 3;
  int64_t bounds[%(bounds)d];
  printf("%%lld", team > 0 ? (long long)xn_chunks(team, PLANES, most, bounds) : 0LL);
  for (int t = 0; t < team; ++t) printf(" %%d", claims[t]);
  printf("\n");
  return 0;
}
"""


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pool's units and the driver, compiled into one executable."""
    work = tmp_path_factory.mktemp("claim")
    x = relay.var("x", shape=SHAPE)
    pool = relay.nn.max_pool2d(x, (3, 3), (2, 2), ceil_mode=True)
    mod = IRModule.from_expr(relay.Function([x], pool))
    lib = xrelay.build(mod, options={"cache_dir": work / "cache", "num_threads": 3})
    header = str(lib.sources.files["model.h"])
    (entry,) = re.findall(
        r"xn_parallel\(team, (\d+), (\d+), ", str(lib.sources.files["kernels_generated.c"])
    )
    (range_,) = re.findall(r"XR_HIDDEN void (xc_pool_range_\w+)\(", header)
    (chunk,) = re.findall(r"XR_HIDDEN void (xc_pool_chunk_\w+)\(", header)
    planes = int(entry[0])
    assert planes == SHAPE[0] * SHAPE[1]
    assert 2 <= int(entry[1]) <= planes  # the model's own call: worth two threads at least
    out_shape = (SHAPE[0], SHAPE[1], 28, 29)
    main = DRIVER % {
        "planes": planes,
        "most": planes,  # a plane per chunk may do
        "bounds": threads.MOST_CHUNKS + 1,
        "chunk": chunk,
        "range": range_,
        "n_in": int(np.prod(SHAPE)),
        "n_out": int(np.prod(out_shape)),
    }
    objects: list[str] = []
    for name in ("kernels_generated.c", "kernels_threads.c"):
        (work / name).write_text(str(lib.sources.files[name]))
    (work / "model.h").write_text(header)
    (work / "driver.c").write_text(main)
    units = {n: lib.sources.unit_cflags[n] for n in ("kernels_generated.c", "kernels_threads.c")}
    units["driver.c"] = ["-fopenmp", "-D_POSIX_C_SOURCE=199309L"]
    for name, flags in units.items():
        obj = str(work / f"{name}.o")
        command = ["cc", *BASE_CFLAGS, *flags, "-I", str(INCLUDE_DIR), "-I", str(work)]
        subprocess.run([*command, "-c", str(work / name), "-o", obj], check=True)
        objects.append(obj)
    exe = work / "driver"
    subprocess.run(["cc", "-fopenmp", *objects, "-o", str(exe)], check=True)
    return exe


def run(
    exe: Path, team: int, sleeper: int, data: Any, tmp_path: Path, most: int = 0
) -> tuple[Any, list[int]]:
    src, dst = tmp_path / f"in{team}{sleeper}", tmp_path / f"out{team}{sleeper}"
    data.tofile(src)
    done = subprocess.run(
        [str(exe), str(team), str(sleeper), str(src), str(dst), str(most)],
        capture_output=True,
        text=True,
        env={"OMP_WAIT_POLICY": "passive"},
    )
    assert done.returncode == 0, done.stderr
    return np.fromfile(dst, dtype=np.float32), [int(v) for v in done.stdout.split()]


@pytest.mark.parametrize("team", [1, 2, 3])
@pytest.mark.parametrize("sleeper", [0, 1])
def test_uneven_claims_give_the_direct_calls_bits(
    driver: Path, team: int, sleeper: int, tmp_path: Path
) -> None:
    data = np.random.default_rng(3).standard_normal(SHAPE).astype(np.float32)
    want, _ = run(driver, 0, 0, data, tmp_path)
    got, counts = run(driver, team, sleeper, data, tmp_path)
    np.testing.assert_array_equal(got, want)
    chunks, claims = counts[0], counts[1:]
    if team == 1:
        assert claims == [1]  # one direct call over every plane
        return
    assert chunks > team * threads.CHUNKS  # shrinking chunks of at least one plane
    assert sum(claims) == chunks
    # the sleeper slept on its first chunk (if it came in time for one) while the others
    # took the rest
    assert claims[sleeper] <= 1 < sum(claims) - claims[sleeper]


@pytest.mark.parametrize("team", [2, 3])
@pytest.mark.parametrize("sleeper", [0, 1])
def test_one_chunk_per_thread_gives_the_direct_calls_bits(
    driver: Path, team: int, sleeper: int, tmp_path: Path
) -> None:
    data = np.random.default_rng(4).standard_normal(SHAPE).astype(np.float32)
    want, _ = run(driver, 0, 0, data, tmp_path)
    got, counts = run(driver, team, sleeper, data, tmp_path, most=team)
    np.testing.assert_array_equal(got, want)
    chunks, claims = counts[0], counts[1:]
    assert chunks == team  # the team as the bound: one chunk each
    assert sum(claims) == chunks
    # the sleeper held at most its one chunk; the others took the rest
    assert claims[sleeper] <= 1
    assert sum(claims) - claims[sleeper] >= team - 1
