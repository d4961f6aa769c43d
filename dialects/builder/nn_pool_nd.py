"""Builder functions for the pools of other ranks, with TVM's signatures and defaults
(`relay.nn.max_pool1d`, `avg_pool1d`, `max_pool3d`, `avg_pool3d`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.builder.nn import check_out_layout
from xrelay.dialects.builder.nn_conv import pad_values
from xrelay.dialects.relay import nn_pool

IntOrSeq = int | Sequence[int]

__all__ = ["avg_pool1d", "avg_pool3d", "max_pool1d", "max_pool3d"]


def _pool(
    op: type[nn_pool.PoolNdOp],
    data: Expr,
    windows: tuple[IntOrSeq, IntOrSeq, IntOrSeq, IntOrSeq],
    layout: str,
    out_layout: str,
    ceil_mode: bool,
    count_include_pad: bool | None = None,
) -> Call:
    rank = op.RANK
    pool_size, strides, dilation, padding = windows
    check_out_layout(out_layout, layout, op.name.removeprefix("relay.nn."))
    props: dict[str, Attribute] = {
        "pool_size": attrs.ints(attrs.pairs(pool_size, rank)),
        "strides": attrs.ints(attrs.pairs(strides, rank)),
        "dilation": attrs.ints(attrs.pairs(dilation, rank)),
        "padding": attrs.ints(pad_values(padding, rank)),
        "layout": attrs.str_(layout),
        "ceil_mode": attrs.bool_(ceil_mode),
    }
    if count_include_pad is not None:
        props["count_include_pad"] = attrs.bool_(count_include_pad)
    return Call(op, [data], props)


def max_pool1d(
    data: Expr,
    pool_size: IntOrSeq = (1,),
    strides: IntOrSeq = (1,),
    dilation: IntOrSeq = (1,),
    padding: IntOrSeq = (0,),
    layout: str = "NCW",
    out_layout: str = "",
    ceil_mode: bool = False,
) -> Call:
    """`relay.nn.max_pool1d`, TVM's signature; the output is in `layout`."""
    windows = (pool_size, strides, dilation, padding)
    return _pool(nn_pool.MaxPool1DOp, data, windows, layout, out_layout, ceil_mode)


def avg_pool1d(
    data: Expr,
    pool_size: IntOrSeq = (1,),
    strides: IntOrSeq = (1,),
    dilation: IntOrSeq = (1,),
    padding: IntOrSeq = (0,),
    layout: str = "NCW",
    out_layout: str = "",
    ceil_mode: bool = False,
    count_include_pad: bool = False,
) -> Call:
    """`relay.nn.avg_pool1d`, TVM's signature; the output is in `layout`."""
    windows = (pool_size, strides, dilation, padding)
    return _pool(
        nn_pool.AvgPool1DOp, data, windows, layout, out_layout, ceil_mode, count_include_pad
    )


def max_pool3d(
    data: Expr,
    pool_size: IntOrSeq = (1, 1, 1),
    strides: IntOrSeq = (1, 1, 1),
    dilation: IntOrSeq = (1, 1, 1),
    padding: IntOrSeq = (0, 0, 0),
    layout: str = "NCDHW",
    out_layout: str = "",
    ceil_mode: bool = False,
) -> Call:
    """`relay.nn.max_pool3d`, TVM's signature; the output is in `layout`."""
    windows = (pool_size, strides, dilation, padding)
    return _pool(nn_pool.MaxPool3DOp, data, windows, layout, out_layout, ceil_mode)


def avg_pool3d(
    data: Expr,
    pool_size: IntOrSeq = (1, 1, 1),
    strides: IntOrSeq = (1, 1, 1),
    dilation: IntOrSeq = (1, 1, 1),
    padding: IntOrSeq = (0, 0, 0),
    layout: str = "NCDHW",
    out_layout: str = "",
    ceil_mode: bool = False,
    count_include_pad: bool = False,
) -> Call:
    """`relay.nn.avg_pool3d`, TVM's signature; the output is in `layout`."""
    windows = (pool_size, strides, dilation, padding)
    return _pool(
        nn_pool.AvgPool3DOp, data, windows, layout, out_layout, ceil_mode, count_include_pad
    )
