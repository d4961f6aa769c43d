"""TVM's `relay.SourceName` and `relay.Span`: where an expression came from, as an op location.

A call built with a span (`relay.Call(op, args, attrs, type_args, span)`) becomes an op
located at `loc("<source name>":<line>:<column>)`; the passes keep an op's location on what
they make from it (`dialects/locations.py`), and a call read back from a module carries the
span of its op's `FileLineColLoc`. `astext()` prints it as TVM does
(`/* ty=... span=SpanConv2D:0:0 */`); `structural_equal` ignores spans, as TVM's. An MLIR
location has no end, so a span read back ends where it starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Attribute


@dataclass(frozen=True)
class SourceName:
    """TVM's `tvm.ir.SourceName`: the name of a source (a file name, or any text)."""

    name: str


@dataclass(frozen=True)
class Span:
    """TVM's `tvm.ir.Span(source_name, line, end_line, column, end_column)` (TVM's order)."""

    source_name: SourceName
    line: int
    end_line: int
    column: int
    end_column: int

    def location(self) -> FileLineColLoc:
        """The op location of the span's start."""
        return FileLineColLoc(
            StringAttr(self.source_name.name), IntAttr(self.line), IntAttr(self.column)
        )

    def __str__(self) -> str:
        return f"{self.source_name.name}:{self.line}:{self.column}"


def span_of(location: Attribute) -> Span | None:
    """The span of an op location: a `FileLineColLoc`'s, else None."""
    if not isinstance(location, FileLineColLoc):
        return None
    line, column = location.line.data, location.column.data
    return Span(SourceName(location.filename.data), line, line, column, column)
