"""The static op each dynamic op (`dyn.py`) becomes once its shape operands are known.

Shared by the reference semantics (`reference_dyn.py`: the shape read at run time) and
`dynamic-to-static` (the shape folded at compile time). TVM's table is in
`src/relay/transforms/dynamic_to_static.cc`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, f64, i64
from xdsl.ir import Attribute
from xrelay.dialects.relay import algorithm as a
from xrelay.dialects.relay import creation as c
from xrelay.dialects.relay import dyn as d
from xrelay.dialects.relay import movement as m
from xrelay.dialects.relay import nn
from xrelay.dialects.relay import tensor as t
from xrelay.dialects.relay.base import RelayOp, RelayTypeError, int_list_attr

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class StaticForm:
    """A static op class, which operands of the dynamic op it keeps, its properties."""

    op_class: type[RelayOp]
    kept: tuple[int, ...]
    properties: dict[str, Attribute]


SHAPE_OPERANDS: dict[type[RelayOp], tuple[int, ...]] = {
    d.DynReshapeOp: (1,),
    d.DynSqueezeOp: (1,),
    d.DynTileOp: (1,),
    d.DynBroadcastToOp: (1,),
    d.DynZerosOp: (0,),
    d.DynOnesOp: (0,),
    d.DynFullOp: (1,),
    d.DynPadOp: (1, 2),
    d.DynTopKOp: (1,),
}
"""The operands each dynamic op needs as values to become static (TVM's: pad's value too)."""


def _ints(value: Array, what: str, ndim: int = 1) -> list[int]:
    array = np.asarray(value)
    if array.ndim != ndim:
        raise RelayTypeError(f"{what} must be {ndim}-D, got shape {list(array.shape)}")
    if array.dtype.kind not in "iu":
        raise RelayTypeError(f"{what} must hold integers, got {array.dtype}")
    return [int(v) for v in array.reshape(-1)]


def static_form(op: RelayOp, values: Sequence[Array]) -> StaticForm:
    """The static equivalent of dynamic `op` given the values of its `SHAPE_OPERANDS`
    (in that order). RelayTypeError if a value has the wrong rank or dtype."""
    props = dict(op.properties)
    if isinstance(op, d.DynReshapeOp):
        dims = _ints(values[0], "newshape")
        if any(v < -1 for v in dims):
            raise RelayTypeError(
                f"newshape of relay.dyn.reshape may use only 0 and -1 as special values "
                f"(its rank is newshape's length), got {dims}"
            )
        return StaticForm(t.ReshapeOp, (0,), {**props, "newshape": int_list_attr(dims)})
    if isinstance(op, d.DynSqueezeOp):
        return StaticForm(t.SqueezeOp, (0,), {"axis": int_list_attr(_ints(values[0], "axis"))})
    if isinstance(op, d.DynTileOp):
        return StaticForm(m.TileOp, (0,), {"reps": int_list_attr(_ints(values[0], "reps"))})
    if isinstance(op, d.DynBroadcastToOp):
        shape = int_list_attr(_ints(values[0], "shape"))
        return StaticForm(m.BroadcastToOp, (0,), {"shape": shape})
    if isinstance(op, d.DynZerosOp | d.DynOnesOp):
        cls = c.ZerosOp if isinstance(op, d.DynZerosOp) else c.OnesOp
        return StaticForm(cls, (), {**props, "shape": int_list_attr(_ints(values[0], "shape"))})
    if isinstance(op, d.DynFullOp):
        shape = int_list_attr(_ints(values[0], "shape"))
        return StaticForm(c.FullOp, (0,), {**props, "shape": shape})
    if isinstance(op, d.DynPadOp):
        widths = _ints(values[0], "pad_width", ndim=2)
        pad_value = np.asarray(values[1])
        if pad_value.ndim != 0:
            raise RelayTypeError(f"pad_value must be a scalar, got shape {list(pad_value.shape)}")
        return StaticForm(
            nn.PadOp,
            (0,),
            {
                "pad_width": int_list_attr(widths),
                "pad_value": FloatAttr(float(pad_value), f64),
                **props,
            },
        )
    if isinstance(op, d.DynTopKOp):
        k = _ints(np.asarray(values[0]).reshape(-1), "k")
        if len(k) != 1:
            raise RelayTypeError(f"k must hold one value, got {len(k)}")
        return StaticForm(a.TopKOp, (0,), {**props, "k": IntegerAttr(k[0], i64)})
    raise TypeError(f"{op.name} is not a dynamic op")
