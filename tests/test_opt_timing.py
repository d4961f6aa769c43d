"""`xrelay-opt --mlir-timing` (`tools/opt_timing.py`): the top-level rows add up to the wall time."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from xrelay.tools.opt_main import OptMain
from xrelay.tools.opt_timing import Row, Timing

TINYRES = Path(__file__).parent.parent / "examples" / "tinyres.mlir"
ROW = re.compile(r"^ +(\d+\.\d{4}) \( *(\d+\.\d)%\)  ( *)(\S.*)$")


def rows(report: str) -> list[tuple[float, int, str]]:
    """(seconds, depth, name) for each row of a report."""
    found: list[tuple[float, int, str]] = []
    for line in report.splitlines():
        match = ROW.match(line)
        if match:
            found.append((float(match.group(1)), len(match.group(3)) // 2, match.group(4)))
    return found


def test_top_level_rows_add_up_to_the_wall_time(capsys: pytest.CaptureFixture[str]) -> None:
    began = time.perf_counter()
    assert OptMain.main([str(TINYRES), "-p", "optimize{opt-level=3}", "--mlir-timing"]) == 0
    wall = time.perf_counter() - began
    report = rows(capsys.readouterr().err)
    top = [(seconds, name) for seconds, depth, name in report if depth == 0]
    names = [name for _, name in top]
    assert names == ["Parser", "Verifier", "Optimize", "Output", "Rest", "Total"]
    total = top[-1][0]
    assert total <= wall
    assert sum(seconds for seconds, _ in top[:-1]) == pytest.approx(total, abs=6e-4)
    nested = [name for _, depth, name in report if depth == 1]
    assert nested[0] == "SimplifyInference"
    assert nested[-1] == "FuseOps"


def test_rows_merge_by_occurrence_over_chunks() -> None:
    timing = Timing()
    first, second = timing.root.child("CSE"), timing.root.child("CSE", 1)
    assert first is not second
    assert timing.root.child("CSE", 1) is second
    first.seconds = 1.0
    second.children.append(Row("X", 2.0))
    listed = Timing(display="list")
    listed.root = timing.root
    report = rows(listed.report())
    assert [(s, n) for s, _, n in report[:2]] == [(2.0, "X"), (1.0, "CSE")]
