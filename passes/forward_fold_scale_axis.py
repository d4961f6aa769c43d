"""`forward-fold-scale-axis` (TVM's `ForwardFoldScaleAxis`): input scales into the weights.

Rewrites, in every optimizable function (a function pass, opt_level 3)::

    conv2d(add(relu(multiply(x, s)), bias), w)          s: [C,1,1] >= 0 (a relu is in the way)
      -> conv2d(add(relu(x), bias / expand_dims(s', 1, 2)), w * expand_dims(s', 1, 2))
    dense(multiply(x, s[K]), w)  ->  dense(x, w * s)

TVM's algorithm (`src/relay/transforms/fold_scale_axis.cc`), in two phases:

- *prepare*, against program order: each consumer says along which axis it
  could absorb a scale of each operand. conv2d (groups 1 or depthwise) accepts
  one on its data's channel axis, dense on its data's last axis; relu and
  leaky_relu pass the demand of their result on to their input, requiring a
  positive scale; add/subtract pass it on to the operand that has the full
  shape when the other broadcasts as a vector along the axis. A value's message
  is the intersection of what all its users accept (`Message`, `intersect` of
  `fold_scale_axis`): one user that accepts nothing (another op, a
  `func.return`, an op in another block) blocks the fold;
- *rewrite*, in program order: a `multiply` whose result has a message and one
  of whose operands is a vector along its axis (`squeeze`d to one; a scalar is
  filled to the channel count with `relay.full`), and, if a relu is in the way,
  a constant with no negative element, becomes that scale riding on the other
  operand; relu/leaky_relu apply to the unscaled value; an add/subtract divides
  its other operand by the scale (`bias / expand_dims(s')`); conv2d multiplies
  its weight along the kernel's I axis (the O axis for a depthwise conv), dense
  along its weight's last axis. The consumers are replaced, and the multiply and
  the old ops between it and them are erased.

New weights are relay ops on the old ones (multiply, expand_dims, squeeze,
divide), folded by FoldConstant when they are constants, as in TVM.

Where it differs from TVM, and why:

- Only floating-point multiplies are folded: an add on the way turns into an
  integer division of the bias, which truncates (TVM folds integer scales too).
- If any rewrite of a block fails to type-check, the whole block is left as it
  was; TVM aborts with "outstanding scale" where a scaled value cannot be
  consumed.
- Blocked convolutions (`NCHW2c` data, `OIHW2i4o` kernels) fold a 2-D scale
  as TVM (`fold_scale_axis_blocked.py`) when the kernel splits its absorbing
  axis too; BackwardFoldScaleAxis leaves them alone.
- The rest as in `backward-fold-scale-axis`: dense's last axis (TVM says
  axis 1), `relay.full` instead of `repeat`, per-block dataflow, composite
  bodies untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xrelay.dialects.builder.attrs import ints
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.dialects.relay.elementwise import AddOp, DivideOp, MultiplyOp, SubtractOp
from xrelay.dialects.relay.nn import Conv2DOp, DenseOp, LeakyReluOp, ReluOp
from xrelay.dialects.relay.tensor import ReshapeOp
from xrelay.dialects.relay.types import is_float, rank_of, shape_of, tensor_element_type
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.fold_scale_axis import (
    Message,
    NewOps,
    channel_axis,
    dataflow_blocks,
    has_plain_layouts,
    intersect,
    is_depthwise,
    is_foldable_conv,
    is_nonnegative_constant,
    kernel_axis,
    match_broadcast,
    vectorizable,
)
from xrelay.passes.fold_scale_axis_blocked import blocked_axes, reshape_shape
from xrelay.passes.pass_manager import Pass
from xrelay.passes.rewriting import erase_dead_ops


@dataclass(frozen=True)
class Scaled:
    """TVM's `ScaledExpr`: the true value is `value` times the vector `scale` along `axis`."""

    value: SSAValue
    axis: int
    scale: SSAValue
    small: int | None = None
    """The sub-axis the scale also rides on (blocked layouts, `fold_scale_axis_blocked.py`)."""


def _prepare(op: Operation, out: Message | None) -> list[Message | None]:
    """TVM's `FScaleAxisForwardPrep` of each op: what it accepts on each operand."""
    accepted: list[Message | None] = [None] * len(op.operands)
    if isinstance(op, Conv2DOp):
        if is_foldable_conv(op) and has_plain_layouts(op):
            accepted[0] = Message(channel_axis(op), False)
        elif is_foldable_conv(op):
            big, small, _, _ = blocked_axes(op) or (0, None, 0, None)
            accepted[0] = Message(big, False, small)
    elif isinstance(op, DenseOp):
        accepted[0] = Message(rank_of(op.data.type) - 1, False)
    elif out is None:
        pass
    elif isinstance(op, ReluOp | LeakyReluOp):
        accepted[0] = Message(out.axis, True, out.small)
    elif isinstance(op, AddOp | SubtractOp):
        ls, rs = shape_of(op.lhs.type), shape_of(op.rhs.type)
        if match_broadcast(ls, rs, out.axis, out.small) is not None:
            accepted[0] = out
        elif match_broadcast(rs, ls, out.axis, out.small) is not None:
            accepted[1] = out
    return accepted


def _demand(value: SSAValue, accepted: dict[Operation, list[Message | None]]) -> Message | None:
    """The intersection of what every user of `value` accepts (None if one accepts nothing)."""
    message: Message | None = None
    for index, use in enumerate(value.uses):
        by_user = accepted.get(use.operation)
        offered = by_user[use.index] if by_user is not None else None
        message = offered if index == 0 else intersect(message, offered)
        if message is None:
            return None
    return message


