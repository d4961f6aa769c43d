"""Smoke test of `benchmarks/inference.py`: its xrelay-and-numpy path runs and prints its tables.

No onnxruntime needed and no timing asserted: the run must exit 0 (so every
output agreed with the float64 numpy reference, which also shows the
benchmark's numpy weights are the ones `examples/tinyres.py` draws) and print
the latency, requirement, build-time, FLOP and per-kernel tables with the rows asked for.
It covers both ways of timing (1 thread: one process, interleaved; 2 threads:
one process per runner, alternating batches) and the profiling build of the
worst models (for the best xrelay target and for host c), each run in its own process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_inference_benchmark_quick_run(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CFLAGS", "LDFLAGS")}
    env["TMPDIR"] = str(tmp_path)  # the benchmark's build caches and files go under here
    argv = [sys.executable, str(ROOT / "benchmarks" / "inference.py"), "--quick"]
    argv += ["--runners", "c", "accel", "numpy", "--sizes", "32", "--models", "tinyres"]
    argv += ["--threads", "1", "2"]
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "| model | runner | 1 thread | 2 threads |" in lines, result.stdout
    table = lines[lines.index("| model | runner | 1 thread | 2 threads |") + 2 :]
    rows = table[: table.index("")]
    assert rows[0].startswith("| tinyres 32 (12.7 MFLOP) |"), rows
    names = [row.split(" | ")[1] for row in rows]
    assert names == ['xrelay `["c"]`', 'xrelay `["accel", "c"]`', "numpy", "best xrelay"], rows
    for row in rows[:-1]:
        assert row.count("GFLOP/s") == 2, row
        assert "x |" not in row, row  # no onnxruntime: no ratio column entries
    best = rows[-1].split(" | ")[2:]
    assert all(cell.split(",")[0] in ("c", "accel") for cell in best), rows[-1]
    assert "note: onnxruntime" not in result.stderr  # not asked for: no note
    modes = "1 thread: one process, interleaved; 2 threads: one process per runner"
    assert any(modes in line for line in lines), result.stdout
    assert "tinyres 32, 2 thread(s), one process per runner" in result.stderr
    assert "- latency ratios: n/a (no onnxruntime: the ratios need it)" in lines
    builds = [line for line in lines if line.startswith('| tinyres 32 | xrelay `["c"]` |')]
    assert len(builds) == 1, result.stdout
    assert builds[0].count(" ms") == 6, builds[0]  # cold: 3 steps and total; cached: 2
    verdicts = [line for line in lines if line.startswith(("- cold build", "- cached build"))]
    assert [v.split(" <=")[0] for v in verdicts] == ["- cold build", "- cached build"]
    assert any(line.startswith("| tinyres 32 | conv2d 16→16 3x3 @32x32 | 2 |") for line in lines)
    # Per-kernel time: the worst model for the best target and for host c, 1 thread; with
    # one model, host c is the best target's worst model only if c is faster than accel.
    heads = [line for line in lines if line.startswith("tinyres 32, ")]
    assert 1 <= len(heads) <= 2, result.stdout
    assert {head.split(":")[1].strip().split(",")[0] for head in heads} >= {'xrelay `["c"]`'}
    for head in heads:
        assert head.startswith("tinyres 32, 1 thread: "), head
        assert "median of 2 runs: " in head, head
        assert "per run with timers" in head, head
        assert "DISAGREES" not in head, head
    assert lines.count("| kernel | µs per run | % of run |") == len(heads), result.stdout
    mains = [line for line in lines if line.startswith("| main | ")]
    assert len(mains) == len(heads), result.stdout
    assert all(line.endswith(" | 100.0% |") for line in mains), mains
    nested = [line for line in lines if line.startswith("| · ")]
    assert nested, result.stdout  # calls of main (and, for accel, its kernels under them)
    assert "OUTPUTS DISAGREE" not in result.stdout + result.stderr
    assert not list(tmp_path.iterdir()), "the benchmark left files behind"
