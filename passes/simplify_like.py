"""`simplify-expr`'s `*_like` and fill rewrites (TVM's `ConcretizeLike` family and
`FullElementwise`), kept apart so `simplify_expr.py` stays small.

- **Concretize `*_like`.** When the result's shape is static, `zeros_like`, `ones_like`
  and `full_like` become `zeros` / `ones` / `full` of that shape and dtype,
  `reshape_like` a `reshape`, `broadcast_to_like` a `broadcast_to` and
  `collapse_sum_like` a `collapse_sum_to`: the like operand is no longer read, which
  frees it (and its producer) and lets the op fuse. `cast_like` becomes `cast` to the
  result's dtype whatever the shape.
- **Fills into broadcasting ops** (`FullElementwise`). A binary op of TVM's pattern kind
  `broadcast` (`add`, `multiply`, comparisons, ...) with one operand a `zeros`, `ones`,
  `zeros_like`, `ones_like`, or a `full` / `full_like` of a `relay.constant` scalar, and
  the other operand `x` of the op's result type, reads a scalar constant instead: `x *
  ones(shape)` is `x * 1` (which the identity rule then drops). When the fill makes the
  result larger than `x` (a broadcast), the fill stays. TVM makes the zeros and ones
  scalar of the result's dtype; xrelay of the fill's, the same for arithmetic ops (for a
  comparison TVM's would not type-check).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xrelay.dialects.builder.attrs import bool_, ints
from xrelay.dialects.relay.creation import (
    FullLikeOp,
    FullOp,
    OnesLikeOp,
    OnesOp,
    ZerosLikeOp,
    ZerosOp,
)
from xrelay.dialects.relay.elementwise import CastOp
from xrelay.dialects.relay.like_ops import (
    BroadcastToLikeOp,
    CastLikeOp,
    CollapseSumLikeOp,
    CollapseSumToOp,
    ReshapeLikeOp,
)
from xrelay.dialects.relay.movement import BroadcastToOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.tensor import ReshapeOp
from xrelay.dialects.relay.types import (
    ANY,
    shape_of,
    tensor_element_type,
    tensor_type,
)
from xrelay.passes.op_pattern import OP_PATTERNS, OpPatternKind
from xrelay.passes.simplify_algebra import scalar_constant
from xrelay.passes.simplify_common import make, replace_by

LikeOp = (
    ZerosLikeOp
    | OnesLikeOp
    | FullLikeOp
    | ReshapeLikeOp
    | BroadcastToLikeOp
    | CollapseSumLikeOp
    | CastLikeOp
)


class ConcretizeLike(RewritePattern):
    """A `*_like` op of static result shape -> the op with that shape as an attribute."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LikeOp, rewriter: PatternRewriter, /) -> None:
        result = op.results[0]
        element = tensor_element_type(result.type)
        if isinstance(op, CastLikeOp):
            new = make(CastOp, [op.data], {"dtype": element})
        else:
            shape = shape_of(result.type)
            if ANY in shape:
                return
            new = _concrete(op, list(shape), element)
        if new is not None:
            replace_by(rewriter, op, [new])


def _concrete(op: Operation, shape: list[int], element: Attribute) -> Operation | None:
    filled = {"shape": ints(shape), "dtype": element}
    if isinstance(op, ZerosLikeOp):
        return make(ZerosOp, [], filled)
    if isinstance(op, OnesLikeOp):
        return make(OnesOp, [], filled)
    if isinstance(op, FullLikeOp):
        return make(FullOp, [op.fill_value], filled)
    data = op.operands[0]
    if isinstance(op, ReshapeLikeOp):
        return make(ReshapeOp, [data], {"newshape": ints(shape), "allowzero": bool_(0 in shape)})
    if isinstance(op, BroadcastToLikeOp):
        return make(BroadcastToOp, [data], {"shape": ints(shape)})
    return make(CollapseSumToOp, [data], {"shape": ints(shape)})


_FILL_SET: frozenset[type[Operation]] = frozenset(
    {ZerosOp, OnesOp, ZerosLikeOp, OnesLikeOp, FullOp, FullLikeOp}
)


def _fill_scalar(value: SSAValue) -> ConstantOp | SSAValue | None:
    """The scalar a fill op repeats: a new constant (zeros, ones), the `full`'s constant
    fill value, or None when `value` is no such fill."""
    owner = value.owner
    if isinstance(owner, FullOp | FullLikeOp):
        fill = owner.fill_value
        if isinstance(fill.owner, ConstantOp) and fill.type == _scalar_type(value):
            return fill
        return None
    if isinstance(owner, ZerosOp | ZerosLikeOp | OnesOp | OnesLikeOp):
        element = tensor_element_type(value.type)
        one = isinstance(owner, OnesOp | OnesLikeOp)
        return scalar_constant(1 if one else 0, element)
    return None


def _scalar_type(value: SSAValue) -> Attribute:
    return tensor_type((), tensor_element_type(value.type))


class FullElementwise(RewritePattern):
    """`op(fill, x)` / `op(x, fill)` of a broadcasting op, x of the result type -> the fill's
    scalar in its place."""

    op_types: ClassVar[tuple[type[Operation], ...]] = tuple(
        cls for cls, kind in OP_PATTERNS.items() if kind == OpPatternKind.BROADCAST
    )

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        operands = op.operands
        if len(operands) != 2:
            return
        lhs, rhs = operands
        left, right = type(lhs.owner) in _FILL_SET, type(rhs.owner) in _FILL_SET
        if not left and not right:
            return  # most ops: checked first, cheaply
        result_type = op.results[0].type
        if left and rhs.type == result_type:
            position = 0
        elif right and lhs.type == result_type:
            position = 1
        else:
            return
        scalar = _fill_scalar(op.operands[position])
        if scalar is None:
            return
        value = scalar.result if isinstance(scalar, ConstantOp) else scalar
        operands = [value, rhs] if position == 0 else [lhs, value]
        new = make(type(op), operands, op.properties)  # pyright: ignore[reportArgumentType]
        if new is None:
            return
        replace_by(rewriter, op, [scalar, new] if isinstance(scalar, ConstantOp) else [new])
