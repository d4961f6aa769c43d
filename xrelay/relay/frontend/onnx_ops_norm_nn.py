"""Converters for ONNX's normalizations that map onto one `relay.nn` op each: LRN
(`nn.lrn`), InstanceNormalization (`nn.instance_norm`) and GroupNormalization
(`nn.group_norm`)."""

from __future__ import annotations

from xrelay.dialects.builder import nn_norm as NORM
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
