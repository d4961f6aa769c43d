"""Walks over nested IR without Python recursion, for IR nested deeper than Python's stack.

xDSL's `Operation.walk` recurses (through generators) once per region level,
so IR nested a few hundred levels deep (built from Python: the parser stops
earlier) exceeds Python's recursion limit; these walks keep their own stack,
and `trampoline` runs any recursive procedure written as a generator on one.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any, TypeVar

from xdsl.ir import Operation

T = TypeVar("T")


def walk_ops(root: Operation) -> Iterator[Operation]:
    """`root` and every op nested in it, in pre-order (as `root.walk()`), iteratively."""
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        yield op
        nested = [inner for region in op.regions for block in region.blocks for inner in block.ops]
        stack.extend(reversed(nested))


def nesting_depth(root: Operation) -> tuple[int, Operation]:
    """How many regions deep ops are nested in `root` (0: none), and the deepest op."""
    deepest, deepest_op = 0, root
    stack: list[tuple[Operation, int]] = [(root, 0)]
    while stack:
        op, depth = stack.pop()
        if depth > deepest:
            deepest, deepest_op = depth, op
        for region in op.regions:
            for block in region.blocks:
                stack.extend((inner, depth + 1) for inner in block.ops)
    return deepest, deepest_op


Nested = Generator[Any, Any, T]
"""A recursive procedure written as a generator: it yields a sub-procedure (another
`Nested`) where it would call it, and receives that one's return value."""


def trampoline(root: Nested[T]) -> T:
    """Run a `Nested` procedure and those it yields on an explicit stack: no Python recursion.

    An exception in a sub-procedure is thrown into the one that yielded it, as a
    call would raise it there (its `finally` blocks run, it may catch it).
    """
    stack: list[Nested[Any]] = [root]
    value: Any = None
    error: BaseException | None = None
    while True:
        current = stack[-1]
        try:
            request = current.throw(error) if error is not None else current.send(value)
        except StopIteration as stop:
            stack.pop()
            if not stack:
                return stop.value
            value, error = stop.value, None
            continue
        except BaseException as raised:
            stack.pop()
            if not stack:
                raise
            value, error = None, raised
            continue
        stack.append(request)
        value, error = None, None
