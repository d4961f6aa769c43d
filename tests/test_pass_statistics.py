"""Pass statistics (`passes/statistics.py`) and `xrelay-opt --mlir-pass-statistics`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xrelay.passes import register_pass, unregister_pass
from xrelay.passes.statistics import Statistic, collecting, declared_statistics
from xrelay.tools.opt_main import OptMain

GOOD = """func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  %1 = relay.exp %x : tensor<2xf32>
  %2 = relay.add %0, %1 : tensor<2xf32>
  func.return %2 : tensor<2xf32>
}
"""


@dataclass(frozen=True)
class CountOps(ModulePass):
    """Counts the ops it sees (a plugin's pass using the statistics API)."""

    name = "test-count-ops"

    seen: ClassVar[Statistic] = Statistic("num-ops", "Number of operations seen")
    never: ClassVar[Statistic] = Statistic("num-never", "Never incremented")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _ in op.walk():
            self.seen.add()


@dataclass(frozen=True)
class CountMore(CountOps):
    """Inherits its base's counters and adds one."""

    name = "test-count-more"
    extra: ClassVar[Statistic] = Statistic("num-extra", "An extra counter")


@pytest.fixture
def registered() -> Iterator[None]:
    register_pass("test-count-ops", lambda: CountOps, "count ops", name="TestCountOps")
    try:
        yield
    finally:
        unregister_pass("test-count-ops")


def test_add_outside_a_collecting_run_does_nothing() -> None:
    CountOps.seen.add(5)  # no error, nowhere to go
    with collecting({}) as outer:
        CountOps.seen.add(2)
        with collecting({}) as inner:
            CountOps.seen.add()
        CountOps.seen.add()
    assert (outer, inner) == ({"num-ops": 3}, {"num-ops": 1})


def test_declared_statistics_in_order_bases_first() -> None:
    assert [s.name for s in declared_statistics(CountMore)] == ["num-ops", "num-never", "num-extra"]


def test_report_shows_declared_and_counted(
    registered: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(GOOD + "// -----\n" + GOOD)
    args = [str(path), "--split-input-file", "-p", "test-count-ops,test-count-ops"]
    assert OptMain.main([*args, "--mlir-pass-statistics"]) == 0
    report = capsys.readouterr().err.splitlines()
    # Two rows for the pass run twice; the two chunks add up (6 ops each, the module included).
    assert report[3:] == [
        "TestCountOps",
        "  (S) 12 num-ops - Number of operations seen",
        "  (S)  0 num-never - Never incremented",
        "TestCountOps",
        "  (S) 12 num-ops - Number of operations seen",
        "  (S)  0 num-never - Never incremented",
    ]
    assert (
        OptMain.main([*args, "--mlir-pass-statistics", "--mlir-pass-statistics-display=list"]) == 0
    )
    assert capsys.readouterr().err.splitlines()[3:] == [
        "TestCountOps",
        "  (S) 24 num-ops - Number of operations seen",
        "  (S)  0 num-never - Never incremented",
    ]
