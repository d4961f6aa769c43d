"""Builder function for `relay.slice_like`, with TVM's signature (`tvm.relay.slice_like`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import slice_like as sl

__all__ = ["slice_like"]


def slice_like(data: Expr, shape_like: Expr, axes: Sequence[int] | None = None) -> Call:
    """`relay.slice_like`: `data` sliced from 0 to `shape_like`'s dims on `axes` (every axis
    both have when None; negative axes count from the end of `data`)."""
    props: dict[str, Attribute] = {}
    if axes is not None:
        props["axes"] = attrs.ints([int(a) for a in axes])
    return Call(sl.SliceLikeOp, [data, shape_like], props)
