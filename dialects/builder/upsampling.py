"""Builder function for `relay.nn.upsampling`, with TVM's signature and defaults."""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Constant, Expr
from xrelay.dialects.relay import upsampling as ops

__all__ = ["upsampling"]


def _scale(value: Expr | float, what: str) -> float:
    """A static scale: a number or a scalar `relay.const` (TVM reads its item)."""
    if isinstance(value, Constant):
        return float(value.data.item())
    if isinstance(value, Expr):
        raise TypeError(f"{what} must be static: a number or a relay.const (no dyn.upsampling)")
    return float(value)


def upsampling(
    data: Expr,
    scale_h: Expr | float = 1,
    scale_w: Expr | float = 1,
    layout: str = "NCHW",
    method: str = "nearest_neighbor",
    align_corners: bool = False,
) -> Call:
    """`relay.nn.upsampling`: H and W scaled by `scale_h`, `scale_w` (NCHW or NHWC);
    `method` is nearest_neighbor, bilinear or bicubic."""
    props = {
        "scale_h": attrs.float_(_scale(scale_h, "scale_h")),
        "scale_w": attrs.float_(_scale(scale_w, "scale_w")),
        "layout": attrs.str_(layout),
        "method": attrs.str_(method),
        "align_corners": attrs.bool_(align_corners),
    }
    return Call(ops.UpSamplingOp, [data], props)
