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
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.reference_scalar import reduce_identity
from xrelay.dialects.relay.types import is_float_dtype, numpy_dtype

Array = npt.NDArray[Any]


def to_layout(x: Array, src: str, dst: str) -> Array:
    """Transpose an array between layouts spelled with the same letters (NHWC -> NCHW)."""
    if src == dst:
        return x
    return np.transpose(x, [src.index(d) for d in dst])


def conv2d_nchw(
    x: Array,
    w: Array,
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    dilation: tuple[int, int],
    groups: int,
    out_dtype: np.dtype[Any],
) -> Array:
    """Grouped, dilated 2-D convolution of NCHW data with an OIHW kernel (im2col + einsum)."""
    top, left, bottom, right = padding
    acc = np.float64 if is_float_dtype(out_dtype) else np.int64
    x = np.pad(x.astype(acc), ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, _, h, wd = x.shape
    o, cg, kh, kw = w.shape
    sh, sw = strides
    dh, dw = dilation
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (wd - dw * (kw - 1) - 1) // sw + 1
    s = x.strides
    cols = np.lib.stride_tricks.as_strided(
        x,
        (n, groups, cg, oh, ow, kh, kw),
        (s[0], s[1] * cg, s[1], s[2] * sh, s[3] * sw, s[2] * dh, s[3] * dw),
        writeable=False,
    )
    wg = w.astype(acc).reshape(groups, o // groups, cg, kh, kw)
    if any(padding) and not np.isfinite(wg).all():
        out = _skip_padding(cols, wg, (h, wd), padding, strides, dilation)
    else:  # a padded zero times a finite weight adds nothing
        out = np.einsum("ngchwij,gocij->ngohw", cols, wg, optimize=True)
    with np.errstate(over="ignore"):  # float64 sums beyond the float32 range become inf
        return out.reshape(n, o, oh, ow).astype(out_dtype)


def _skip_padding(
    cols: Array,
    wg: Array,
    padded: tuple[int, int],
    padding: tuple[int, int, int, int],
    strides: tuple[int, int],
    dilation: tuple[int, int],
) -> Array:
    """The convolution tap by tap, leaving out taps that fall in the padding: padding adds
    nothing, so `0 * inf` there is not NaN (as on every target, `docs/semantics.md`)."""
    oh, ow, kh, kw = (int(d) for d in cols.shape[-4:])
    top, left, bottom, right = padding
    rows: Array = np.arange(oh) * strides[0]
    columns: Array = np.arange(ow) * strides[1]
    out: Array = np.zeros((cols.shape[0], wg.shape[0], wg.shape[1], oh, ow), wg.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for i in range(kh):
            r: Array = rows + i * dilation[0]
            inside_rows: Array = (r >= top) & (r < padded[0] - bottom)
            for j in range(kw):
                c: Array = columns + j * dilation[1]
                inside_columns: Array = (c >= left) & (c < padded[1] - right)
                inside: Array = inside_rows[:, None] & inside_columns[None, :]
                tap: Array = np.einsum("ngchw,goc->ngohw", cols[..., i, j], wg[..., i, j])
                out += np.where(inside, tap, 0)
    return out


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


@reference(nn.Conv2DOp)
def _conv2d(ev: Evaluator, op: nn.Conv2DOp, args: list[Value]) -> Value:
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
    return np.pad(x, pairs, mode="constant", constant_values=op.pad_value.value.data)


def lowest(dtype: np.dtype[Any]) -> Any:
    """The lowest value of a dtype (TVM's `min_value`): finite for floats, False for bool."""
    if is_float_dtype(dtype):
        return np.finfo(dtype).min
    if np.issubdtype(dtype, np.integer):
        return np.iinfo(dtype).min
    return np.zeros((), dtype)


def sliding_windows(
    a: Array,
    out_hw: tuple[int, int],
    window: tuple[int, int],
    strides: tuple[int, int],
    dilation: tuple[int, int],
) -> Array:
    """A read-only view `[..., OH, OW, KH, KW]` of the windows over the last two axes."""
    s = a.strides
    return np.lib.stride_tricks.as_strided(
        a,
        (*a.shape[:-2], *out_hw, *window),
        (
            *s[:-2],
            s[-2] * strides[0],
            s[-1] * strides[1],
            s[-2] * dilation[0],
            s[-1] * dilation[1],
        ),
        writeable=False,
    )


def pool2d_nchw(
    x: Array,
    kind: str,
    pool: tuple[int, int],
    strides: tuple[int, int],
    dilation: tuple[int, int],
    padding: tuple[int, int, int, int],
    out_hw: tuple[int, int],
    count_include_pad: bool,
) -> Array:
    """Max or average pooling of NCHW data, with TVM's treatment of padding.

    The bottom/right are padded further so that every `ceil_mode` window
    exists. Max pads with the dtype's lowest value; average divides the sum
    of the elements inside the input by their count, or by the count inside
    the input plus its declared padding (`count_include_pad`); a window with
    nothing to count gives 0.
    """
    top, left, bottom, right = padding
    h, w = x.shape[2], x.shape[3]
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = pool, strides, dilation, out_hw
    extra_h = max(0, (oh - 1) * sh + dh * (kh - 1) + 1 - (h + top + bottom))
    extra_w = max(0, (ow - 1) * sw + dw * (kw - 1) + 1 - (w + left + right))
    pads = ((top, bottom + extra_h), (left, right + extra_w))

    def windows(a: Array) -> Array:
        return sliding_windows(a, (oh, ow), (kh, kw), (sh, sw), (dh, dw))

    if kind == "max":
        xp = np.pad(x, ((0, 0), (0, 0), *pads), constant_values=lowest(x.dtype))
        return windows(xp).max(axis=(-2, -1))
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), *pads))
    if count_include_pad:
        counted = np.pad(
            np.ones((h + top + bottom, w + left + right)), ((0, extra_h), (0, extra_w))
        )
    else:
        counted = np.pad(np.ones((h, w)), pads)
    count = windows(counted).sum(axis=(-2, -1))
    return windows(xp).sum(axis=(-2, -1)) / np.maximum(count, 1)


def pool2d(x: npt.NDArray[Any], props: Mapping[str, Attribute], kind: str) -> npt.NDArray[Any]:
    """A windowed `kind` ("max" or "avg") pool with relay's pool attributes `props`.

    Shared by `relay.nn.max_pool2d`/`avg_pool2d` and the accelerator pools that
    extend them (same property names and defaults).
    """
    layout = cast(StringAttr, props.get("layout", StringAttr("NCHW"))).data
    data = to_layout(x, layout, "NCHW")
    ph, pw = get_ints(props, "pool_size")
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, bottom, right = pad_2d(get_ints(props, "padding"))
    ceil = bool(get_int(props, "ceil_mode"))
    out_h = nn_pool.pool_out(data.shape[2], top + bottom, ph, sh, dh, ceil)
    out_w = nn_pool.pool_out(data.shape[3], left + right, pw, sw, dw, ceil)
    include = kind == "avg" and bool(get_int(props, "count_include_pad"))
    pooled = pool2d_nchw(
        data,
        kind,
        (ph, pw),
        (sh, sw),
        (dh, dw),
        (top, left, bottom, right),
        (out_h, out_w),
        include,
    )
    return to_layout(pooled, "NCHW", layout)


@reference(nn_pool.MaxPool2DOp, nn_pool.AvgPool2DOp)
def _pool2d(ev: Evaluator, op: nn_pool.Pool2DOp, args: list[Value]) -> Value:
    kind = "max" if isinstance(op, nn_pool.MaxPool2DOp) else "avg"
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
