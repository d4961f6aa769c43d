"""Builder functions for `relay.nn` ops, with TVM's signatures and defaults.

As in TVM, `batch_norm` returns a tuple expression (index it: `[0]`), and
`dropout` returns its first field while `dropout_raw` returns the tuple.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
import numpy.typing as npt
from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs, dyn
from xrelay.dialects.builder.expr import Call, Constant, Expr
from xrelay.dialects.relay import nn, nn_pool

IntOrSeq = int | Sequence[int]

__all__ = [
    "avg_pool2d",
    "batch_flatten",
    "batch_norm",
    "bias_add",
    "conv2d",
    "dense",
    "dropout",
    "dropout_raw",
    "global_avg_pool2d",
    "global_max_pool2d",
    "leaky_relu",
    "log_softmax",
    "max_pool2d",
    "pad",
    "relu",
    "softmax",
]


def check_out_layout(out_layout: str, layout: str, op: str) -> None:
    """The output follows the input layout; a different `out_layout` is not supported."""
    if out_layout not in ("", layout):
        raise ValueError(
            f"{op}: out_layout '{out_layout}' differs from the input layout '{layout}'; "
            f"only the input layout is supported (convert with relay.layout_transform)"
        )


def _pad4(padding: IntOrSeq) -> tuple[int, int, int, int]:
    """TVM's `get_pad_tuple2d`: 1, 2 or 4 ints -> (top, left, bottom, right)."""
    values = (padding,) if isinstance(padding, int) else tuple(int(p) for p in padding)
    if len(values) not in (1, 2, 4):
        raise ValueError(f"padding must have 1, 2 or 4 values, got {len(values)}")
    return nn.pad_2d(values)


def conv2d(
    data: Expr,
    weight: Expr,
    strides: IntOrSeq = (1, 1),
    padding: IntOrSeq = (0, 0),
    dilation: IntOrSeq = (1, 1),
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCHW",
    kernel_layout: str = "OIHW",
    out_layout: str = "",
    out_dtype: str = "",
) -> Call:
    """`relay.nn.conv2d`: padding is normalized to 4 values as TVM's Python API does.

    The output is in `data_layout`; `out_layout` may only repeat it.
    """
    check_out_layout(out_layout, data_layout, "conv2d")
    props: dict[str, Attribute] = {
        "strides": attrs.ints(attrs.pairs(strides, 2)),
        "padding": attrs.ints(_pad4(padding)),
        "dilation": attrs.ints(attrs.pairs(dilation, 2)),
        "groups": attrs.int_(groups),
        "data_layout": attrs.str_(data_layout),
        "kernel_layout": attrs.str_(kernel_layout),
    }
    if channels is not None:
        props["channels"] = attrs.int_(channels)
    if kernel_size is not None:
        props["kernel_size"] = attrs.ints(attrs.pairs(kernel_size, 2))
    if out_dtype:
        props["out_dtype"] = attrs.dtype(out_dtype)
    return Call(nn.Conv2DOp, [data, weight], props)


def bias_add(data: Expr, bias: Expr, axis: int = 1) -> Call:
    """`relay.nn.bias_add(data, bias, axis=1)`."""
    return Call(nn.BiasAddOp, [data, bias], {"axis": attrs.int_(axis)})


def relu(data: Expr) -> Call:
    """`relay.nn.relu(data)`."""
    return Call(nn.ReluOp, [data])


def leaky_relu(data: Expr, alpha: float = 0.01) -> Call:
    """`relay.nn.leaky_relu(data, alpha=0.01)`."""
    return Call(nn.LeakyReluOp, [data], {"alpha": attrs.float_(alpha)})


def dense(data: Expr, weight: Expr, units: int | None = None, out_dtype: str = "") -> Call:
    """`relay.nn.dense(data, weight, units=None, out_dtype="")`."""
    props: dict[str, Attribute] = {}
    if units is not None:
        props["units"] = attrs.int_(units)
    if out_dtype:
        props["out_dtype"] = attrs.dtype(out_dtype)
    return Call(nn.DenseOp, [data, weight], props)


def batch_norm(
    data: Expr,
    gamma: Expr,
    beta: Expr,
    moving_mean: Expr,
    moving_var: Expr,
    axis: int = 1,
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
) -> Call:
    """`relay.nn.batch_norm(...)`: a tuple (out, mean, var); index it with `[0]`."""
    props: dict[str, Attribute] = {
        "axis": attrs.int_(axis),
        "epsilon": attrs.float_(epsilon),
        "center": attrs.bool_(center),
        "scale": attrs.bool_(scale),
    }
    return Call(nn.BatchNormOp, [data, gamma, beta, moving_mean, moving_var], props)


def dropout(data: Expr, rate: float = 0.5) -> Expr:
    """`relay.nn.dropout(data, rate=0.5)`: field 0 of the op's (out, mask) tuple, as TVM."""
    return dropout_raw(data, rate)[0]


def dropout_raw(data: Expr, rate: float = 0.5) -> Call:
    """`relay.nn.dropout_raw(data, rate=0.5)`: the `relay.nn.dropout` op, a tuple (out, mask)."""
    return Call(nn.DropoutOp, [data], {"rate": attrs.float_(rate)})


def softmax(data: Expr, axis: int = -1) -> Call:
    """`relay.nn.softmax(data, axis=-1)`."""
    return Call(nn.SoftmaxOp, [data], {"axis": attrs.int_(axis)})


