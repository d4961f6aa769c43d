"""Reference semantics of the `relay.nn` ops, in numpy."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import nn, nn_pool
from xrelay.dialects.relay.base import (
    get_bool,
    get_float,
    get_int,
    get_ints,
    properties_with_defaults,
)
from xrelay.dialects.relay.layout_blocked import is_plain
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.nn_conv import pad_nd
from xrelay.dialects.relay.nn_conv_blocked import Conv2DNCHWcOp
from xrelay.dialects.relay.reference_scalar import reduce_identity
from xrelay.dialects.relay.reference_tensor import layout_transform_array
from xrelay.dialects.relay.reference_window import conv_nd, pool_nd
from xrelay.dialects.relay.types import is_float_dtype, numpy_dtype

Array = npt.NDArray[Any]


def to_layout(x: Array, src: str, dst: str) -> Array:
    """Re-lay an array between layouts of the same primal axes: a transpose between plain
    ones (NHWC -> NCHW), else `layout_transform`'s (blocked ones, NCHW4c -> NCHW)."""
    if src == dst:
        return x
    if is_plain(src) and is_plain(dst):
        return np.transpose(x, [src.index(d) for d in dst])
    return layout_transform_array(x, src, dst)


def conv2d_nchw(
    x: Array,
    w: Array,
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    dilation: tuple[int, int],
    groups: int,
    out_dtype: np.dtype[Any],
) -> Array:
    """Grouped, dilated 2-D convolution of NCHW data with an OIHW kernel (`conv_nd`)."""
    top, left, bottom, right = padding
    return conv_nd(x, w, strides, (top, left), (bottom, right), dilation, groups, out_dtype)


def conv2d_data(op: IRDLOperation, args: list[Value], out_dtype: np.dtype[Any]) -> Array:
    """relay conv2d's value in the op's data layout, from its data and weight (`args[0:2]`)
    and relay conv2d's properties. Shared by every op that has them (`relay.nn.conv2d`,
    `accel.conv2d`, `dnnl.conv2d`), before any epilogue of its own."""
    props = properties_with_defaults(op)
    data_layout = cast(StringAttr, props["data_layout"]).data
    kernel_layout = cast(StringAttr, props["kernel_layout"]).data
    out = conv2d_nchw(
        to_layout(np.asarray(args[0]), data_layout, "NCHW"),
        to_layout(np.asarray(args[1]), kernel_layout, "OIHW"),
        cast(tuple[int, int], get_ints(props, "strides")),
        pad_2d(get_ints(props, "padding")),
        cast(tuple[int, int], get_ints(props, "dilation")),
        get_int(props, "groups"),
        out_dtype,
    )
    return to_layout(out, "NCHW", data_layout)


def global_avg_pool_data(x: Array, layout: str) -> Array:
    """The mean over H and W (kept as extents of 1), accumulated in float64 or int64."""
    axes = (layout.index("H"), layout.index("W"))
    total = x.astype(_accumulator(x.dtype)).sum(axis=axes, keepdims=True)
    with np.errstate(all="ignore"):  # an empty mean: 0 / 0, NaN
        return total / (x.shape[axes[0]] * x.shape[axes[1]])


@reference(nn.Conv2DOp, Conv2DNCHWcOp)
def _conv2d(ev: Evaluator, op: nn.Conv2DOp | Conv2DNCHWcOp, args: list[Value]) -> Value:
    return conv2d_data(op, args, numpy_dtype(op.result.type.get_element_type()))


@reference(nn.BiasAddOp)
def _bias_add(ev: Evaluator, op: nn.BiasAddOp, args: list[Value]) -> Value:
    data, bias = np.asarray(args[0]), np.asarray(args[1])
    axis = op.axis.value.data % data.ndim
    shape = [1] * data.ndim
    shape[axis] = bias.shape[0]
    return data + bias.reshape(shape)


