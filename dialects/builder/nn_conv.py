"""Builder functions for the convolutions of other ranks and the transposed convolutions,
with TVM's signatures and defaults (`relay.nn.conv1d`, `conv3d`, `conv1d_transpose`,
`conv2d_transpose`, `conv3d_transpose`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.builder.nn import check_out_layout
from xrelay.dialects.relay import nn_conv

IntOrSeq = int | Sequence[int]

__all__ = ["conv1d", "conv1d_transpose", "conv2d_transpose", "conv3d", "conv3d_transpose"]


def pad_values(padding: IntOrSeq, rank: int) -> tuple[int, ...]:
    """TVM's `get_pad_tuple1d/2d/3d`: 1, `rank` or `2 * rank` ints to the `2 * rank`
    values (the befores, then the afters)."""
    values = (padding,) if isinstance(padding, int) else tuple(int(p) for p in padding)
    lengths = nn_conv.pad_lengths(rank)
    if len(values) not in lengths:
        shown = ", ".join(str(n) for n in lengths[:-1]) + f" or {lengths[-1]}"
        raise ValueError(f"padding must have {shown} values, got {len(values)}")
    before, after = nn_conv.pad_nd(values, rank)
    return (*before, *after)


def _conv(
    op: type[nn_conv.ConvNdOp],
    operands: tuple[Expr, Expr],
    windows: tuple[IntOrSeq, IntOrSeq, IntOrSeq],
    groups: int,
    channels: int | None,
    kernel_size: IntOrSeq | None,
    layouts: tuple[str, str, str],
    out_dtype: str,
    output_padding: IntOrSeq | None = None,
) -> Call:
    rank = op.RANK
    strides, padding, dilation = windows
    data_layout, kernel_layout, out_layout = layouts
    check_out_layout(out_layout, data_layout, op.name.removeprefix("relay.nn."))
    props: dict[str, Attribute] = {
        "strides": attrs.ints(attrs.pairs(strides, rank)),
        "padding": attrs.ints(pad_values(padding, rank)),
        "dilation": attrs.ints(attrs.pairs(dilation, rank)),
        "groups": attrs.int_(groups),
        "data_layout": attrs.str_(data_layout),
        "kernel_layout": attrs.str_(kernel_layout),
    }
    if output_padding is not None:
        props["output_padding"] = attrs.ints(attrs.pairs(output_padding, rank))
    if channels is not None:
        props["channels"] = attrs.int_(channels)
    if kernel_size is not None:
        props["kernel_size"] = attrs.ints(attrs.pairs(kernel_size, rank))
    if out_dtype:
        props["out_dtype"] = attrs.dtype(out_dtype)
    return Call(op, list(operands), props)


def conv1d(
    data: Expr,
    weight: Expr,
    strides: IntOrSeq = 1,
    padding: IntOrSeq = 0,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCW",
    kernel_layout: str = "OIW",
    out_layout: str = "",
    out_dtype: str = "",
) -> Call:
    """`relay.nn.conv1d`: padding is normalized to 2 values (left, right) as TVM's."""
    return _conv(
        nn_conv.Conv1DOp,
        (data, weight),
        (strides, padding, dilation),
        groups,
        channels,
        kernel_size,
        (data_layout, kernel_layout, out_layout),
        out_dtype,
    )


def conv3d(
    data: Expr,
    weight: Expr,
    strides: IntOrSeq = (1, 1, 1),
    padding: IntOrSeq = (0, 0, 0),
    dilation: IntOrSeq = (1, 1, 1),
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCDHW",
    kernel_layout: str = "OIDHW",
    out_layout: str = "",
    out_dtype: str = "",
) -> Call:
    """`relay.nn.conv3d`: padding is normalized to 6 values as TVM's."""
    return _conv(
        nn_conv.Conv3DOp,
        (data, weight),
        (strides, padding, dilation),
        groups,
        channels,
        kernel_size,
        (data_layout, kernel_layout, out_layout),
        out_dtype,
    )


def conv1d_transpose(
    data: Expr,
    weight: Expr,
    strides: IntOrSeq = (1,),
    padding: IntOrSeq = (0,),
    dilation: IntOrSeq = (1,),
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCW",
    kernel_layout: str = "IOW",
    out_layout: str = "",
    output_padding: IntOrSeq = (0,),
    out_dtype: str = "",
) -> Call:
    """`relay.nn.conv1d_transpose`, TVM's signature; the output is in `data_layout`."""
    return _conv(
        nn_conv.Conv1DTransposeOp,
        (data, weight),
        (strides, padding, dilation),
        groups,
        channels,
        kernel_size,
        (data_layout, kernel_layout, out_layout),
        out_dtype,
        output_padding,
    )


def conv2d_transpose(
    data: Expr,
    weight: Expr,
    strides: IntOrSeq = (1, 1),
    padding: IntOrSeq = (0, 0),
    dilation: IntOrSeq = (1, 1),
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCHW",
    kernel_layout: str = "IOHW",
    out_layout: str = "",
    output_padding: IntOrSeq = (0, 0),
    out_dtype: str = "",
) -> Call:
    """`relay.nn.conv2d_transpose`, TVM's signature; padding is normalized to 4 values."""
    return _conv(
        nn_conv.Conv2DTransposeOp,
        (data, weight),
        (strides, padding, dilation),
        groups,
        channels,
        kernel_size,
        (data_layout, kernel_layout, out_layout),
        out_dtype,
        output_padding,
    )


def conv3d_transpose(
    data: Expr,
    weight: Expr,
    strides: IntOrSeq = (1, 1, 1),
    padding: IntOrSeq = (0, 0, 0),
    dilation: IntOrSeq = (1, 1, 1),
    groups: int = 1,
    channels: int | None = None,
    kernel_size: IntOrSeq | None = None,
    data_layout: str = "NCDHW",
    kernel_layout: str = "IODHW",
    out_layout: str = "",
    output_padding: IntOrSeq = (0, 0, 0),
    out_dtype: str = "",
) -> Call:
    """`relay.nn.conv3d_transpose`, TVM's signature; padding is normalized to 6 values."""
    return _conv(
        nn_conv.Conv3DTransposeOp,
        (data, weight),
        (strides, padding, dilation),
        groups,
        channels,
        kernel_size,
        (data_layout, kernel_layout, out_layout),
        out_dtype,
        output_padding,
    )
