"""Walks over nested IR without Python recursion, for IR nested deeper than Python's stack.

xDSL's `Operation.walk` recurses (through generators) once per region level,
so IR nested a few hundred levels deep (built from Python: the parser stops
earlier) exceeds Python's recursion limit; these walks keep their own stack,
and `trampoline` runs any recursive procedure written as a generator on one.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any, TypeVar, cast

from xdsl.ir import Block, Operation, Region

T = TypeVar("T")


def walk_ops(root: Operation) -> Iterator[Operation]:
    """`root` and every op nested in it, in pre-order (as `root.walk()`), iteratively."""
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        yield op
        nested = [inner for region in op.regions for block in region.blocks for inner in block.ops]
        stack.extend(reversed(nested))


def nested_ops(
    root: Operation | Region | Block, *, reverse: bool = False, region_first: bool = False
) -> list[Operation]:
    """The ops `root.walk(reverse=..., region_first=...)` yields, as a list, iteratively.

    What a pass that walks a whole function to seed a worklist wants: xDSL's walk
    is three nested generators per op (operation, region, block), about 1 µs an op;
    this is a loop over a stack, ops without regions taking the short path. The list
    is taken at once: ops the caller changes afterwards are not seen anew.
    """
    out: list[Operation] = []
    append = out.append
    pending: list[Operation | tuple[Operation]] = (
        [root] if isinstance(root, Operation) else _children(root, not reverse)
    )
    while pending:
        item = pending.pop()
        if type(item) is tuple:
            append(item[0])  # after its regions
            continue
        op = cast(Operation, item)
        if not op.regions:
            append(op)
            continue
        if region_first:
            pending.append((op,))
        else:
            append(op)
        pending.extend(_children(op, not reverse))
    return out


def _children(
    root: Operation | Region | Block, backwards: bool
) -> list[Operation | tuple[Operation]]:
    """The ops directly in `root`'s blocks, in order or backwards."""
    if isinstance(root, Block):
        ops: list[Operation | tuple[Operation]] = list(root.ops)
    else:
        regions = root.regions if isinstance(root, Operation) else (root,)
        ops = [op for region in regions for block in region.blocks for op in block.ops]
    if backwards:
        ops.reverse()
    return ops


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
