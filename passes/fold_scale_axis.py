"""`fold-scale-axis` (TVM's `FoldScaleAxis`): fold per-channel scales into conv2d/dense weights.

A named pipeline, TVM's `Sequential("FoldScaleAxis", ...)` (opt_level 0) of:

1. `backward-fold-scale-axis` (opt_level 3): a multiply after conv2d/dense
   (through bias adds and relus) goes into the weights;
2. `forward-fold-scale-axis` (opt_level 3): a multiply before conv2d/dense
   (through relus and bias adds) goes into the weights;
3. `fold-constant` (opt_level 2): the new weight and bias expressions on
   constants become constants.

As in TVM, the children are gated by the PassContext: run directly under the
default `opt_level` 2, the pipeline itself runs (a direct call is never gated)
but skips both folds and only folds constants; it folds scales at opt_level 3
(TVM's `test_fold_batch_norm` and `test_fold_bwd_simple_constant` use
`PassContext(opt_level=3)` for this reason).

This module also holds what the two folds share (TVM's `Message`,
`MatchBroadcastToLeftAxes`, `ExpandBiasToMatchAxis`, `IsAllPositiveConstant`,
`IsDepthwiseConv`, and a builder of typed relay ops); the two pass modules are
imported when the pipeline is built, since they import this one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove
from xrelay.dialects.builder.attrs import int_, ints
from xrelay.dialects.locations import inherit
from xrelay.dialects.relay.base import RelayOp, get_int, get_str
from xrelay.dialects.relay.creation import FullOp
from xrelay.dialects.relay.elementwise import MultiplyOp
from xrelay.dialects.relay.layout_blocked import is_plain
from xrelay.dialects.relay.nn import Conv2DOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.tensor import ExpandDimsOp, ReshapeOp, SqueezeOp, TransposeOp
from xrelay.dialects.relay.types import ANY, Shape, dense_to_numpy, shape_of
from xrelay.passes.adapters import XdslPass, XdslPipelinePass
from xrelay.passes.fold_constant import FoldConstant
from xrelay.passes.fold_scale_axis_blocked import blocked_axes
from xrelay.passes.pass_manager import Sequential

# --------------------------------------------------------------------------- #
# Shared by backward_fold_scale_axis and forward_fold_scale_axis
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class Message:
    """TVM's `Message`: a scale may be folded along `axis`; if `require_positive`, only >= 0."""

    axis: int
    require_positive: bool
    small: int | None = None
    """The axis of `axis`'s sub-axis in a blocked layout (`c` of NCHW2c): the scale is then
    2-D, along both (`fold_scale_axis_blocked.py`)."""


def intersect(a: Message | None, b: Message | None) -> Message | None:
    """TVM's `Intersect`: what both messages allow (None when they disagree on the axes)."""
    if a is None or b is None or (a.axis, a.small) != (b.axis, b.small):
        return None
    return Message(a.axis, a.require_positive or b.require_positive, a.small)


def match_broadcast(
    lhs: Shape, rhs: Shape, axis: int, small: int | None = None
) -> tuple[int, ...] | None:
    """TVM's `MatchBroadcastToLeftAxes`: does `rhs` broadcast against `lhs` as a vector along
    `axis` (and `small`: the same extents there, 1 elsewhere)? The axes of `rhs` to squeeze
    to make it that vector, or None."""
    if len(lhs) < len(rhs):
        return None
    base = len(lhs) - len(rhs)
    squeeze: list[int] = []
    for i, dim in enumerate(lhs):
        if i in (axis, small):
            if i < base or dim == ANY or rhs[i - base] != dim:
                return None
        elif i >= base:
            if rhs[i - base] != 1:
                return None
            squeeze.append(i - base)
    return tuple(squeeze)


def vectorizable(target: Shape, scale: Shape, axis: int, small: int | None = None) -> bool:
    """Whether a scale of shape `scale` multiplying `target` is a vector along `axis` (and
    `small`).

    A scalar is one too along one axis (TVM's special case, with rhs_value).
    """
    if not scale:
        return small is None and target[axis] != ANY
    return match_broadcast(target, scale, axis, small) is not None


def is_nonnegative_constant(value: SSAValue) -> bool:
    """TVM's `IsAllPositiveConstant`: a constant (through expand_dims, reshape, transpose,
    squeeze) whose elements are all >= 0."""
    owner = value.owner
    while isinstance(owner, ExpandDimsOp | ReshapeOp | TransposeOp | SqueezeOp):
        owner = owner.data.owner
    if not isinstance(owner, ConstantOp):
        return False
    array = dense_to_numpy(owner.value)
    return array.dtype.kind in "fiu" and bool(np.all(array.astype(np.float64) >= 0))


def kernel_axis(conv: Conv2DOp, dim: str) -> int:
    """The position of `dim` ("O" or "I") in the conv's kernel layout."""
    return get_str(conv.properties, "kernel_layout").index(dim)


def channel_axis(conv: Conv2DOp) -> int:
    """The channel axis of the conv's data and output (its data layout's C)."""
    return get_str(conv.properties, "data_layout").index("C")


