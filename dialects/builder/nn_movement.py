"""Builder functions for `relay.nn.depth_to_space` and `relay.nn.space_to_depth` (TVM's
signatures); `xrelay.relay.nn` re-exports them."""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import movement as m

__all__ = ["depth_to_space", "space_to_depth"]


def depth_to_space(data: Expr, block_size: int, layout: str = "NCHW", mode: str = "DCR") -> Call:
    """`relay.nn.depth_to_space(data, block_size, layout="NCHW", mode="DCR")`."""
    props = {
        "block_size": attrs.int_(block_size),
        "layout": attrs.str_(layout),
        "mode": attrs.str_(mode),
    }
    return Call(m.DepthToSpaceOp, [data], props)


def space_to_depth(data: Expr, block_size: int, layout: str = "NCHW") -> Call:
    """`relay.nn.space_to_depth(data, block_size, layout="NCHW")`."""
    props = {"block_size": attrs.int_(block_size), "layout": attrs.str_(layout)}
    return Call(m.SpaceToDepthOp, [data], props)
