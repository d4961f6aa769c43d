"""Diagnostics printed as mlir-opt prints them: the message, the source line, a caret.

    model.mlir:2:8: error: 'relay.add' op expected 2 operands, got 1
      %0 = relay.add %x : tensor<2xf32>
           ^
    model.mlir:2:8: note: see current operation: %0 = "relay.add"(%x) : ...

`render` adds the source line and the caret under the column when the
diagnostic names a line of the text being processed (not for a position in
another file, such as a location read from `loc(...)`); `current_operation` is
the text of MLIR's "see current operation" note (`--mlir-print-op-on-diagnostic`):
the op alone in the generic form, its values named as where it is printed in its
function (`%1 = "relay.add"(%0, %y)`, as mlir-opt names them from the enclosing
op), not renumbered from the op itself.
"""

from __future__ import annotations

import io
from typing import TypeAlias

from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsolatedFromAbove
from xrelay.dialects.dense_literal import ExactPrinter
from xrelay.dialects.diagnostics import Diagnostic

MAX_SOURCE_LINE = 4096
"""A longer source line is not shown (LLVM's SourceMgr does the same)."""

MAX_NOTE_CHARS = 2000
"""A longer operation (a whole function's body) is cut there, with `...`."""


def source_lines(diagnostic: Diagnostic, filename: str, text: str, line_offset: int) -> list[str]:
    """The source line and the caret line for `diagnostic`, if it is in `text`.

    `text` holds the lines `line_offset + 1 ...` of the file `filename`. The caret
    line copies the tabs before the column so that the caret lines up.
    """
    if diagnostic.filename != filename or diagnostic.line <= line_offset:
        return []
    lines = text.split("\n")
    index = diagnostic.line - line_offset - 1
    if index >= len(lines):
        return []
    source = lines[index].rstrip("\r")
    printable = source.replace("\t", " ").isprintable()
    if len(source) > MAX_SOURCE_LINE or not source.strip() or not printable:
        return []
    column = max(diagnostic.column - 1, 0)
    lead = "".join(c if c == "\t" else " " for c in source[:column])
    return [source, lead + "^"]


ValueNames: TypeAlias = tuple[dict[SSAValue, str], dict[Block, str]]
"""The names a printer gave to values and blocks."""


class _NotePrinter(ExactPrinter):
    """The note's printer: the generic form, large constants elided, names given."""

    def names(self) -> ValueNames:
        return self._ssa_values, self._blocks

    def use_names(self, names: ValueNames) -> None:
        self._ssa_values = dict(names[0])
        self._blocks = dict(names[1])


def _note_printer(out: io.StringIO) -> _NotePrinter:
    return _NotePrinter(stream=out, print_generic_format=True, elide_if_larger=16)


def naming_scope(op: Operation) -> Operation | None:
    """The op whose printing names the values `op` prints: its nearest ancestor isolated
    from above (a function), else its outermost one; None if `op` names its own (it is
    isolated, or it has no parent)."""
    if op.has_trait(IsolatedFromAbove):
        return None
    scope = op.parent_op()
    while scope is not None and not scope.has_trait(IsolatedFromAbove):
        parent = scope.parent_op()
        if parent is None:
            break
        scope = parent
    return scope


class OperationNotes:
    """`see current operation: <op>` for the failing ops of one verification (the IR does
    not change meanwhile): each scope's names are found once, by printing it unseen."""

    def __init__(self) -> None:
        self._names: dict[Operation, ValueNames] = {}

    def __call__(self, op: Operation) -> str:
        out = io.StringIO()
        printer = _note_printer(out)
        scope = naming_scope(op)
        if scope is not None:
            names = self._names.get(scope)
            if names is None:
                namer = _note_printer(io.StringIO())
                namer.print_op(scope)
                names = self._names[scope] = namer.names()
            printer.use_names(names)
        printer.print_op(op)
        text = " ".join(line.strip() for line in out.getvalue().splitlines())
        if len(text) > MAX_NOTE_CHARS:
            text = text[:MAX_NOTE_CHARS] + " ..."
        return f"see current operation: {text}"


def current_operation(op: Operation) -> str:
    """`see current operation: <op in the generic form>`, large constants elided, values
    named as in the op's function."""
    return OperationNotes()(op)
