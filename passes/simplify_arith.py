"""`simplify-expr`'s constant reassociation rewrites (TVM's `SimplifyAdjacentMultiplyOrAdd`
and `SwitchAddMultiply`), kept apart so `simplify_expr.py` stays small.

With `c1`, `c2` `relay.constant`s and `x` anything but a `relay.constant`:

- `SimplifyAdjacentMultiplyOrAdd`: `(x * c1) * c2` -> `x * (c1 * c2)` and
  `(x + c1) + c2` -> `x + (c1 + c2)`;
- `SwitchAddMultiply`: `(x + c1) * c2` -> `x * c2 + (c1 * c2)` (a mul-add is what
  FoldScaleAxis folds into a conv, and what a `bias` composite pattern matches).

Each add or multiply matches with its operands in either order (TVM's pattern
matching of these two ops is commutative); the rewritten ops put `x` first, as
TVM does. The combined constant is computed at compile time with numpy's `add` /
`multiply`, the reference semantics of these ops (`dialects/relay/
reference_elementwise.py`): in the operands' dtype, integers wrapping like numpy,
with the broadcast shape of `c1` and `c2`. Reassociating is exact for integers
(wrapping arithmetic is a ring); for floats it may change the last bits, as in TVM.

Conditions beyond TVM's:

- the inner op has no other reader: rewriting would keep it for that reader and
  compute `x + c1` (or `x * c1`) a second time inside the new op, trading one op
  for one op and one more constant;
- the new result has exactly the replaced type (the module's contract): broadcasting
  is associative, so this only fails when the IR declares a less precise type than
  inference gives (`?` where a constant fixes the dim), or when `c1` and `c2` do not
  broadcast together (a `?` in `x` let both ops type-check).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xrelay.dialects.builder.expr import infer_call_type
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.dialects.relay.elementwise import AddOp, MultiplyOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_from_numpy, dense_to_numpy, tensor_element_type
from xrelay.passes.rewriting import erase_dead_ops

_NUMPY = {AddOp: np.add, MultiplyOp: np.multiply}
"""The reference semantics of the two ops, on constants."""


def _constant(value: SSAValue) -> ConstantOp | None:
    owner = value.owner
    return owner if isinstance(owner, ConstantOp) else None


def _with_constant(op: Operation) -> tuple[SSAValue, ConstantOp] | None:
    """`(x, c)` when exactly one of a binary op's operands is a `relay.constant` `c`."""
    lhs, rhs = op.operands
    left, right = _constant(lhs), _constant(rhs)
    if right is not None and left is None:
        return lhs, right
    if left is not None and right is None:
        return rhs, left
    return None


def _inner_and_constant(
    op: AddOp | MultiplyOp, inner_type: type[AddOp | MultiplyOp]
) -> tuple[SSAValue, ConstantOp, ConstantOp, Operation] | None:
    """`(x, c1, c2, inner)` for `op = inner * c2` (either order) with `inner = x * c1`
    (either order) of `inner_type`, read by `op` only."""
    result = _with_constant(op)
    if result is None:
        return None
    value, c2 = result
    inner = value.owner
    if not isinstance(inner, inner_type) or not value.has_one_use():
        return None
    operands = _with_constant(inner)
    if operands is None:
        return None  # no constant, or x is one too (FoldConstant's job)
    x, c1 = operands
    return x, c1, c2, inner


def _infer(op_type: type[AddOp | MultiplyOp], lhs: Attribute, rhs: Attribute) -> Attribute | None:
    try:
        return infer_call_type(op_type, [lhs, rhs], {})
    except RelayTypeError:
        return None


def _fold(op_type: type[AddOp | MultiplyOp], c1: ConstantOp, c2: ConstantOp) -> ConstantOp:
    """The constant `c1 op c2`, computed now with the op's reference semantics."""
    a: DenseIntOrFPElementsAttr[Any] = c1.value
    b: DenseIntOrFPElementsAttr[Any] = c2.value
    with np.errstate(all="ignore"):
        value = _NUMPY[op_type](dense_to_numpy(a), dense_to_numpy(b))
    return ConstantOp(dense_from_numpy(value, tensor_element_type(c1.result.type)))


def _replace(
    rewriter: PatternRewriter, op: Operation, new_ops: list[Operation], released: list[SSAValue]
) -> None:
    """Replace `op` by `new_ops` (the last one's result), then erase what was only `op`'s."""
    rewriter.replace(op, new_ops)
    erase_dead_ops((v.owner for v in released if isinstance(v.owner, Operation)), rewriter.erase)


def _binary(
    op_type: type[AddOp | MultiplyOp], lhs: SSAValue, rhs: SSAValue, ty: Attribute
) -> Operation:
    return op_type.build(operands=[lhs, rhs], result_types=[ty])


class SimplifyAdjacentMultiplyOrAdd(RewritePattern):
    """`(x * c1) * c2` -> `x * (c1 * c2)`, `(x + c1) + c2` -> `x + (c1 + c2)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddOp | MultiplyOp, rewriter: PatternRewriter, /) -> None:
        op_type = type(op)
        match = _inner_and_constant(op, op_type)
        if match is None:
            return
        x, c1, c2, inner = match
        constant_type = _infer(op_type, c1.result.type, c2.result.type)
        if constant_type is None or _infer(op_type, x.type, constant_type) != op.result.type:
            return
        constant = _fold(op_type, c1, c2)
        new = _binary(op_type, x, constant.result, op.result.type)
        _replace(rewriter, op, [constant, new], [*op.operands, *inner.operands])


class SwitchAddMultiply(RewritePattern):
    """`(x + c1) * c2` -> `x * c2 + (c1 * c2)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MultiplyOp, rewriter: PatternRewriter, /) -> None:
        match = _inner_and_constant(op, AddOp)
        if match is None:
            return
        x, c1, c2, inner = match
        scaled_type = _infer(MultiplyOp, x.type, c2.result.type)
        constant_type = _infer(MultiplyOp, c1.result.type, c2.result.type)
        if scaled_type is None or constant_type is None:
            return
        if _infer(AddOp, scaled_type, constant_type) != op.result.type:
            return
        constant = _fold(MultiplyOp, c1, c2)
        scaled = _binary(MultiplyOp, x, c2.result, scaled_type)
        new = _binary(AddOp, scaled.results[0], constant.result, op.result.type)
        _replace(rewriter, op, [constant, scaled, new], [*op.operands, *inner.operands])
