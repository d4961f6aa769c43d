"""The error for IR nested deeper than a recursive walk can follow, and a guard raising it.

Most of xrelay walks IR without recursion (`dialects/walk.py`, the
interpreter's frame stack), but xDSL's printer, `clone`, `walk` and type
comparisons recurse once per nested region or tuple type. IR built from
Python can nest deeper than Python's stack allows there (the parser stops
earlier); `nesting_guard` turns the `RecursionError` into a
`NestingTooDeepError`, a located one-line `DiagnosticError`:
`IR nested too deep for xrelay.build (depth 500, more than Python's stack allows)`.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager

from xdsl.dialects.builtin import TupleType
from xdsl.ir import Attribute, Operation
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.walk import nesting_depth, walk_ops


def type_depth(ty: Attribute) -> int:
    """How deep tuple types nest in `ty` (a tensor: 0), without recursion."""
    deepest = 0
    stack: list[tuple[Attribute, int]] = [(ty, 0)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(current, TupleType):
            stack.extend((field, depth + 1) for field in current.types.data)
    return deepest


def deepest(root: Operation) -> tuple[int, Operation]:
    """The IR's depth (regions nested in regions, or tuple types in types) and its deepest op."""
    depth, where = nesting_depth(root)
    for op in walk_ops(root):
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            nested = type_depth(value.type)
            if nested > depth:
                depth, where = nested, op
    return depth, where


class NestingTooDeepError(DiagnosticError):
    """IR nested deeper than `what` can handle; located at the deepest op, if it has a location."""

    def __init__(self, what: str, root: Operation):
        depth, where = deepest(root)
        limit = "more than Python's stack allows"
        self.message = f"IR nested too deep for {what} (depth {depth}, {limit})"
        super().__init__([op_error(where, self.message)])

    def __str__(self) -> str:
        located = any(d.line > 0 for d in self.diagnostics)
        return super().__str__() if located else self.message


@contextmanager
def nesting_guard(what: str, root: Operation) -> Generator[None]:
    """Turn a `RecursionError` inside the block into a `NestingTooDeepError` on `root`."""
    try:
        yield
    except RecursionError:
        raise NestingTooDeepError(what, root) from None
