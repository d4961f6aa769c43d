"""Builder function for `relay.image.grid_sample`, with TVM's signature and defaults."""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import image_sample

__all__ = ["grid_sample"]


def grid_sample(
    data: Expr,
    grid: Expr,
    method: str = "bilinear",
    layout: str = "NCHW",
    padding_mode: str = "zeros",
    align_corners: bool = True,
) -> Call:
    """`relay.image.grid_sample`: `grid` is [N, 2, OH, OW] (x, y) for NCHW data, or
    [N, 3, OD, OH, OW] (x, y, z) for NCDHW."""
    props = {
        "method": attrs.str_(method),
        "layout": attrs.str_(layout),
        "padding_mode": attrs.str_(padding_mode),
        "align_corners": attrs.bool_(align_corners),
    }
    return Call(image_sample.GridSampleOp, [data, grid], props)
