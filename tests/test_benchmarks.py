"""Smoke test of `benchmarks/inference.py`: its xrelay-and-numpy path runs and prints its tables.

No onnxruntime needed and no timing asserted: the run must exit 0 (so every
output agreed with the float64 numpy reference, which also shows the
benchmark's numpy weights are the ones `examples/tinyres.py` draws) and print
the latency, build-time and FLOP tables with the rows asked for.
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
    argv += ["--runners", "c", "numpy", "--sizes", "32", "--models", "tinyres"]
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "| model | runner | 1 thread | 2 threads |" in lines, result.stdout
    rows = [line for line in lines if line.startswith("| tinyres 32 (12.7 MFLOP) |")]
    assert [row.split(" | ")[1] for row in rows] == ['xrelay `["c"]`', "numpy"], rows
    for row in rows:
        assert row.count("GFLOP/s") == 2, row
        assert "x |" not in row, row  # no onnxruntime: no ratio column entries
    builds = [line for line in lines if line.startswith('| tinyres 32 | xrelay `["c"]` |')]
    assert len(builds) == 1, result.stdout
    assert builds[0].count(" ms") == 4, builds[0]  # passes, emission, compiler, total
    assert any(line.startswith("| tinyres 32 | conv2d 16→16 3x3 @32x32 | 2 |") for line in lines)
    assert "per-kernel timing: TODO (needs a profiling build option in xrelay.build)" in lines
    assert "OUTPUTS DISAGREE" not in result.stdout + result.stderr
    assert not list(tmp_path.iterdir()), "the benchmark left files behind"