def log_softmax(data: Expr, axis: int = -1) -> Call:
    """`relay.nn.log_softmax(data, axis=-1)`."""
    return Call(nn.LogSoftmaxOp, [data], {"axis": attrs.int_(axis)})


def batch_flatten(data: Expr) -> Call:
    """`relay.nn.batch_flatten(data)`."""
    return Call(nn.BatchFlattenOp, [data])


def _pad_pairs(pad_width: Sequence[Sequence[int]] | npt.ArrayLike | Constant) -> list[int]:
    """TVM's nested `((before0, after0), ...)` (or a constant of it), flattened."""
    if isinstance(pad_width, Constant):
        pad_width = pad_width.data
    if isinstance(pad_width, Expr):
        raise TypeError("pad_width must be static: nested pairs of ints or a relay.const")
    try:
        array = np.asarray(pad_width)
    except ValueError:  # ragged nesting
        array = np.asarray([[0.5]])
    if array.size == 0:
        return []
    if array.ndim != 2 or array.shape[1] != 2 or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(
            f"pad_width must be pairs of ints ((before, after) per axis), got {pad_width!r}"
        )
    return [int(v) for v in array.reshape(-1)]


def _pad_number(pad_value: float | Expr) -> float:
    """A number, or the value of a scalar constant (TVM's pad_value expression)."""
    if isinstance(pad_value, Constant) and pad_value.data.size == 1:
        return float(pad_value.data.reshape(()))
    if isinstance(pad_value, Expr):
        raise TypeError("pad_value must be a number or a scalar relay.const")
    return float(pad_value)


def pad(
    data: Expr,
    pad_width: Sequence[Sequence[int]] | npt.ArrayLike | Expr,
    pad_value: float | Expr = 0.0,
    pad_mode: str = "constant",
) -> Call:
    """`relay.nn.pad(data, pad_width=((b0, a0), ...), pad_value=0, pad_mode="constant")`.

    `pad_value` is a number or a scalar `relay.const`; `pad_width` is stored flat. An
    expression `pad_width` (not a constant) builds `relay.dyn.nn.pad`, as in TVM.
    """
    if dyn.is_dynamic(pad_width):
        return dyn.pad(data, cast(Expr, pad_width), pad_value, pad_mode)
    pad_width = cast(Sequence[Sequence[int]] | npt.ArrayLike | Constant, pad_width)
    props: dict[str, Attribute] = {
        "pad_width": attrs.ints(_pad_pairs(pad_width)),
        "pad_value": attrs.float_(_pad_number(pad_value)),
        "pad_mode": attrs.str_(pad_mode),
    }
    return Call(nn.PadOp, [data], props)


def _pool_props(
    pool_size: IntOrSeq,
    strides: IntOrSeq,
    dilation: IntOrSeq,
    padding: IntOrSeq,
    layout: str,
    ceil_mode: bool,
) -> dict[str, Attribute]:
    return {
        "pool_size": attrs.ints(attrs.pairs(pool_size, 2)),
        "strides": attrs.ints(attrs.pairs(strides, 2)),
        "dilation": attrs.ints(attrs.pairs(dilation, 2)),
        "padding": attrs.ints(_pad4(padding)),
        "layout": attrs.str_(layout),
        "ceil_mode": attrs.bool_(ceil_mode),
    }


def max_pool2d(
    data: Expr,
    pool_size: IntOrSeq = (1, 1),
    strides: IntOrSeq = (1, 1),
    dilation: IntOrSeq = (1, 1),
    padding: IntOrSeq = (0, 0),
    layout: str = "NCHW",
    out_layout: str = "",
    ceil_mode: bool = False,
) -> Call:
    """`relay.nn.max_pool2d`, TVM's signature; the output is in `layout`."""
    check_out_layout(out_layout, layout, "max_pool2d")
    props = _pool_props(pool_size, strides, dilation, padding, layout, ceil_mode)
    return Call(nn_pool.MaxPool2DOp, [data], props)


def avg_pool2d(
    data: Expr,
    pool_size: IntOrSeq = (1, 1),
    strides: IntOrSeq = (1, 1),
    dilation: IntOrSeq = (1, 1),
    padding: IntOrSeq = (0, 0),
    layout: str = "NCHW",
    out_layout: str = "",
    ceil_mode: bool = False,
    count_include_pad: bool = False,
) -> Call:
    """`relay.nn.avg_pool2d`, TVM's signature; the output is in `layout`."""
    check_out_layout(out_layout, layout, "avg_pool2d")
    props = _pool_props(pool_size, strides, dilation, padding, layout, ceil_mode)
    props["count_include_pad"] = attrs.bool_(count_include_pad)
    return Call(nn_pool.AvgPool2DOp, [data], props)


def global_avg_pool2d(data: Expr, layout: str = "NCHW", out_layout: str = "") -> Call:
    """`relay.nn.global_avg_pool2d(data, layout="NCHW")`."""
    check_out_layout(out_layout, layout, "global_avg_pool2d")
    return Call(nn_pool.GlobalAvgPool2DOp, [data], {"layout": attrs.str_(layout)})


def global_max_pool2d(data: Expr, layout: str = "NCHW", out_layout: str = "") -> Call:
    """`relay.nn.global_max_pool2d(data, layout="NCHW")`."""
    check_out_layout(out_layout, layout, "global_max_pool2d")
    return Call(nn_pool.GlobalMaxPool2DOp, [data], {"layout": attrs.str_(layout)})
