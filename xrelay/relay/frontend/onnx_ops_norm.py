"""Converters for ONNX's LayerNormalization and RMSNormalization, decomposed onto relay ops.

Both normalize over the dims from `axis` on. The statistics are computed in
`stash_type` (float32 by default) when the input is a narrower float, as the
spec asks; float32 and float64 inputs are computed in their own type (ONNX's
reference does that too).
"""

from __future__ import annotations

import math

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn_norm as NORM
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype
from xrelay.relay.frontend.onnx_registry import Node, Result, converter

FLOATS = ("float16", "bfloat16", "float32", "float64")
WIDTH = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}


def _axes(node: Node) -> list[int]:
    """The normalized dims: `axis` (default -1) to the last."""
    rank = node.rank(0)
    axis = node.int_attr("axis", -1)
    node.refuse(not -rank <= axis < rank, f"axis {axis} out of range for rank {rank}")
    return list(range(axis % rank, rank))


def _stash_dtype(node: Node) -> str:
    """The dtype the statistics are computed in: the wider of the input and `stash_type`."""
    dtype = node.dtype(0)
    node.refuse(dtype not in FLOATS, f"input has element type {dtype}; floats only")
    stash = node.int_attr("stash_type", 1)
    stash_dtype = relay_dtype(stash)
    node.refuse(
        stash_dtype not in FLOATS, f"stash_type {onnx_type_name(stash)} is not a float type"
    )
    assert stash_dtype is not None
    return stash_dtype if WIDTH[stash_dtype] > WIDTH[dtype] else dtype


def _cast(x: Expr, dtype: str, current: str) -> Expr:
    return x if dtype == current else E.cast(x, dtype)


def _scalar(value: float, dtype: str) -> Expr:
    return const(np.asarray(value), dtype)


@converter("LayerNormalization", 17)
def layer_normalization_v17(node: Node) -> Result:
    """LayerNormalization: Y = (x - mean) / sqrt(var + epsilon) * Scale + B; Mean, InvStdDev.

    With a static shape, Y's normalization is `nn.layer_norm` over the input reshaped to
    2-D at `axis` (the statistics in float64, rounded once; docs/semantics.md), then
    `* Scale + B`; Mean and InvStdDev, when used, are computed in `stash_type` as the
    spec says.
    """
    axes = _axes(node)
    dtype = node.dtype(0)
    stash = _stash_dtype(node)
    epsilon = node.float_attr("epsilon", 1e-5)
    shape = node.shape(0)
    normalized: Expr | None = None
    if ANY not in shape:
        inner = math.prod(shape[axes[0] :])
        flat = T.reshape(node.expr(0), [math.prod(shape[: axes[0]]), inner])
        ones, zeros = (const(np.full(inner, v), dtype) for v in (1.0, 0.0))
        norm = NORM.layer_norm(flat, ones, zeros, -1, epsilon, center=False, scale=False)
        normalized = T.reshape(norm, list(shape))
    mean = inv_std = None
    if normalized is None or node.num_outputs > 1:
        x = _cast(node.expr(0), stash, dtype)
        mean = T.mean(x, axes, keepdims=True)
        diff = E.subtract(x, mean)
        variance = T.mean(E.multiply(diff, diff), axes, keepdims=True)
        inv_std = E.divide(_scalar(1.0, stash), E.sqrt(E.add(variance, _scalar(epsilon, stash))))
        if normalized is None:
            normalized = _cast(E.multiply(diff, inv_std), dtype, stash)
    y: Expr = E.multiply(normalized, node.expr(1))
    if node.has(2):
        y = E.add(y, node.expr(2))
    return [y, mean, inv_std]


@converter("RMSNormalization", 23)
def rms_normalization_v23(node: Node) -> Result:
    """RMSNormalization: Y = x / sqrt(mean(x^2) + epsilon) * scale."""
    axes = _axes(node)
    dtype = node.dtype(0)
    stash = _stash_dtype(node)
    x = _cast(node.expr(0), stash, dtype)
    mean_square = T.mean(E.multiply(x, x), axes, keepdims=True)
    epsilon = _scalar(node.float_attr("epsilon", 1e-5), stash)
    inv_rms = E.divide(_scalar(1.0, stash), E.sqrt(E.add(mean_square, epsilon)))
    return E.multiply(_cast(E.multiply(x, inv_rms), dtype, stash), node.expr(1))