@reference(nn.ReluOp)
def _relu(ev: Evaluator, op: nn.ReluOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return np.maximum(x, np.zeros((), x.dtype))


def _accumulator(dtype: np.dtype[Any]) -> type[np.generic]:
    return np.float64 if is_float_dtype(dtype) else np.int64


@reference(nn.LeakyReluOp)
def _leaky_relu(ev: Evaluator, op: nn.LeakyReluOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return np.where(x > 0, x, x * op.alpha.value.data)


@reference(nn.DenseOp)
def _dense(ev: Evaluator, op: nn.DenseOp, args: list[Value]) -> Value:
    data, weight = np.asarray(args[0]), np.asarray(args[1])
    acc = _accumulator(data.dtype)
    return np.matmul(data.astype(acc), weight.astype(acc).T)


def _along(vector: Array, axis: int, rank: int) -> Array:
    shape = [1] * rank
    shape[axis] = vector.shape[0]
    return vector.reshape(shape)


def batch_norm_data(op: IRDLOperation, args: list[Value]) -> Array:
    """Inference batch_norm's normalized data, in float64, along `axis`: `x * s + t` with
    `s = gamma / sqrt(var + eps)` (no gamma without `scale`) and `t = beta - mean * s` (no
    beta without `center`). That is `(x - mean) / sqrt(var + eps) * gamma + beta` for finite
    parameters, and with infinite ones it is what SimplifyInference and every target compute
    (`docs/semantics.md`). Shared by every op with relay batch_norm's properties and
    operands (`accel.batch_norm`, `dnnl.batch_norm`)."""
    data, gamma, beta, mean, var = (np.asarray(a) for a in args)
    props = properties_with_defaults(op)
    axis = get_int(props, "axis") % data.ndim
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = 1.0 / np.sqrt(
            _along(var, axis, data.ndim).astype(np.float64) + get_float(props, "epsilon")
        )
        if get_bool(props, "scale"):
            scale = scale * _along(gamma, axis, data.ndim)
        shift = -_along(mean, axis, data.ndim).astype(np.float64) * scale
        if get_bool(props, "center"):
            shift = shift + _along(beta, axis, data.ndim)
        return data.astype(np.float64) * scale + shift


@reference(nn.BatchNormOp)
def _batch_norm(ev: Evaluator, op: nn.BatchNormOp, args: list[Value]) -> Value:
    return (batch_norm_data(op, args), np.asarray(args[3]), np.asarray(args[4]))


@reference(nn.DropoutOp)
def _dropout(ev: Evaluator, op: nn.DropoutOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return (x, np.ones_like(x))


@reference(nn.SoftmaxOp, nn.LogSoftmaxOp)
def _softmax(ev: Evaluator, op: nn.SoftmaxOp | nn.LogSoftmaxOp, args: list[Value]) -> Value:
    if np.asarray(args[0]).size == 0:  # nothing to normalize
        return np.asarray(args[0]).copy()
    x = np.asarray(args[0]).astype(np.float64)
    axis = op.axis.value.data
    shifted = x - np.max(x, axis=axis, keepdims=True)
    total = np.sum(np.exp(shifted), axis=axis, keepdims=True)
    if isinstance(op, nn.LogSoftmaxOp):
        return shifted - np.log(total)
    return np.exp(shifted) / total


@reference(nn.BatchFlattenOp)
def _batch_flatten(ev: Evaluator, op: nn.BatchFlattenOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return x.reshape(x.shape[0], math.prod(x.shape[1:]))


@reference(nn.PadOp)
def _pad(ev: Evaluator, op: nn.PadOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    widths = get_ints(dict(op.properties), "pad_width")
    pairs = [(widths[2 * i], widths[2 * i + 1]) for i in range(x.ndim)]
    mode = op.pad_mode.data
    if mode == "edge":
        return np.pad(x, pairs, mode="edge")
    if mode == "reflect":
        return np.pad(x, pairs, mode="reflect")
    if mode == "wrap":
        return np.pad(x, pairs, mode="wrap")
    return np.pad(x, pairs, mode="constant", constant_values=op.pad_value.value.data)


def pool2d(x: npt.NDArray[Any], props: Mapping[str, Attribute], kind: str) -> npt.NDArray[Any]:
    """A windowed `kind` ("max" or "avg") pool with relay's pool attributes `props`, over
    the spatial dims (D, H, W letters) of its `layout`: every rank (`pool_nd`).

    Shared by `relay.nn.max_pool1d/2d/3d`/`avg_pool1d/2d/3d` and the accelerator pools
    that extend them (same property names and defaults).
    """
    layout = cast(StringAttr, props.get("layout", StringAttr("NCHW"))).data
    spatial = "".join(d for d in layout if d in "DHW")
    data = to_layout(x, layout, "NC" + spatial)
    pool, strides = get_ints(props, "pool_size"), get_ints(props, "strides")
    dilation = get_ints(props, "dilation")
    before, after = pad_nd(get_ints(props, "padding"), len(spatial))
    ceil = bool(get_int(props, "ceil_mode"))
    out = [
        nn_pool.pool_out(size, b + a, k, s, d, ceil)
        for size, b, a, k, s, d in zip(
            data.shape[2:], before, after, pool, strides, dilation, strict=True
        )
    ]
    include = kind == "avg" and bool(get_int(props, "count_include_pad"))
    pooled = pool_nd(data, kind, pool, strides, dilation, before, after, out, include)
    return to_layout(pooled, "NC" + spatial, layout)


@reference(nn_pool.MaxPool2DOp, nn_pool.AvgPool2DOp, *nn_pool.OPS_ND)
def _pool(ev: Evaluator, op: nn_pool.PoolNdOp, args: list[Value]) -> Value:
    max_pools = (nn_pool.MaxPool1DOp, nn_pool.MaxPool2DOp, nn_pool.MaxPool3DOp)
    kind = "max" if isinstance(op, max_pools) else "avg"
    return pool2d(np.asarray(args[0]), properties_with_defaults(op), kind)


@reference(nn_pool.GlobalAvgPool2DOp, nn_pool.GlobalMaxPool2DOp)
def _global_pool2d(ev: Evaluator, op: nn_pool.GlobalPool2DOp, args: list[Value]) -> Value:
    layout = op.layout.data
    x = np.asarray(args[0])
    axes = (layout.index("H"), layout.index("W"))
    if isinstance(op, nn_pool.GlobalMaxPool2DOp):
        if x.shape[axes[0]] * x.shape[axes[1]] == 0:  # empty: the start of a max
            return x.max(axis=axes, keepdims=True, initial=reduce_identity(x.dtype, True))
        return x.max(axis=axes, keepdims=True)
    return global_avg_pool_data(x, layout)
