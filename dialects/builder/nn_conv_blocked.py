"""Builder of `relay.nn.contrib_conv2d_NCHWc`, with TVM's signature and defaults
(`relay.nn.contrib_conv2d_nchwc`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.builder.nn import check_out_layout
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.nn_conv_blocked import Conv2DNCHWcOp

IntOrSeq = int | Sequence[int]

__all__ = ["contrib_conv2d_nchwc"]


def contrib_conv2d_nchwc(
    data: Expr,
    kernel: Expr,
    strides: IntOrSeq = (1, 1),
    padding: IntOrSeq = (0, 0),
    dilation: IntOrSeq = (1, 1),
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCHW8c",
    kernel_layout: str = "OIHW",
    out_layout: str = "",
    out_dtype: str = "",
) -> Call:
    """`relay.nn.contrib_conv2d_nchwc`: conv2d on blocked `NCHW{k}c` data; padding as conv2d's.

    The output is in `data_layout`; `out_layout` may only repeat it.
    """
    check_out_layout(out_layout, data_layout, "contrib_conv2d_nchwc")
    values = (padding,) if isinstance(padding, int) else tuple(int(p) for p in padding)
    if len(values) not in (1, 2, 4):
        raise ValueError(f"padding must have 1, 2 or 4 values, got {len(values)}")
    props: dict[str, Attribute] = {
        "strides": attrs.ints(attrs.pairs(strides, 2)),
        "padding": attrs.ints(pad_2d(values)),
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
    return Call(Conv2DNCHWcOp, [data, kernel], props)
