"""Builder functions for `relay.slice_like` and `relay.contrib_reverse_reshape`, with TVM's
signatures (`tvm.relay.slice_like`, `tvm.relay.reverse_reshape`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import reverse_reshape as rr
from xrelay.dialects.relay import slice_like as sl

__all__ = ["reverse_reshape", "slice_like"]


def slice_like(data: Expr, shape_like: Expr, axes: Sequence[int] | None = None) -> Call:
    """`relay.slice_like`: `data` sliced from 0 to `shape_like`'s dims on `axes` (every axis
    both have when None; negative axes count from the end of `data`)."""
    props: dict[str, Attribute] = {}
    if axes is not None:
        props["axes"] = attrs.ints([int(a) for a in axes])
    return Call(sl.SliceLikeOp, [data, shape_like], props)


def reverse_reshape(data: Expr, newshape: int | Sequence[int]) -> Call:
    """`relay.contrib_reverse_reshape`: reshape with the special values (0, -1, -2, -3, -4)
    matched against the input dims from the right."""
    shape = [newshape] if isinstance(newshape, int) else list(newshape)
    return Call(rr.ReverseReshapeOp, [data], {"newshape": attrs.ints([int(d) for d in shape])})
