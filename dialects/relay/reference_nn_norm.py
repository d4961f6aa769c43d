"""Reference semantics of the normalization `relay.nn` ops (`nn_norm`), in numpy.

Sums of squares, means and variances are computed in float64 in a fixed order
(the C target's order), then the result is converted to the data's type.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import nn_norm
from xrelay.dialects.relay.base import (
    get_bool,
    get_float,
    get_int,
    get_ints,
    properties_with_defaults,
)

Array = npt.NDArray[Any]


def lrn_data(x: Array, size: int, axis: int, bias: float, alpha: float, beta: float) -> Array:
    """`relay.nn.lrn` in float64: each channel's window of squares summed in channel order."""
    data = np.moveaxis(x.astype(np.float64), axis, 0)
    before, after = nn_norm.lrn_window(size)
    channels = data.shape[0]
    squares = data * data
    total = np.zeros_like(data)
    for c in range(channels):
        for k in range(max(0, c - before), min(channels, c + after + 1)):
            total[c] += squares[k]
    with np.errstate(all="ignore"):
        out = data / np.power(bias + alpha / size * total, beta)  # C's pow, no fast path
    return np.moveaxis(out, 0, axis)


@reference(nn_norm.LRNOp)
def _lrn(ev: Evaluator, op: nn_norm.LRNOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return lrn_data(
        x,
        op.size.value.data,
        op.axis.value.data % x.ndim,
        op.bias.value.data,
        op.alpha.value.data,
        op.beta.value.data,
    )


def grouped_shape(shape: tuple[int, ...], axis: int, groups: int) -> tuple[int, ...]:
    """`shape` with its dim on `axis` (C) split into `(groups, C // groups)`."""
    return (*shape[:axis], groups, shape[axis] // groups, *shape[axis + 1 :])


def norm_data(
    x: Array,
    gamma: Array,
    beta: Array,
    op_name: str,
    axis: int,
    epsilon: float,
    center: bool,
    scale: bool,
    groups: int = 1,
) -> Array:
    """A layer, instance or group norm in float64 (mean, then the mean squared deviation)."""
    data = x.astype(np.float64)
    if op_name == nn_norm.GroupNormOp.name:
        data = data.reshape(grouped_shape(x.shape, axis, groups))
    reduced = nn_norm.norm_reduced_axes(op_name, x.ndim, axis)
    with np.errstate(all="ignore"):  # empty groups, NaN and Inf
        mean = data.mean(axis=reduced, keepdims=True)
        deviation = data - mean
        var = (deviation * deviation).mean(axis=reduced, keepdims=True)
        out = (deviation / np.sqrt(var + epsilon)).reshape(x.shape)
        along = [1] * x.ndim
        along[axis] = x.shape[axis]
        if scale:
            out = out * gamma.astype(np.float64).reshape(along)
        if center:
            out = out + beta.astype(np.float64).reshape(along)
    return out


@reference(nn_norm.LayerNormOp, nn_norm.InstanceNormOp, nn_norm.GroupNormOp)
def _norm(ev: Evaluator, op: nn_norm.NormOp, args: list[Value]) -> Value:
    x, gamma, beta = (np.asarray(a) for a in args)
    props = properties_with_defaults(op)
    return norm_data(
        x,
        gamma,
        beta,
        op.name,
        get_int(props, "axis") % x.ndim,
        get_float(props, "epsilon"),
        get_bool(props, "center"),
        get_bool(props, "scale"),
        get_int(props, "num_groups") if "num_groups" in props else 1,
    )


@reference(nn_norm.L2NormalizeOp)
def _l2_normalize(ev: Evaluator, op: nn_norm.L2NormalizeOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    props = properties_with_defaults(op)
    axes = nn_norm.l2_axes(get_ints(props, "axis"), x.ndim)
    data = x.astype(np.float64)
    with np.errstate(all="ignore"):
        total = (data * data).sum(axis=axes, keepdims=True)
        return data / np.sqrt(np.maximum(total, get_float(props, "eps")))