def _prepare_block(block: Block) -> dict[SSAValue, Message]:
    """The message of each value of the block that every user can absorb a scale of."""
    accepted: dict[Operation, list[Message | None]] = {}
    messages: dict[SSAValue, Message] = {}
    for op in reversed(list(block.ops)):
        out = _demand(op.results[0], accepted) if len(op.results) == 1 else None
        if out is not None:
            messages[op.results[0]] = out
        accepted[op] = _prepare(op, out)
    return messages


def _rewrite(
    op: Operation, messages: dict[SSAValue, Message], scaled: dict[SSAValue, Scaled], new: NewOps
) -> SSAValue | None:
    """TVM's `FScaleAxisForwardRewrite` of each op; records scaled values, returns a consumer's
    replacement."""
    if isinstance(op, MultiplyOp):
        message = messages.get(op.result)
        if message is None or not is_float(tensor_element_type(op.result.type)):
            return None
        for value, scale in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            target = shape_of(value.type)
            axis, small = message.axis, message.small
            if vectorizable(target, shape_of(scale.type), axis, small) and (
                not message.require_positive or is_nonnegative_constant(scale)
            ):
                vector = new.vector(scale, target, axis, small)
                scaled[op.result] = Scaled(value, axis, vector, small)
                return None
        return None
    if isinstance(op, ReluOp | LeakyReluOp):
        inner = scaled.get(op.data)
        if inner is not None:
            value = new.like(op, [inner.value])
            scaled[op.result] = Scaled(value, inner.axis, inner.scale, inner.small)
        return None
    if isinstance(op, AddOp | SubtractOp):
        lhs, rhs = scaled.get(op.lhs), scaled.get(op.rhs)
        if lhs is not None:
            wide = _widened(new, lhs, shape_of(op.lhs.type))
            value = new.like(op, [lhs.value, new.op(DivideOp, [op.rhs, wide])])
            scaled[op.result] = Scaled(value, lhs.axis, lhs.scale, lhs.small)
        elif rhs is not None:
            wide = _widened(new, rhs, shape_of(op.rhs.type))
            value = new.like(op, [new.op(DivideOp, [op.lhs, wide]), rhs.value])
            scaled[op.result] = Scaled(value, rhs.axis, rhs.scale, rhs.small)
        return None
    if isinstance(op, Conv2DOp):
        data = scaled.get(op.data)
        if data is None:
            return None
        if data.small is None:
            axis = kernel_axis(op, "O" if is_depthwise(op) else "I")
            weight = new.multiply(op.weight, new.expand_to(data.scale, 4, axis))
        else:
            _, _, kbig, ksmall = blocked_axes(op) or (0, None, 0, None)
            assert ksmall is not None
            shape = reshape_shape(shape_of(op.weight.type), kbig, ksmall)
            wide = new.op(ReshapeOp, [data.scale], {"newshape": ints(shape)})
            weight = new.multiply(op.weight, wide)
        return new.like(op, [data.value, weight])
    if isinstance(op, DenseOp):
        data = scaled.get(op.data)
        if data is None:
            return None
        return new.like(op, [data.value, new.multiply(op.weight, data.scale)])
    return None


def _widened(new: NewOps, scaled: Scaled, shape: tuple[int, ...]) -> SSAValue:
    """The scale broadcasting against a value of `shape` (TVM's ReshapeOrExpandToMatchAxis)."""
    if scaled.small is None:
        return new.expand_to(scaled.scale, len(shape), scaled.axis)
    target = reshape_shape(shape, scaled.axis, scaled.small)
    return new.op(ReshapeOp, [scaled.scale], {"newshape": ints(target)})


def fold_forward(block: Block) -> None:
    """Fold the scales of one block into the consumers that absorb them, or leave it as is."""
    messages = _prepare_block(block)
    if not any(isinstance(value.owner, MultiplyOp) for value in messages):
        return
    new = NewOps()
    scaled: dict[SSAValue, Scaled] = {}
    replaced: dict[Operation, SSAValue] = {}
    try:
        for op in list(block.ops):
            replacement = _rewrite(op, messages, scaled, new)
            new.insert_before(op)
            if replacement is not None:
                replaced[op] = replacement
    except RelayTypeError:
        new.drop()
        return
    rewritten = set(replaced) | {value.owner for value in scaled}
    if (
        not replaced
        or any(use.operation not in rewritten for value in scaled for use in value.uses)
        or any(op.results[0].type != value.type for op, value in replaced.items())
    ):
        new.drop()  # a scaled value would be left unconsumed (TVM: "outstanding scale")
        return
    for op, value in replaced.items():
        Rewriter.replace_op(op, [], [value])
    erase_dead_ops(value.owner for value in scaled if isinstance(value.owner, Operation))


@dataclass(frozen=True)
class ForwardFoldScaleAxisPass(XdslFunctionPass):
    """Fold a per-channel multiply before conv2d/dense into its weights (ForwardFoldScaleAxis)."""

    name = "forward-fold-scale-axis"
    tvm_name: ClassVar[str] = "ForwardFoldScaleAxis"
    opt_level: ClassVar[int] = 3

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        for block in dataflow_blocks(function):
            fold_forward(block)


def ForwardFoldScaleAxis() -> Pass:
    """TVM's `relay.transform.ForwardFoldScaleAxis()`."""
    return XdslPass(ForwardFoldScaleAxisPass())
