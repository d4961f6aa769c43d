"""What `simplify-expr`'s rule files share: replacing an op by a value or by a new op of
the same result type, erasing what that leaves unused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xrelay.dialects.builder.expr import infer_call_type
from xrelay.dialects.relay.base import RelayOp, RelayTypeError
from xrelay.passes.rewriting import erase_dead_ops


def erase_dead(rewriter: PatternRewriter, values: Sequence[SSAValue]) -> None:
    """Erase the pure ops making `values` that no longer have uses, then their operands'."""
    erase_dead_ops((v.owner for v in values if isinstance(v.owner, Operation)), rewriter.erase)


def forward(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> None:
    """Replace `op`'s single result by `value` (of the same type) and clean up after it."""
    operands = list(op.operands)
    rewriter.replace(op, [], [value])
    erase_dead(rewriter, operands)


def make(
    cls: type[RelayOp], operands: Sequence[SSAValue], props: Mapping[str, Attribute]
) -> RelayOp | None:
    """`cls(operands, props)` with its inferred type, or None when it does not type-check."""
    try:
        result_type = infer_call_type(cls, [v.type for v in operands], props)
    except RelayTypeError:
        return None
    return cls.make_typed(list(operands), result_type, props)


def replace_by(rewriter: PatternRewriter, op: Operation, new: Sequence[Operation]) -> bool:
    """Replace `op` by the ops `new` (the last one's result replacing `op`'s) if that result
    has `op`'s result type; erase what that leaves unused. Whether it did."""
    if new[-1].results[0].type != op.results[0].type:
        return False
    operands = list(op.operands)
    rewriter.replace(op, list(new), [new[-1].results[0]])
    erase_dead(rewriter, operands)
    return True


def rebuild(
    rewriter: PatternRewriter,
    op: Operation,
    cls: type[RelayOp],
    operand: SSAValue,
    props: Mapping[str, Attribute],
) -> None:
    """Replace `op` by `cls(operand, props)` if that has `op`'s result type."""
    new = make(cls, [operand], props)
    if new is not None:
        replace_by(rewriter, op, [new])
