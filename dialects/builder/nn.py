"""Builder functions for `relay.nn` ops, with TVM's signatures and defaults."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import nn

IntOrSeq = int | Sequence[int]


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
