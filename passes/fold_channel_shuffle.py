"""`fold-channel-shuffle` (`FoldChannelShuffle`): ShuffleNet's channel shuffle folded into the
convolution after it, or moved past a strided depthwise convolution.

A channel shuffle of `g` groups on NCHW `x` (C channels) is
`reshape(transpose(reshape(x, (N, g, C/g, H, W)), (0, 2, 1, 3, 4)), (N, C, H, W))`:
`y[:, o] = x[:, p(o)]` with `p(j * g + i) = i * (C/g) + j`. Two rewrites, both exact
(the same products and sums, in the same order):

- **absorb**: `conv2d(y, W)` with `groups = 1` (NCHW / OIHW) and a constant `W` is
  `conv2d(x, W')` with `W'[:, p(c)] = W[:, c]`: the weight's input channels permuted, the
  shuffle's copy gone once nothing else reads it.
- **move**: a depthwise `conv2d(y, W)` (`groups = C`, one output channel per input channel,
  constant `W`) with a smaller output than its input (strided) is
  `shuffle(conv2d(x, W'))`, `W'[p(o)] = W[o]`, and the same for a per-channel bias its one
  user adds (`nn.bias_add` on the channels, or `add` of a constant, as SimplifyInference and
  FoldScaleAxis leave a batch norm): the shuffle then copies the smaller output, after the
  bias, so the convolution keeps its bias epilogue.

Not valid, and left alone: a grouped convolution (`1 < groups < C`) after the shuffle reads
channel blocks the shuffle interleaves (its weight cannot be permuted into contiguous
groups), and a grouped convolution before it writes them. ShuffleNet v1 (every pointwise
convolution grouped, as in ONNX's light ShuffleNet) therefore keeps its shuffles except for
the move past its three stride-2 depthwise convolutions.

Composite bodies are left alone (a function pass). Builds for BYOC targets run it before
partitioning, after FoldScaleAxis (`codegen/c/pipeline.py`'s prelude).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay.base import get_int, get_opt_ints
from xrelay.dialects.relay.nn import Conv2DOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.tensor import ReshapeOp, TransposeOp
from xrelay.dialects.relay.types import dense_from_numpy, dense_to_numpy, shape_of
from xrelay.passes.adapters import XdslFunctionPass
from xrelay.passes.canonicalize_ops import inside_composite
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.split_concat_conv import bias_user

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Shuffle:
    """A channel shuffle's source `x` and group count `g`."""

    source: SSAValue
    groups: int

    def sources(self, channels: int) -> Array:
        """`p`: output channel `o` of the shuffle reads channel `p[o]` of its source."""
        o = np.arange(channels)
        return (o % self.groups) * (channels // self.groups) + o // self.groups


def channel_shuffle(value: SSAValue) -> Shuffle | None:
    """The shuffle whose last reshape makes `value`, or None."""
    last = value.owner
    if not isinstance(last, ReshapeOp):
        return None
    swap = last.operands[0].owner
    if not isinstance(swap, TransposeOp):
        return None
    if tuple(get_opt_ints(swap.properties, "axes") or ()) != (0, 2, 1, 3, 4):
        return None
    first = swap.operands[0].owner
    if not isinstance(first, ReshapeOp):
        return None
    source = first.operands[0]
    shape = shape_of(source.type)
    split = shape_of(first.results[0].type)
    if len(shape) != 4 or shape_of(value.type) != shape or len(split) != 5:
        return None
    n, c, h, w = shape
    g = split[1]
    if split != (n, g, c // g, h, w) or g * (c // g) != c:
        return None
    return Shuffle(source, g)


def _constant(value: SSAValue) -> Array | None:
    op = value.owner
    if not isinstance(op, ConstantOp):
        return None
    data = cast(DenseIntOrFPElementsAttr[Any], op.value)
    return np.asarray(dense_to_numpy(data)).reshape(shape_of(value.type))


def _nchw(op: Conv2DOp) -> bool:
    layouts = (op.properties.get("data_layout"), op.properties.get("kernel_layout"))
    return layouts == (StringAttr("NCHW"), StringAttr("OIHW"))


class AbsorbShuffle(RewritePattern):
    """`conv2d(shuffle(x), W)` (groups 1, constant W) -> `conv2d(x, W')`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv2DOp, rewriter: PatternRewriter, /) -> None:
        if inside_composite(op) or get_int(op.properties, "groups") != 1 or not _nchw(op):
            return
        shuffle = channel_shuffle(op.data)
        weight = _constant(op.weight)
        if shuffle is None or weight is None:
            return
        permuted = np.empty_like(weight)
        permuted[:, shuffle.sources(weight.shape[1])] = weight
        constant = ConstantOp(dense_from_numpy(permuted))
        rewriter.insert(constant, InsertPoint.before(op))
        rewriter.replace(op, Conv2DOp.make([shuffle.source, constant.result], dict(op.properties)))


def _permuted_constant(array: Array, order: Array) -> ConstantOp:
    """A constant holding `array` with its first axis permuted: `out[order[o]] = array[o]`."""
    out = np.empty_like(array)
    out[order] = array
    return ConstantOp(dense_from_numpy(out))


class MoveShuffleAfterDepthwise(RewritePattern):
    """Strided depthwise `conv2d(shuffle(x), W)` [+ bias] -> `shuffle(conv2d(x, W') [+ bias'])`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv2DOp, rewriter: PatternRewriter, /) -> None:
        if inside_composite(op) or not _nchw(op):
            return
        shuffle = channel_shuffle(op.data)
        weight = _constant(op.weight)
        if shuffle is None or weight is None:
            return
        n, c, h, w = shape_of(op.data.type)
        out = shape_of(op.result.type)
        depthwise = get_int(op.properties, "groups") == c and weight.shape[:2] == (c, 1)
        if not depthwise or out[1] != c or out[2] * out[3] >= h * w:
            return
        order = shuffle.sources(c)
        made: list[Operation] = []
        constant = _permuted_constant(weight, order)
        conv = Conv2DOp.make([shuffle.source, constant.result], dict(op.properties))
        made += [constant, conv]
        last: Operation = op
        value = conv.results[0]
        bias = bias_user(op)
        if bias is not None:
            operand = 1
            vector = _constant(bias.operands[operand])
            if vector is not None and vector.shape[0] == c:
                added = _permuted_constant(vector, order)
                biased = bias.clone()
                biased.operands[0] = value
                biased.operands[operand] = added.result
                made += [added, biased]
                last, value = bias, biased.results[0]
        g = shuffle.groups
        split = ReshapeOp.make([value], {"newshape": attrs.ints([n, g, c // g, out[2], out[3]])})
        swap = TransposeOp.make([split.results[0]], {"axes": attrs.ints([0, 2, 1, 3, 4])})
        joined = ReshapeOp.make([swap.results[0]], {"newshape": attrs.ints(list(out))})
        made += [split, swap, joined]
        for new in made[:-1]:
            rewriter.insert(new, InsertPoint.before(last))
        rewriter.replace(last, joined)
        if last is not op:
            rewriter.erase(op)


@dataclass(frozen=True)
class FoldChannelShufflePass(XdslFunctionPass):
    """ShuffleNet's channel shuffle folded into the convolution after it, or moved past a
    strided depthwise convolution (module docstring)."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "fold-channel-shuffle"
    tvm_name: ClassVar[str] = "FoldChannelShuffle"
    opt_level: ClassVar[int] = 3

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        rewrite_greedily(
            function.body,
            [MoveShuffleAfterDepthwise(), AbsorbShuffle()],
            apply_recursively=False,
        )
