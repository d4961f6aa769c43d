"""`xrelay-opt --mlir-timing`: MLIR's execution time report, on stderr at the end of the run.

Rows: `Parser`, `Verifier` (the input's verification and the one after each
`-p` pass; with `--verify-each` the checks after nested passes stay in their
enclosing pass's row), the passes as they ran (a named pipeline such as
`optimize` with its passes nested under it; the tool's wrapper pipeline is
not a row), `Output` (printing and writing), then `Rest` (everything else
since the run started: the pass manager's snapshots, instruments, splitting)
and `Total`, the wall time. Top-level rows add up to `Total`. Rows of the
same name at the same place merge (one row per pass over `--split-input-file`
chunks). `--mlir-timing-display=tree` (the default) indents nested rows in
execution order; `list` merges rows by name, sorted by time.

`--time-passes` stays as it was: TVM's pass profile (passes only).
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Generator
from dataclasses import dataclass, field

from xrelay.dialects.ir_module import IRModule
from xrelay.passes.instrument import PassInstrument, PassProfile, PassTimingInstrument
from xrelay.passes.pass_context import PassInfo, running_passes

_RULE = "===" + "-" * 73 + "==="


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`--mlir-timing` and `--mlir-timing-display`."""
    parser.add_argument(
        "--mlir-timing",
        action="store_true",
        help="print MLIR's execution time report (parser, verifier, passes, output) on stderr",
    )
    parser.add_argument(
        "--mlir-timing-display",
        choices=("tree", "list"),
        default="tree",
        help="the report as a tree of nested rows (default) or a list merged by name",
    )


@dataclass
class Row:
    """A timed activity: its wall time in seconds and the rows nested in it, in order."""

    name: str
    seconds: float = 0.0
    children: list[Row] = field(default_factory=list["Row"])

    def child(self, name: str, occurrence: int = 0) -> Row:
        """The nested row that is the `occurrence`-th named `name` (made at the end if there
        is none): a pass that runs twice in a pipeline has two rows."""
        same = [row for row in self.children if row.name == name]
        if occurrence < len(same):
            return same[occurrence]
        row = Row(name)
        self.children.append(row)
        return row


class Timing:
    """The report's rows, filled while the tool runs; `report()` renders it."""

    def __init__(self, display: str = "tree") -> None:
        self.display = display
        self.start = time.perf_counter()
        self.root = Row("root")

    @contextlib.contextmanager
    def scope(self, name: str) -> Generator[None]:
        """Time the block as the top-level row `name` (added to it if it exists)."""
        began = time.perf_counter()
        try:
            yield
        finally:
            self.root.child(name).seconds += time.perf_counter() - began

    def add_passes(self, profiles: list[PassProfile]) -> None:
        """The passes a `PassTimingInstrument` timed, the outermost (the wrapper) left out."""
        for profile in profiles:
            _merge(self.root, profile.children)

    def report(self) -> str:
        """MLIR's execution time report."""
        total = time.perf_counter() - self.start
        rest = max(total - sum(row.seconds for row in self.root.children), 0.0)
        rows: list[tuple[Row, int]] = []
        if self.display == "list":
            merged: dict[str, float] = {}
            for row, _ in _walk(self.root.children, 0):
                merged[row.name] = merged.get(row.name, 0.0) + row.seconds
            flat = sorted(merged.items(), key=lambda item: -item[1])
            rows = [(Row(name, seconds), 0) for name, seconds in flat]
        else:
            rows = list(_walk(self.root.children, 0))
        rows += [(Row("Rest", rest), 0), (Row("Total", total), 0)]
        lines = [
            _RULE,
            " " * 25 + "... Execution time report ...",
            _RULE,
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        for row, depth in rows:
            share = 100 * row.seconds / total if total else 0.0
            lines.append(f"{row.seconds:10.4f} ({share:5.1f}%)  {'  ' * depth}{row.name}")
        return "\n".join(lines) + "\n"


def _merge(parent: Row, nodes: list[PassProfile]) -> None:
    seen: dict[str, int] = {}
    for node in nodes:
        occurrence = seen.get(node.name, 0)
        seen[node.name] = occurrence + 1
        row = parent.child(node.name, occurrence)
        row.seconds += node.duration_us / 1e6
        _merge(row, node.children)


class PassRows(PassTimingInstrument):
    """The pass timing `--mlir-timing` reads (its own type: `--time-passes` finds its own)."""


def _walk(rows: list[Row], depth: int) -> Generator[tuple[Row, int]]:
    for row in rows:
        yield row, depth
        yield from _walk(row.children, depth + 1)


class TimedInstrument(PassInstrument):
    """Another instrument whose `run_after_pass` after a top-level pass is timed as a row
    (how the verification after each `-p` pass becomes part of `Verifier`)."""

    def __init__(self, inner: PassInstrument, timing: Timing, row: str) -> None:
        super().__init__()
        self.inner = inner
        self.timing = timing
        self.row = row

    @property
    def name(self) -> str:
        return self.inner.name

    def enter_pass_ctx(self) -> None:
        self.inner.enter_pass_ctx()

    def exit_pass_ctx(self) -> None:
        self.inner.exit_pass_ctx()

    def should_run(self, mod: IRModule, info: PassInfo) -> bool:
        return self.inner.should_run(mod, info)

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.inner.run_before_pass(mod, info)

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        if len(running_passes()) != 1:  # inside a pass: in that pass's row already
            self.inner.run_after_pass(mod, info)
            return
        with self.timing.scope(self.row):
            self.inner.run_after_pass(mod, info)

    def run_after_pass_failure(self, mod: IRModule, info: PassInfo) -> None:
        self.inner.run_after_pass_failure(mod, info)
