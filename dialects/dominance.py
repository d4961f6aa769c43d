"""SSA dominance: every operand is defined before its use, as MLIR's verifier checks.

xDSL's parser accepts forward references (`%1 = relay.add %0, %0` before `%0 =
...`) and resolves them when the region ends, and xDSL's verifier does not check
dominance, so such IR reached the interpreter (a KeyError). `first_dominance_error`
walks the module once, iteratively (deep nesting cannot exhaust the stack), in
time linear in the number of ops and operands.

A value is visible in a block if it is an argument of that block or of an
enclosing one, or a result of an op that comes earlier in that block or, in an
enclosing block, earlier than the op holding the region. Uses across the blocks
of one multi-block region are not checked (relay's regions have one block).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue


def first_dominance_error(root: Operation) -> tuple[Operation, int, SSAValue] | None:
    """The first (op, operand index, value) whose value does not dominate the use, if any."""
    defined: set[SSAValue] = set()
    open_blocks: set[Block] = set()
    open_regions: set[Region] = set()
    # Work left, innermost last: a block with the ops left in it (None: not entered
    # yet), or an op whose regions are done, so that its results are now defined.
    stack: list[tuple[Block, Iterator[Operation] | None] | Operation] = _blocks_of(root)
    while stack:
        top = stack[-1]
        if isinstance(top, Operation):
            stack.pop()
            defined.update(top.results)
            continue
        block, ops = top
        if ops is None:
            ops = iter(block.ops)
            stack[-1] = (block, ops)
            open_blocks.add(block)
            if block.parent is not None:
                open_regions.add(block.parent)
            defined.update(block.args)
        op = next(ops, None)
        if op is None:
            stack.pop()
            open_blocks.discard(block)
            if block.parent is not None and block.next_block is None:
                open_regions.discard(block.parent)
            continue
        for index, value in enumerate(op.operands):
            if not _visible(value, defined, open_blocks, open_regions):
                return op, index, value
        # The op's regions see what precedes it, not its own results.
        stack.append(op)
        stack.extend(_blocks_of(op))
    return None


def _blocks_of(op: Operation) -> list[tuple[Block, Iterator[Operation] | None] | Operation]:
    """The blocks of an op's regions, last first (so that a stack pops them in order)."""
    blocks = [block for region in op.regions for block in region.blocks]
    return [(block, None) for block in reversed(blocks)]


def _visible(
    value: SSAValue,
    defined: set[SSAValue],
    open_blocks: set[Block],
    open_regions: set[Region],
) -> bool:
    owner = _block_of(value)
    if value in defined:
        # Defined earlier, in a block still being walked (an enclosing one).
        return owner is None or owner in open_blocks or _sibling(owner, open_regions)
    if owner is None:
        return True  # detached: not a dominance question
    # Not yet defined: only a sibling block of a multi-block region may do that.
    return owner not in open_blocks and _sibling(owner, open_regions)


def _sibling(block: Block, open_regions: set[Region]) -> bool:
    """Whether `block` is another block of a region being walked."""
    return block.parent is not None and block.parent in open_regions


def _block_of(value: SSAValue) -> Block | None:
    if isinstance(value, OpResult):
        return value.op.parent_block()
    if isinstance(value, BlockArgument):
        return value.block
    return None
