"""Builders of the dynamic ops (`relay.dyn.reshape`, ...), as TVM's `relay.op.dyn._make`.

The static builders (`relay.reshape`, `relay.tile`, `relay.zeros`, `relay.nn.pad`, ...)
call these when given an expression where a list belongs, as TVM's do; a `relay.const`
there is read as the list (`static_ints`), so it stays static.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import numpy as np
from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Call, Constant, Expr
from xrelay.dialects.relay import dyn as d


@overload
def static_ints(value: int | Sequence[int] | Expr) -> int | Sequence[int] | Expr: ...
@overload
def static_ints(value: int | Sequence[int] | Expr | None) -> int | Sequence[int] | Expr | None: ...
def static_ints(value: int | Sequence[int] | Expr | None) -> int | Sequence[int] | Expr | None:
    """A `relay.const` shape as the list of ints TVM reads from it (so the op stays static);
    anything else as is: an expression left is a dynamic shape."""
    if isinstance(value, Constant):
        data = value.data
        return int(data) if data.ndim == 0 else [int(v) for v in data.reshape(-1)]
    return value


def is_dynamic(value: object) -> bool:
    """Whether a shape argument is an expression (not a constant): the dynamic op's case."""
    return isinstance(value, Expr) and not isinstance(value, Constant)


def reshape(data: Expr, newshape: Expr, allowzero: bool = False) -> Call:
    """`relay.dyn.reshape(data, newshape, allowzero)`."""
    return Call(d.DynReshapeOp, [data, newshape], {"allowzero": attrs.bool_(allowzero)})


def squeeze(data: Expr, axis: Expr) -> Call:
    """`relay.dyn.squeeze(data, axis)`."""
    return Call(d.DynSqueezeOp, [data, axis])


def tile(data: Expr, reps: Expr) -> Call:
    """`relay.dyn.tile(data, reps)`."""
    return Call(d.DynTileOp, [data, reps])


def broadcast_to(data: Expr, shape: Expr) -> Call:
    """`relay.dyn.broadcast_to(data, shape)`."""
    return Call(d.DynBroadcastToOp, [data, shape])


def zeros(shape: Expr, dtype: str) -> Call:
    """`relay.dyn.zeros(shape, dtype)`."""
    return Call(d.DynZerosOp, [shape], {"dtype": attrs.dtype(dtype)})


def ones(shape: Expr, dtype: str) -> Call:
    """`relay.dyn.ones(shape, dtype)`."""
    return Call(d.DynOnesOp, [shape], {"dtype": attrs.dtype(dtype)})


def full(fill_value: Expr, shape: Expr, dtype: str = "") -> Call:
    """`relay.dyn.full(fill_value, shape, dtype)`; "" takes the fill value's dtype."""
    props: dict[str, Attribute] = {"dtype": attrs.dtype(dtype)} if dtype else {}
    return Call(d.DynFullOp, [fill_value, shape], props)


def pad(
    data: Expr, pad_width: Expr, pad_value: Expr | float = 0.0, pad_mode: str = "constant"
) -> Call:
    """`relay.dyn.nn.pad(data, pad_width, pad_value, pad_mode)`; a number `pad_value` is a
    float32 constant, as in TVM."""
    value = pad_value if isinstance(pad_value, Expr) else const(np.float32(pad_value))
    return Call(d.DynPadOp, [data, pad_width, value], {"pad_mode": attrs.str_(pad_mode)})


def topk(
    data: Expr,
    k: Expr,
    axis: int = -1,
    ret_type: str = "both",
    is_ascend: bool = False,
    dtype: str = "int32",
) -> Call:
    """`relay.dyn.topk(data, k, axis, ret_type, is_ascend, dtype)`."""
    props = {
        "axis": attrs.int_(axis),
        "ret_type": attrs.str_(ret_type),
        "is_ascend": attrs.bool_(is_ascend),
        "dtype": attrs.dtype(dtype),
    }
    return Call(d.DynTopKOp, [data, k], props)
