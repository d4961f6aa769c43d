"""Builder functions for `relay.nn` ops, with TVM's signatures and defaults."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
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
    "global_avg_pool2d",
    "global_max_pool2d",
    "leaky_relu",
    "log_softmax",
    "max_pool2d",
    "pad",
    "relu",
    "softmax",
]


def pad4(padding: IntOrSeq) -> tuple[int, int, int, int]:
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
    """`relay.nn.conv2d`: padding is normalized to 4 values as TVM's Python API does."""
    props: dict[str, Attribute] = {
        "strides": attrs.ints(attrs.pairs(strides, 2)),
        "padding": attrs.ints(pad4(padding)),
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
    del out_layout  # only the data layout is supported; the output follows it
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


def dropout(data: Expr, rate: float = 0.5) -> Call:
    """`relay.nn.dropout(data, rate=0.5)`: a tuple (out, mask), as `dropout_raw` in TVM."""
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


def pad(
    data: Expr,
    pad_width: Sequence[Sequence[int]],
    pad_value: float = 0.0,
    pad_mode: str = "constant",
) -> Call:
    """`relay.nn.pad(data, pad_width=((b0, a0), ...), pad_value=0, pad_mode="constant")`."""
    flat = [int(v) for pair in pad_width for v in pair]
    props: dict[str, Attribute] = {
        "pad_width": attrs.ints(flat),
        "pad_value": attrs.float_(pad_value),
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
        "padding": attrs.ints(pad4(padding)),
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
    """`relay.nn.max_pool2d`, TVM's signature."""
    del out_layout  # the output follows the input layout
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
    """`relay.nn.avg_pool2d`, TVM's signature."""
    del out_layout
    props = _pool_props(pool_size, strides, dilation, padding, layout, ceil_mode)
    props["count_include_pad"] = attrs.bool_(count_include_pad)
    return Call(nn_pool.AvgPool2DOp, [data], props)


def global_avg_pool2d(data: Expr, layout: str = "NCHW", out_layout: str = "") -> Call:
    """`relay.nn.global_avg_pool2d(data, layout="NCHW")`."""
    del out_layout
    return Call(nn_pool.GlobalAvgPool2DOp, [data], {"layout": attrs.str_(layout)})


def global_max_pool2d(data: Expr, layout: str = "NCHW", out_layout: str = "") -> Call:
    """`relay.nn.global_max_pool2d(data, layout="NCHW")`."""
    del out_layout
    return Call(nn_pool.GlobalMaxPool2DOp, [data], {"layout": attrs.str_(layout)})
