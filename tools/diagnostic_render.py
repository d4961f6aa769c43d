"""Diagnostics printed as mlir-opt prints them: the message, the source line, a caret.

    model.mlir:2:8: error: 'relay.add' op expected 2 operands, got 1
      %0 = relay.add %x : tensor<2xf32>
           ^
    model.mlir:2:8: note: see current operation: %0 = "relay.add"(%x) : ...

`render` adds the source line and the caret under the column when the
diagnostic names a line of the text being processed (not for a position in
another file, such as a location read from `loc(...)`); `current_operation` is
the text of MLIR's "see current operation" note (`--mlir-print-op-on-diagnostic`).
"""

from __future__ import annotations

import io

from xdsl.ir import Operation
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


def current_operation(op: Operation) -> str:
    """`see current operation: <op in the generic form>`, large constants elided."""
    out = io.StringIO()
    ExactPrinter(stream=out, print_generic_format=True, elide_if_larger=16).print_op(op)
    text = " ".join(line.strip() for line in out.getvalue().splitlines())
    if len(text) > MAX_NOTE_CHARS:
        text = text[:MAX_NOTE_CHARS] + " ..."
    return f"see current operation: {text}"
