"""Smoke tests of `benchmarks/onnx_import.py`, `benchmarks/large_constants.py`,
`benchmarks/interpreters.py` and `benchmarks/revisions.py`.

No timing is asserted: each runs on a small input, exits 0 and prints its table
with the rows asked for.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(script: str, *args: str) -> list[str]:
    argv = [sys.executable, str(ROOT / "benchmarks" / script), *args]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_onnx_import_benchmark_prints_a_row_per_model() -> None:
    lines = _run("onnx_import.py", "--models", "squeezenet", "resnet50")
    assert lines[0].startswith("| model | nodes | load s | import s | verify s |")
    rows = [line.split(" | ") for line in lines[2:]]
    assert [r[0] for r in rows] == ["| squeezenet", "| resnet50"]
    assert [r[1] for r in rows] == ["105", "415"]  # the models' node counts
    assert all(float(cell) >= 0 for r in rows for cell in r[2:9])
    assert rows[1][9].startswith("≤ 5 s: ")


def test_large_constants_benchmark_prints_every_form() -> None:
    lines = _run("large_constants.py", "--elements", "1000")
    forms = [line.split(" | ")[0] for line in lines[3:]]
    assert forms == [
        '| `dense<"0x...">`',
        "| `dense_resource<w>`",
        "| `dense_resource<__elided__>`",
    ]
    sizes = [float(line.split(" | ")[1]) for line in lines[3:]]
    assert sizes[2] < sizes[0] / 10  # the elided text has no weights


def test_onnx_import_benchmark_with_weights_prints_them_as_resources() -> None:
    plain = _run("onnx_import.py", "--models", "squeezenet")[2].split(" | ")
    weighted = _run("onnx_import.py", "--models", "squeezenet", "--weights")[2].split(" | ")
    assert int(weighted[1]) < int(plain[1])  # the weight ConstantOfShape nodes are gone
    assert float(weighted[8]) > 2.0 > float(plain[8])  # SqueezeNet's 1.2M weights, as hex


def _check_paired_tables(lines: list[str]) -> None:
    """Both tables of a paired benchmark: a row per pair and CPU order, positive numbers
    (ratios near 1 are not asserted: the two runs share a noisy machine), the median."""
    for kind in ("optimize", "startup"):
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{kind} ("))
        rows = [line.split(" | ") for line in lines[at + 3 : at + 5]]
        assert [r[0] for r in rows] == ["| 0", "| 1"]
        assert all(float(cell) > 0 for r in rows for cell in (r[1], r[2], r[3].rstrip(" |")))
        assert lines[at + 5].startswith("median B / A: ")


def test_interpreters_benchmark_pairs_both_measurements() -> None:
    """The same interpreter twice, small."""
    lines = _run(
        "interpreters.py", sys.executable, sys.executable, "--size", "300", "--pairs", "1",
        "--starts", "1",
    )  # fmt: skip
    _check_paired_tables(lines)


def test_revisions_benchmark_pairs_a_commit_with_the_working_tree() -> None:
    """HEAD against the working tree, small: the exported commit is what side A imports
    (the script refuses to run otherwise)."""
    lines = _run("revisions.py", "HEAD", "--size", "300", "--pairs", "1", "--starts", "1")
    assert lines[0].startswith("A = HEAD (")
    _check_paired_tables(lines)


def test_revisions_counts_instructions_under_cachegrind() -> None:
    """`revisions.py --instructions` counts a process under valgrind: one small process,
    counted and parsed (the per-op figure is the difference of two such counts)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from revisions import instructions

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    assert instructions(env, 20, 1) > 10**8  # Python's start and imports alone
