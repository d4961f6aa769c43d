"""Builder function for `relay.nn.deformable_conv2d`, with TVM's signature and defaults."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import deformable_conv as ops

__all__ = ["deformable_conv2d"]

IntOrSeq = int | Sequence[int]


def deformable_conv2d(
    data: Expr,
    offset: Expr,
    weight: Expr,
    strides: IntOrSeq = (1, 1),
    padding: IntOrSeq = (0, 0),
    dilation: IntOrSeq = (1, 1),
    deformable_groups: int = 1,
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCHW",
    kernel_layout: str = "OIHW",
    out_layout: str = "",
    out_dtype: str = "",
) -> Call:
    """`relay.nn.deformable_conv2d`: `offset` is [N, 2 * KH * KW * deformable_groups, OH, OW]
    in `data_layout` (y then x offset per tap); padding is 1, 2 or 4 values, as conv2d."""
    props: dict[str, Attribute] = {
        "strides": attrs.ints(attrs.pairs(strides, 2)),
        "padding": attrs.ints(padding),
        "dilation": attrs.ints(attrs.pairs(dilation, 2)),
        "deformable_groups": attrs.int_(deformable_groups),
        "groups": attrs.int_(groups),
        "data_layout": attrs.str_(data_layout),
        "kernel_layout": attrs.str_(kernel_layout),
    }
    if out_layout:
        props["out_layout"] = attrs.str_(out_layout)
    if channels is not None:
        props["channels"] = attrs.int_(channels)
    if kernel_size is not None:
        props["kernel_size"] = attrs.ints(attrs.pairs(kernel_size, 2))
    if out_dtype:
        props["out_dtype"] = attrs.dtype(out_dtype)
    return Call(ops.DeformableConv2DOp, [data, offset, weight], props)