def is_depthwise(conv: Conv2DOp) -> bool:
    """TVM's `IsDepthwiseConv`: the weight's O equals `groups` and its I is 1."""
    weight = shape_of(conv.weight.type)
    groups = get_int(conv.properties, "groups")
    return weight[kernel_axis(conv, "O")] == groups and weight[kernel_axis(conv, "I")] == 1


def has_plain_layouts(conv: Conv2DOp) -> bool:
    """Whether the conv's data and kernel layouts are plain ones (not NCHW4c, OIHW4i4o):
    blocked convolutions are left alone (where TVM folds reshaped scales)."""
    props = conv.properties
    return is_plain(get_str(props, "data_layout")) and is_plain(get_str(props, "kernel_layout"))


def is_foldable_conv(conv: Conv2DOp) -> bool:
    """Only plain (groups 1) and depthwise convolutions fold a scale (TVM's rule); in blocked
    layouts when the kernel splits its absorbing axis as the data does (forward only)."""
    if not has_plain_layouts(conv):
        return blocked_axes(conv) is not None
    return get_int(conv.properties, "groups") == 1 or is_depthwise(conv)


class NewOps:
    """Relay ops built with their inferred result types, in build order, until inserted or dropped.

    Building raises RelayTypeError when an op does not type-check; `drop`
    then erases everything built so far.
    """

    def __init__(self) -> None:
        self.ops: list[Operation] = []
        self._inserted = 0

    def op(
        self,
        cls: type[RelayOp],
        operands: Sequence[SSAValue],
        props: Mapping[str, Attribute] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ) -> SSAValue:
        """A new `cls` op on `operands`; its result."""
        new = cls.make(operands, props, attributes)
        self.ops.append(new)
        return new.results[0]

    def like(self, op: Operation, operands: Sequence[SSAValue]) -> SSAValue:
        """A copy of the relay op `op` (properties, attributes) on new operands."""
        assert isinstance(op, RelayOp)
        return self.op(type(op), operands, op.properties, op.attributes)

    def multiply(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """`relay.multiply lhs, rhs`."""
        return self.op(MultiplyOp, [lhs, rhs])

    def expand_to(self, vector: SSAValue, ndim: int, axis: int) -> SSAValue:
        """TVM's `ExpandBiasToMatchAxis`: a vector widened to broadcast along `axis` of `ndim`."""
        pad = ndim - axis - 1
        if pad <= 0:
            return vector
        return self.op(ExpandDimsOp, [vector], {"axis": int_(1), "num_newaxis": int_(pad)})

    def vector(
        self, scale: SSAValue, target: Shape, axis: int, small: int | None = None
    ) -> SSAValue:
        """The scale as a vector along `axis` (and `small`) of `target` (`vectorizable` must
        hold): squeezed, or a scalar filled to the channel count."""
        shape = shape_of(scale.type)
        if not shape:
            return self.op(FullOp, [scale], {"shape": ints([target[axis]])})
        squeeze = match_broadcast(target, shape, axis, small)
        assert squeeze is not None
        return self.op(SqueezeOp, [scale], {"axis": ints(squeeze)}) if squeeze else scale

    def insert_before(self, op: Operation) -> None:
        """Insert the ops built since the last insertion before `op`."""
        pending = self.ops[self._inserted :]
        for new in pending:
            inherit(new, op.location)  # made for `op`
        if pending:
            Rewriter.insert_op(pending, InsertPoint.before(op))
        self._inserted = len(self.ops)

    def drop(self) -> None:
        """Erase every op built (inserted or not), last first."""
        for op in reversed(self.ops):
            if op.parent is not None:
                Rewriter.erase_op(op)
            else:
                op.erase()
        self.ops.clear()
        self._inserted = 0


def dataflow_blocks(function: func.FuncOp) -> list[Block]:
    """The function's blocks and those of its `relay.if` branches (not composite bodies)."""
    blocks: list[Block] = []
    stack = list(function.body.blocks)
    while stack:
        block = stack.pop()
        blocks.append(block)
        for op in block.ops:
            if op.regions and not op.has_trait(IsolatedFromAbove):
                stack.extend(b for region in op.regions for b in region.blocks)
    return blocks


# --------------------------------------------------------------------------- #
# The pipeline
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class FoldScaleAxisPass(XdslPipelinePass):
    """Backward then forward scale folding, then FoldConstant (TVM's FoldScaleAxis)."""

    name = "fold-scale-axis"
    tvm_name: ClassVar[str] = "FoldScaleAxis"
    opt_level: ClassVar[int] = 0

    fold_constants: bool = False
    """Backward folds emit the new weights as the constants the pipeline's FoldConstant
    folds them to (`backward-fold-scale-axis{fold-constants=true}`; `optimize` sets it)."""

    def passes(self) -> list[Any]:
        from xrelay.passes.backward_fold_scale_axis import BackwardFoldScaleAxisPass
        from xrelay.passes.forward_fold_scale_axis import ForwardFoldScaleAxis

        backward = XdslPass(BackwardFoldScaleAxisPass(fold_constants=self.fold_constants))
        return [backward, ForwardFoldScaleAxis(), FoldConstant()]


def FoldScaleAxis() -> Sequential:
    """TVM's `relay.transform.FoldScaleAxis()`: the pipeline as a `Sequential`."""
    return FoldScaleAxisPass().build()
