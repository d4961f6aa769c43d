"""`xrelay-opt --mlir-pass-statistics`: MLIR's pass statistics report, on stderr at the end.

Counters are those passes declare (`xrelay.passes.statistics.Statistic`); xDSL's
own `cse`, `dce` and `canonicalize` cannot declare any, so for them the report
counts the ops they erased (ops before minus ops after). `pipeline` display
(the default): the passes as they ran, a named pipeline's passes indented
under it, each pass's counters below it as `(S) <value> <name> - <description>`;
`list`: one entry per pass name, counters summed, sorted by name, passes
without counters left out. Runs over `--split-input-file` chunks add up.
"""

from __future__ import annotations

import argparse
from contextvars import Token
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xrelay.dialects.ir_module import IRModule
from xrelay.passes import lookup_pass
from xrelay.passes.instrument import PassInstrument
from xrelay.passes.pass_context import PassInfo
from xrelay.passes.statistics import Statistic, declared_statistics, start, stop

_RULE = "===" + "-" * 73 + "==="

MEASURED = {
    "cse": Statistic("num-erased", "Number of operations erased"),
    "dce": Statistic("num-erased", "Number of operations erased"),
    "canonicalize": Statistic("num-erased", "Number of operations erased"),
}
"""xDSL passes whose counter the instrument measures (they cannot declare one)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`--mlir-pass-statistics` and `--mlir-pass-statistics-display`."""
    parser.add_argument(
        "--mlir-pass-statistics",
        action="store_true",
        help="print the passes' statistics (MLIR's report) on stderr",
    )
    parser.add_argument(
        "--mlir-pass-statistics-display",
        choices=("pipeline", "list"),
        default="pipeline",
        help="as the pipeline ran (default), or merged by pass name",
    )


@dataclass
class PassStats:
    """One pass in the report: its counters (declared order) and the passes it ran."""

    name: str
    counters: dict[str, int] = field(default_factory=dict[str, int])
    descriptions: dict[str, str] = field(default_factory=dict[str, str])
    children: list[PassStats] = field(default_factory=list["PassStats"])

    def child(self, name: str, occurrence: int) -> PassStats:
        same = [c for c in self.children if c.name == name]
        if occurrence < len(same):
            return same[occurrence]
        made = PassStats(name)
        self.children.append(made)
        return made


def _count_ops(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk()) - 1


class StatisticsInstrument(PassInstrument):
    """Collects each pass invocation's counters into a tree (the tool's wrapper left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.root = PassStats("root")
        self._stack: list[tuple[PassStats, dict[str, int], Token[dict[str, int] | None], int]]
        self._stack = []
        self._seen: list[dict[str, int]] = [{}]
        self._depth = 0

    def enter_pass_ctx(self) -> None:
        # A fresh context per chunk: what a failed chunk left open is dropped, the tree stays.
        self._depth = 0
        self._seen = [{}]
        self._stack = []

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self._depth += 1
        if self._depth == 1:  # the wrapper: its passes are the report's top level
            return
        parent = self._stack[-1][0] if self._stack else self.root
        seen = self._seen[-1]
        occurrence = seen.get(info.name, 0)
        seen[info.name] = occurrence + 1
        self._seen.append({})
        node = parent.child(info.name, occurrence)
        for statistic in _declared(info):
            node.counters.setdefault(statistic.name, 0)
            node.descriptions[statistic.name] = statistic.description
        record: dict[str, int] = {}
        ops = _count_ops(mod.module) if info.flag in MEASURED else 0
        self._stack.append((node, record, start(record), ops))

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self._finish(mod)

    def run_after_pass_failure(self, mod: IRModule, info: PassInfo) -> None:
        self._finish(mod)

    def _finish(self, mod: IRModule) -> None:
        self._depth -= 1
        if self._depth == 0 or not self._stack:
            self._seen = [{}]
            return
        node, record, token, ops = self._stack.pop()
        self._seen.pop()
        stop(token)
        measured = MEASURED.get(_flag(node.name))
        if measured is not None:
            record[measured.name] = ops - _count_ops(mod.module)
            node.descriptions.setdefault(measured.name, measured.description)
        for name, value in record.items():
            node.counters[name] = node.counters.get(name, 0) + value

    def report(self, display: str = "pipeline") -> str:
        """MLIR's pass statistics report."""
        lines = [_RULE, " " * 25 + "... Pass statistics report ...", _RULE]
        if display == "list":
            merged: dict[str, PassStats] = {}
            for node in _walk(self.root.children):
                if not node.counters:
                    continue
                into = merged.setdefault(node.name, PassStats(node.name))
                for name, value in node.counters.items():
                    into.counters[name] = into.counters.get(name, 0) + value
                    into.descriptions[name] = node.descriptions.get(name, "")
            for name in sorted(merged):
                lines += _lines(merged[name], 0, nested=False)
        else:
            for node in self.root.children:
                lines += _lines(node, 0, nested=True)
        return "\n".join(lines) + "\n"


def _lines(node: PassStats, depth: int, nested: bool) -> list[str]:
    pad = "  " * depth
    lines = [pad + node.name]
    width = max((len(str(v)) for v in node.counters.values()), default=0)
    for name, value in node.counters.items():
        description = node.descriptions.get(name, "")
        lines.append(f"{pad}  (S) {value:>{width}} {name} - {description}")
    if nested:
        for child in node.children:
            lines += _lines(child, depth + 1, nested)
    return lines


def _walk(nodes: list[PassStats]) -> list[PassStats]:
    out: list[PassStats] = []
    for node in nodes:
        out.append(node)
        out += _walk(node.children)
    return out


def _declared(info: PassInfo) -> list[Statistic]:
    entry = lookup_pass(info.name)
    return declared_statistics(entry.factory()) if entry is not None else []


def _flag(name: str) -> str:
    entry = lookup_pass(name)
    return entry.flag if entry is not None else name
