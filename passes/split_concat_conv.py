"""`split-concat-conv` (`SplitConcatConv`): a convolution over a channel concatenation as a
sum of convolutions over its pieces, so the concatenation is never copied.

A convolution is linear in its input channels: with `x = concatenate([x0, ..., xn], 1)`
and the weight's input channels cut at the same places (`W0, ..., Wn`, constants),

    conv2d(x, W) = conv2d(x0, W0) + ... + conv2d(xn, Wn)

The rewrite, for an NCHW / OIHW `nn.conv2d` with `groups = 1` whose data is a
`relay.concatenate` along the channels read by that convolution only, and a constant
weight::

    s = conv2d(x0, W0); s = add(conv2d(x1, W1), s); ...
    out = add(bias(conv2d(xn, Wn)), s)

`bias` is the convolution's bias when its one user adds one (`nn.bias_add` along the
channels, or `add` with a constant: CanonicalizeOps' form), so that every convolution
after the first is a BYOC pattern's `conv2d[_bias]_sum[_relu]` (oneDNN's sum post-op,
accel's and the host's residual epilogue): each partial sum is accumulated by the next
convolution's store, with no pass of its own. SqueezeNet's fire modules (an expand 1x1
and 3x3 concatenated into the next squeeze 1x1) lose their concatenation copies.

A 2-D max or average pool (NCHW) of a channel concatenation read by it alone is moved
before the concatenation (`pool(concatenate(xs)) = concatenate(pool(x)...)`, a
per-channel op; the same work, and the copy moves the pooled, smaller tensors), so a
convolution after the pool is split too: SqueezeNet's fire modules before its pools lose
their copies as well.

The rewrite is taken only when the extra partial sums move at most what the
concatenation copies: `(pieces - 1) * output elements <= input elements` (a squeeze
convolution's few output channels, not a wide expansion). Float sums in another order
than one convolution's: within float32 rounding of the float64 reference (issue 16).
Composite bodies and `Compiler` functions are left alone (a function pass). Builds for
BYOC targets run it before partitioning (`codegen/c/pipeline.py`'s prelude); a host-only
build does not (not in `optimize`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects.relay.base import get_int, normalize_axis
from xrelay.dialects.relay.elementwise import AddOp
from xrelay.dialects.relay.nn import BiasAddOp, Conv2DOp
from xrelay.dialects.relay.nn_pool import Pool2DOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.tensor import ConcatenateOp
from xrelay.dialects.relay.types import dense_from_numpy, dense_to_numpy, shape_of
from xrelay.passes.adapters import XdslFunctionPass
from xrelay.passes.canonicalize_ops import inside_composite
from xrelay.passes.greedy import rewrite_greedily


def _channel_concat(value: SSAValue) -> ConcatenateOp | None:
    """`value`'s producer if it concatenates rank-4 NCHW tensors along the channels and
    `value` has no other user than the one asking."""
    concat = value.owner
    if not isinstance(concat, ConcatenateOp) or len(concat.data) < 2:
        return None
    if len(list(concat.result.uses)) != 1 or len(shape_of(concat.result.type)) != 4:
        return None
    if normalize_axis(get_int(concat.properties, "axis"), 4) != 1:
        return None
    return concat


class PoolOverConcat(RewritePattern):
    """`pool(concatenate(xs, 1))` -> `concatenate([pool(x) for x in xs], 1)` for an NCHW 2-D
    max or average pool (a per-channel op): the copy moves the smaller pooled tensors, and a
    convolution after it can be split."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Pool2DOp, rewriter: PatternRewriter, /) -> None:
        if inside_composite(op) or op.properties.get("layout") != StringAttr("NCHW"):
            return
        concat = _channel_concat(op.data)
        if concat is None:
            return
        pools = [type(op).make([piece], dict(op.properties)) for piece in concat.data]
        for pool in pools:
            rewriter.insert(pool, InsertPoint.before(op))
        joined = ConcatenateOp.make([p.results[0] for p in pools], dict(concat.properties))
        rewriter.replace(op, joined)
        rewriter.erase(concat)


def _size(value: SSAValue) -> int:
    return int(np.prod(shape_of(value.type)))


def bias_user(conv: Conv2DOp) -> Operation | None:
    """The convolution's one user when it adds a per-channel bias, else None."""
    uses = list(conv.result.uses)
    if len(uses) != 1:
        return None
    user = uses[0].operation
    if isinstance(user, BiasAddOp) and user.data is conv.result:
        rank = len(shape_of(user.data.type))
        if normalize_axis(get_int(user.properties, "axis"), rank) == 1:
            return user
        return None
    if isinstance(user, AddOp) and user.lhs is conv.result:
        other = user.rhs
        shape = shape_of(other.type)
        out = shape_of(conv.result.type)
        channel = len(shape) == 3 and shape[0] == out[1] and shape[1:] == (1, 1)
        if isinstance(other.owner, ConstantOp) and channel and user.result.type == conv.result.type:
            return user
    return None


class SplitConvOverConcat(RewritePattern):
    """`conv2d(concatenate(xs, 1), W)` -> a sum of convolutions over the pieces."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv2DOp, rewriter: PatternRewriter, /) -> None:
        if inside_composite(op) or get_int(op.properties, "groups") != 1:
            return
        layouts = (op.properties.get("data_layout"), op.properties.get("kernel_layout"))
        if layouts != (StringAttr("NCHW"), StringAttr("OIHW")):
            return
        concat = _channel_concat(op.data)
        constant = op.weight.owner
        if concat is None or not isinstance(constant, ConstantOp):
            return
        pieces = list(concat.data)
        if (len(pieces) - 1) * _size(op.result) > _size(concat.result):
            return
        value = cast(DenseIntOrFPElementsAttr[Any], constant.value)
        weight = np.asarray(dense_to_numpy(value)).reshape(shape_of(op.weight.type))
        props: dict[str, Attribute] = dict(op.properties)
        convs: list[Conv2DOp] = []
        start = 0
        for piece in pieces:
            channels = shape_of(piece.type)[1]
            part = np.ascontiguousarray(weight[:, start : start + channels])
            start += channels
            part_op = ConstantOp(dense_from_numpy(part))
            conv = Conv2DOp.make([piece, part_op.result], props)
            rewriter.insert(part_op, InsertPoint.before(op))
            rewriter.insert(conv, InsertPoint.before(op))
            convs.append(conv)
        total: SSAValue = convs[0].result
        for conv in convs[1:-1]:
            add = AddOp.make([conv.result, total])
            rewriter.insert(add, InsertPoint.before(op))
            total = add.result
        bias = bias_user(op)
        last = convs[-1].result
        if bias is None:
            rewriter.replace(op, AddOp.make([last, total]))
            rewriter.erase(concat)
            return
        biased = bias.clone()
        biased.operands[0] = last
        final = AddOp.make([biased.results[0], total])
        rewriter.replace(bias, [biased, final], [final.result])
        rewriter.erase(op)
        rewriter.erase(concat)


@dataclass(frozen=True)
class SplitConcatConvPass(XdslFunctionPass):
    """A convolution over a channel concatenation as a sum of convolutions over its pieces."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "split-concat-conv"
    tvm_name: ClassVar[str] = "SplitConcatConv"
    opt_level: ClassVar[int] = 3

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        rewrite_greedily(
            function.body, [SplitConvOverConcat(), PoolOverConcat()], apply_recursively=False
        )
