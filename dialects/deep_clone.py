"""A deep copy of an op in one pass over its IR: `op.clone()`, half the cost.

xDSL 0.74's `Operation.clone` builds every nested op without operands, then walks
the original and the copy side by side a second time to set them (each op's
operand setter runs twice, its use lists are built twice). Here each op is built
once with its operands already mapped; the only ops visited again are those that
read a value not yet copied when they were built: a value defined outside `op`
(kept, as `clone` keeps it) or later in a graph region or another block (mapped).

The copy is the one `clone` makes: the same op classes, operands, result types,
properties and attributes (dicts copied, values shared, as attributes are
immutable), locations, successors, SSA name hints and block-argument locations.
Ops are built with `Operation.__init__`, as IRDL's `create` builds them, so the
verifier is not run. `tests/test_deep_clone.py` compares the two.
"""

from __future__ import annotations

from typing import TypeVar

from xdsl.ir import Block, Operation, Region, SSAValue

OpT = TypeVar("OpT", bound=Operation)


def deep_clone(op: OpT) -> OpT:
    """A copy of `op` with copies of its regions (what `op.clone()` returns)."""
    values: dict[SSAValue, SSAValue] = {}
    revisit: list[tuple[Operation, Operation]] = []
    copy = _clone_op(op, values, {}, revisit)
    for old, new in revisit:
        new.operands = [values.get(v, v) for v in old.operands]
    return copy


_init = Operation.__init__


def _clone_op(
    op: OpT,
    values: dict[SSAValue, SSAValue],
    blocks: dict[Block, Block],
    revisit: list[tuple[Operation, Operation]],
) -> OpT:
    cls = type(op)
    new = cls.__new__(cls)
    old_operands = op.operands
    operands = [values.get(v) for v in old_operands]
    pending = None in operands
    if pending:
        operands = [values.get(v, v) for v in old_operands]
    _init(
        new,
        operands=operands,  # pyright: ignore[reportArgumentType] (no None left)
        result_types=[r.type for r in op.results],
        properties=op.properties,
        attributes=op.attributes,
        location=op.location,
        successors=[blocks.get(s, s) for s in op.successors],
        regions=[_clone_region(r, values, blocks, revisit) for r in op.regions],
    )
    if pending:
        revisit.append((op, new))
    for old_result, new_result in zip(op.results, new.results, strict=True):
        values[old_result] = new_result
        new_result.name_hint = old_result.name_hint
    return new


def _clone_region(
    region: Region,
    values: dict[SSAValue, SSAValue],
    blocks: dict[Block, Block],
    revisit: list[tuple[Operation, Operation]],
) -> Region:
    copies: list[Block] = []
    for block in region.blocks:  # all blocks first: successors may name later ones
        copy = Block(arg_types=[arg.type for arg in block.args])
        for old_arg, new_arg in zip(block.args, copy.args, strict=True):
            values[old_arg] = new_arg
            new_arg.name_hint = old_arg.name_hint
            new_arg.location = old_arg.location
        blocks[block] = copy
        copies.append(copy)
    for block, copy in zip(region.blocks, copies, strict=True):
        copy.add_ops([_clone_op(op, values, blocks, revisit) for op in block.ops])
    return Region(copies)
