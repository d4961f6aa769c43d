"""Walks over nested IR without Python recursion, for IR nested deeper than Python's stack.

xDSL's `Operation.walk` recurses (through generators) once per region level,
so IR nested a few hundred levels deep (built from Python: the parser stops
earlier) exceeds Python's recursion limit; these walks keep their own stack.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation


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
