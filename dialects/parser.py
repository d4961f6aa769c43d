"""Parsing xrelay text with source locations on every op.

`LocatingParser` stamps each parsed op with `FileLineColLoc` (xDSL leaves
`UnknownLoc` unless the text spells `loc(...)`), so that verifier errors can
name `file:line:col`. It reads xDSL's private `_current_token`; the pinned
xDSL version and `tests/test_parser.py` guard that.
"""

from __future__ import annotations

import re

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Dialect, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, LineIndex, from_parse_error

_extra_dialects: list[Dialect] = []

_BLANK_LINE = re.compile(r"\s*(//.*)?")


def register_dialect(dialect: Dialect) -> None:
    """Make a dialect (e.g. a backend's) known to every context xrelay creates."""
    if all(d.name != dialect.name for d in _extra_dialects):
        _extra_dialects.append(dialect)


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with builtin, func, relay and every registered extra dialect loaded."""
    from xrelay.dialects import get_all_dialects

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
        ctx.load_registered_dialect(name)
    for dialect in _extra_dialects:
        if dialect.name not in ctx.registered_dialect_names:
            ctx.load_dialect(dialect)
    return ctx


class LocatingParser(Parser):
    """An xDSL parser that records `file:line:col` on every op it parses."""

    def __init__(self, ctx: Context, text: str, name: str = "<string>"):
        super().__init__(ctx, text, name)
        self._lines = LineIndex(text)
        self._filename = StringAttr(name)

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except ParseError:
            raise
        except (VerifyException, ValueError, TypeError, KeyError, IndexError) as error:
            # A custom parser or builder rejected what it read: report it here.
            message = str(error.args[0]) if error.args else type(error).__name__
            raise ParseError(start, message.split("\n")[0]) from None
        if isinstance(op.location, UnknownLoc):
            line, column = self._lines.line_col(start.start)
            op.location = FileLineColLoc(self._filename, IntAttr(line), IntAttr(column))
        return op


def parse_module(
    text: str,
    filename: str = "<string>",
    ctx: Context | None = None,
    line_offset: int = 0,
) -> ModuleOp:
    """Parse a module (an implicit `builtin.module` is allowed) or raise DiagnosticError.

    `line_offset` counts the lines before `text` in its file (for split input),
    so reported lines are those of the file.
    """
    padded = "\n" * line_offset + text
    if all(_BLANK_LINE.fullmatch(line) for line in text.splitlines()):
        # Only whitespace and comments: an empty module, as in mlir-opt.
        module = ModuleOp([])
    else:
        try:
            # The parser lexes its first token on construction: that can fail too.
            module = LocatingParser(ctx or make_context(), padded, filename).parse_module()
        except ParseError as error:
            raise DiagnosticError([from_parse_error(error, filename, LineIndex(padded))]) from None
    if isinstance(module.location, UnknownLoc):
        # An implicit module: locate it at its first op (else the text's first line), so
        # module-level errors such as a redefined symbol name a real position.
        first = next(iter(module.ops), None)
        if first is not None and isinstance(first.location, FileLineColLoc):
            module.location = first.location
        else:
            module.location = FileLineColLoc(
                StringAttr(filename), IntAttr(line_offset + 1), IntAttr(1)
            )
    return module


def span_error(span: Span[str], message: str, filename: str, text: str) -> Diagnostic:
    """A diagnostic at a span of `text`."""
    line, column = LineIndex(text).line_col(span.start)
    return Diagnostic(filename, line, column, "error", message)
