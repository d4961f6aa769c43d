"""Reference semantics of the dynamic ops (`dyn.py`): the shape operands are read at run
time and turned into the static op's properties (`dyn_static.static_form`, the table
`dynamic-to-static` uses), then the static op's numpy rule applies."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import creation as c
from xrelay.dialects.relay import dyn as d
from xrelay.dialects.relay import movement as m
from xrelay.dialects.relay import tensor as t
from xrelay.dialects.relay.base import RelayOp, get_bool, get_ints, get_str
from xrelay.dialects.relay.dyn_static import SHAPE_OPERANDS, StaticForm, static_form
from xrelay.dialects.relay.reference_algorithm import topk
from xrelay.dialects.relay.reference_tensor import checked_reference
from xrelay.dialects.relay.types import numpy_dtype, tensor_element_type

Array = npt.NDArray[Any]


def _form(op: RelayOp, args: list[Value]) -> StaticForm:
    return static_form(op, [np.asarray(args[i]) for i in SHAPE_OPERANDS[type(op)]])


def _shape(x: Array) -> tuple[int, ...]:
    return tuple(int(n) for n in x.shape)


@checked_reference(d.DynReshapeOp)
def _reshape(ev: Evaluator, op: d.DynReshapeOp, args: list[Value]) -> Value:
    x, props = np.asarray(args[0]), _form(op, args).properties
    out = t.reshape_shape(_shape(x), get_ints(props, "newshape"), get_bool(props, "allowzero"))
    return x.reshape(out)


@checked_reference(d.DynSqueezeOp)
def _squeeze(ev: Evaluator, op: d.DynSqueezeOp, args: list[Value]) -> Value:
    x, props = np.asarray(args[0]), _form(op, args).properties
    return np.squeeze(x, tuple(t.squeeze_axes(_shape(x), get_ints(props, "axis"))))


@checked_reference(d.DynTileOp)
def _tile(ev: Evaluator, op: d.DynTileOp, args: list[Value]) -> Value:
    x, props = np.asarray(args[0]), _form(op, args).properties
    dims, reps = m.tile_params(_shape(x), get_ints(props, "reps"))
    return np.tile(x.reshape(dims), reps)


@checked_reference(d.DynBroadcastToOp)
def _broadcast_to(ev: Evaluator, op: d.DynBroadcastToOp, args: list[Value]) -> Value:
    x, props = np.asarray(args[0]), _form(op, args).properties
    return np.broadcast_to(x, m.broadcast_to_shape(_shape(x), get_ints(props, "shape"))).copy()


def _result_dtype(op: RelayOp) -> np.dtype[Any]:
    return numpy_dtype(tensor_element_type(op.results[0].type))


@checked_reference(d.DynZerosOp, d.DynOnesOp)
def _fill(ev: Evaluator, op: d.DynZerosOp | d.DynOnesOp, args: list[Value]) -> Value:
    shape = c.static_shape(_form(op, args).properties)
    value = 0 if isinstance(op, d.DynZerosOp) else 1
    return np.full(shape, value, dtype=_result_dtype(op))


@checked_reference(d.DynFullOp)
def _full(ev: Evaluator, op: d.DynFullOp, args: list[Value]) -> Value:
    shape = c.static_shape(_form(op, args).properties)
    return np.full(shape, np.asarray(args[0]), dtype=_result_dtype(op))


@checked_reference(d.DynPadOp)
def _pad(ev: Evaluator, op: d.DynPadOp, args: list[Value]) -> Value:
    x, props = np.asarray(args[0]), _form(op, args).properties
    widths = get_ints(props, "pad_width")
    if len(widths) != 2 * x.ndim or any(w < 0 for w in widths):
        raise ValueError(f"pad_width must be {x.ndim} pairs of non-negative ints, got {widths}")
    pairs = [(widths[2 * i], widths[2 * i + 1]) for i in range(x.ndim)]
    mode = get_str(props, "pad_mode")
    if mode == "constant":
        return np.pad(x, pairs, mode="constant", constant_values=np.asarray(args[2]))
    return np.pad(x, pairs, mode=cast(Any, mode))


@checked_reference(d.DynTopKOp)
def _topk(ev: Evaluator, op: d.DynTopKOp, args: list[Value]) -> Value:
    return topk(np.asarray(args[0]), _form(op, args).properties)
