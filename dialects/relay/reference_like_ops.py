"""Reference semantics of `reshape_like`, `cast_like`, `broadcast_to_like`,
`collapse_sum_like` and `collapse_sum_to` (`like_ops.py`): numpy reshape, the cast rules
of `relay.cast`, broadcasting, and a sum over the collapsed axes wrapping in the data's
dtype (as `relay.sum`). The like operand's shape and dtype are read, never its values."""

from __future__ import annotations

from typing import Any

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import like_ops as lk
from xrelay.dialects.relay.base import get_ints
from xrelay.dialects.relay.movement import broadcast_to_shape
from xrelay.dialects.relay.reference_elementwise import cast_array
from xrelay.dialects.relay.reference_tensor import checked_reference

Array = np.ndarray[Any, Any]


def _shape(x: Array) -> tuple[int, ...]:
    return tuple(int(d) for d in x.shape)


@checked_reference(lk.ReshapeLikeOp)
def _reshape_like(ev: Evaluator, op: lk.ReshapeLikeOp, args: list[Value]) -> Value:
    x, like = np.asarray(args[0]), np.asarray(args[1])
    shape = lk.reshape_like_shape(
        _shape(x), _shape(like), *lk.reshape_like_bounds(dict(op.properties))
    )
    return x.reshape(shape)


@checked_reference(lk.CastLikeOp)
def _cast_like(ev: Evaluator, op: lk.CastLikeOp, args: list[Value]) -> Value:
    return cast_array(np.asarray(args[0]), op.result.type)


@checked_reference(lk.BroadcastToLikeOp)
def _broadcast_to_like(ev: Evaluator, op: lk.BroadcastToLikeOp, args: list[Value]) -> Value:
    x, like = np.asarray(args[0]), np.asarray(args[1])
    return np.broadcast_to(x, broadcast_to_shape(_shape(x), _shape(like))).copy()


def collapse_sum(x: Array, target: tuple[int, ...]) -> Array:
    """`x` summed over the axes a broadcast from `target` would have made (wrapping in
    `x`'s dtype), then shaped as `target`."""
    target = lk.collapse_sum_shape(_shape(x), target)
    axes = lk.collapsed_axes(_shape(x), target)
    return np.sum(x, axis=axes, dtype=x.dtype).reshape(target)


@checked_reference(lk.CollapseSumLikeOp)
def _collapse_sum_like(ev: Evaluator, op: lk.CollapseSumLikeOp, args: list[Value]) -> Value:
    return collapse_sum(np.asarray(args[0]), _shape(np.asarray(args[1])))


@checked_reference(lk.CollapseSumToOp)
def _collapse_sum_to(ev: Evaluator, op: lk.CollapseSumToOp, args: list[Value]) -> Value:
    return collapse_sum(np.asarray(args[0]), get_ints(dict(op.properties), "shape"))
