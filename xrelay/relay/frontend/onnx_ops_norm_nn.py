"""Converters for ONNX's normalizations that map onto one `relay.nn` op each: LRN
(`nn.lrn`), InstanceNormalization (`nn.instance_norm`) and GroupNormalization
(`nn.group_norm`)."""

from __future__ import annotations

from xrelay.dialects.builder import movement as MOVE
from xrelay.dialects.builder import nn_norm as NORM
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_registry import Node, Result, converter

FLOATS = ("float16", "bfloat16", "float32", "float64")


def _float_input(node: Node) -> None:
    dtype = node.dtype(0)
    node.refuse(dtype not in FLOATS, f"input has element type {dtype}; floats only")


@converter("LRN", 1)
def lrn_v1(node: Node) -> Result:
    """LRN across channels (axis 1): x / (bias + alpha / size * square sum) ** beta.

    ONNX's window is `c - (size - 1) // 2` to `c + size // 2`, the channels that
    exist: `nn.lrn`'s (docs/semantics.md), with the same `alpha / size` scaling.
    """
    _float_input(node)
    rank = node.rank(0)
    node.refuse(rank < 2, f"input rank {rank} < 2 (no channel axis)")
    size = node.int_attr("size", 0)
    node.refuse(size < 1, f"size {size} < 1")
    return NORM.lrn(
        node.expr(0),
        size=size,
        axis=1,
        bias=node.float_attr("bias", 1.0),
        alpha=node.float_attr("alpha", 1e-4),
        beta=node.float_attr("beta", 0.75),
    )


@converter("InstanceNormalization", 1)
def instance_normalization_v1(node: Node) -> Result:
    """InstanceNormalization: per sample and channel over the spatial dims, * scale + B."""
    _float_input(node)
    rank = node.rank(0)
    node.refuse(rank < 3, f"input rank {rank} < 3 (no spatial dims)")
    return NORM.instance_norm(
        node.expr(0), node.expr(1), node.expr(2), axis=1, epsilon=node.float_attr("epsilon", 1e-5)
    )


@converter("GroupNormalization", 18)
def group_normalization_v18(node: Node) -> Result:
    """GroupNormalization: `num_groups` groups of channels normalized per sample; the scale
    and bias are per channel from opset 21, per group before (repeated to channels)."""
    _float_input(node)
    shape = node.shape(0)
    node.refuse(len(shape) < 3, f"input rank {len(shape)} < 3 (no spatial dims)")
    groups = node.int_attr("num_groups", 0)
    channels = shape[1]
    node.refuse(groups < 1, f"num_groups {groups} < 1")
    node.refuse(channels == ANY, "the channel dim must be static")
    node.refuse(channels % groups != 0, f"{channels} channels are not divisible by {groups} groups")
    scale, bias = node.expr(1), node.expr(2)
    per_param = channels if node.opset >= 21 else groups
    for index, what in ((1, "scale"), (2, "bias")):
        got = node.shape(index)
        node.refuse(got != (per_param,), f"{what} has shape {list(got)}, not [{per_param}]")
    if per_param != channels:
        scale, bias = (_repeat_groups(v, groups, channels // groups) for v in (scale, bias))
    return NORM.group_norm(
        node.expr(0), scale, bias, groups, axis=1, epsilon=node.float_attr("epsilon", 1e-5)
    )


def _repeat_groups(values: Expr, groups: int, times: int) -> Expr:
    """`[G]` values repeated to `[G * times]`, each value `times` in a row."""
    grid = MOVE.broadcast_to(T.reshape(values, [groups, 1]), [groups, times])
    return T.reshape(grid, [groups * times])
