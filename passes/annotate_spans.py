"""`annotate-spans` (TVM's `AnnotateSpans`): locate every op at its line in the printed module.

TVM prints the module and parses the text back, so every node gets a span in the
`GeneratedSource` text. xrelay prints the module (custom syntax, no debug info) and gives
each op (functions, the module itself, nested ones) the location of the line that
prints it: `loc("GeneratedSource":<line>:<column>)`, the column of the op's name (after
its results, as the parser locates an op, and mlir-opt), and a function's parameters the
position of their names in its header. `--mlir-print-debuginfo` shows them, and
errors found later point into that text. Nothing else changes; earlier locations are
replaced. Opt level 0, as TVM's. Linear in the size of the printed text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xrelay.dialects.ir_module import IRModule
from xrelay.passes.adapters import XdslPass
from xrelay.passes.greedy import record_change
from xrelay.passes.pass_manager import Pass

SOURCE = "GeneratedSource"
"""The file name of the locations (TVM's)."""


def prints(line: str, name: str) -> bool:
    """Whether `line` is where an op named `name` starts (results, then its name)."""
    text = line.strip()
    if text.startswith("%"):
        _, sep, text = text.partition(" = ")
        if not sep:
            return False
    return text == name or text.startswith((f"{name} ", f"{name}(", f'"{name}"'))


def name_column(line: str) -> int:
    """The column (from 1) of the op name on a line where `prints` found an op."""
    start = len(line) - len(line.lstrip())
    if line.startswith("%", start):
        start = line.index(" = ", start) + 3
    return start + 1


def annotate_spans(module: ModuleOp, filename: str = SOURCE) -> int:
    """Locate the ops of `module` at their lines of its text; how many were located.

    The printer writes ops in pre-order, each starting a line of its own; other lines
    (closing braces, block labels) are skipped."""
    lines = IRModule(module=module).astext().splitlines()
    row = 0
    located = 0
    source = StringAttr(filename)
    for op in module.walk():
        while row < len(lines) and not prints(lines[row], op.name):
            row += 1
        if row == len(lines):
            break
        line = lines[row]
        column = name_column(line)
        op.location = FileLineColLoc(source, IntAttr(row + 1), IntAttr(column))
        for region in op.regions:
            for arg in region.blocks[0].args if region.blocks else ():
                # A function's parameters print in its header: located at their names.
                at = line.find(f"%{arg.name_hint}:") if arg.name_hint else -1
                if at >= 0:
                    arg.location = FileLineColLoc(source, IntAttr(row + 1), IntAttr(at + 1))
        located += 1
        row += 1
    return located


@dataclass(frozen=True)
class AnnotateSpansPass(ModulePass):
    """Give every op the location of its line in the printed module (`GeneratedSource`)."""

    name = "annotate-spans"
    tvm_name: ClassVar[str] = "AnnotateSpans"
    opt_level: ClassVar[int] = 0

    REPORTS_CHANGES: ClassVar[bool] = True
    """It changes only locations, which the snapshot comparison ignores: it says so."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        annotate_spans(op)
        record_change()


def AnnotateSpans() -> Pass:
    """TVM's `relay.transform.AnnotateSpans()`."""
    return XdslPass(AnnotateSpansPass())
