"""Builder functions of TVM's `*_like` ops and `collapse_sum_to`, with TVM's signatures
(`tvm.relay.reshape_like`, `cast_like`, `broadcast_to_like`, `collapse_sum_like`,
`collapse_sum_to`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import like_ops as lk

__all__ = [
    "broadcast_to_like",
    "cast_like",
    "collapse_sum_like",
    "collapse_sum_to",
    "reshape_like",
]


def reshape_like(
    data: Expr,
    shape_like: Expr,
    lhs_begin: int = 0,
    lhs_end: int | None = None,
    rhs_begin: int = 0,
    rhs_end: int | None = None,
) -> Call:
    """`relay.reshape_like`: `data`'s dims `[lhs_begin, lhs_end)` replaced by
    `shape_like`'s `[rhs_begin, rhs_end)` (an end of None: to the last dim)."""
    props: dict[str, Attribute] = {}
    for name, value in (
        ("lhs_begin", lhs_begin),
        ("lhs_end", lhs_end),
        ("rhs_begin", rhs_begin),
        ("rhs_end", rhs_end),
    ):
        if value is not None and not (name.endswith("_begin") and int(value) == 0):
            props[name] = attrs.int_(int(value))
    return Call(lk.ReshapeLikeOp, [data, shape_like], props)


def cast_like(data: Expr, dtype_like: Expr) -> Call:
    """`relay.cast_like`: `data` cast to `dtype_like`'s dtype."""
    return Call(lk.CastLikeOp, [data, dtype_like])


def broadcast_to_like(data: Expr, broadcast_type: Expr) -> Call:
    """`relay.broadcast_to_like`: `data` broadcast to `broadcast_type`'s shape."""
    return Call(lk.BroadcastToLikeOp, [data, broadcast_type])


def collapse_sum_like(data: Expr, collapse_type: Expr) -> Call:
    """`relay.collapse_sum_like`: `data` summed down to `collapse_type`'s shape."""
    return Call(lk.CollapseSumLikeOp, [data, collapse_type])


def collapse_sum_to(data: Expr, shape: Sequence[int]) -> Call:
    """`relay.collapse_sum_to`: `data` summed down to `shape` (a static shape)."""
    return Call(lk.CollapseSumToOp, [data], {"shape": attrs.ints([int(d) for d in shape])})
