"""Reference semantics of `broadcast_to`, `tile`, `reverse`, `trilu`, `nn.depth_to_space` and
`nn.space_to_depth`, in numpy (`movement.py` has the shape rules)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import movement as m
from xrelay.dialects.relay.base import get_ints
from xrelay.dialects.relay.reference_tensor import checked_reference

Array = npt.NDArray[Any]


def _shape(x: Array) -> tuple[int, ...]:
    return tuple(int(d) for d in x.shape)


@checked_reference(m.BroadcastToOp)
def _broadcast_to(ev: Evaluator, op: m.BroadcastToOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    shape = m.broadcast_to_shape(_shape(x), get_ints(dict(op.properties), "shape"))
    return np.broadcast_to(x, shape).copy()


@checked_reference(m.TileOp)
def _tile(ev: Evaluator, op: m.TileOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    dims, reps = m.tile_params(_shape(x), get_ints(dict(op.properties), "reps"))
    return np.tile(x.reshape(dims), reps)


@checked_reference(m.ReverseOp)
def _reverse(ev: Evaluator, op: m.ReverseOp, args: list[Value]) -> Value:
    return np.flip(np.asarray(args[0]), op.axis.value.data).copy()


def trilu_mask(rows: int, cols: int, k: int, upper: bool) -> Array:
    """Where `trilu` keeps its input: `j - i >= k` (upper) or `j - i <= k` (lower)."""
    diff = np.arange(cols)[None, :] - np.arange(rows)[:, None]
    return diff >= k if upper else diff <= k


@checked_reference(m.TriluOp)
def _trilu(ev: Evaluator, op: m.TriluOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    mask = trilu_mask(x.shape[-2], x.shape[-1], op.k.value.data, op.upper.value.data != 0)
    return np.where(mask, x, np.zeros((), x.dtype))


def _as_nchw(x: Array, layout: str) -> Array:
    return x if layout == "NCHW" else x.transpose(0, 3, 1, 2)


def _from_nchw(x: Array, layout: str) -> Array:
    return x if layout == "NCHW" else x.transpose(0, 2, 3, 1)


@checked_reference(m.DepthToSpaceOp)
def _depth_to_space(ev: Evaluator, op: m.DepthToSpaceOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    b, layout = m.space_params(dict(op.properties), _shape(x))
    m.depth_to_space_shape(_shape(x), b, layout)
    y = _as_nchw(x, layout)
    n, c, h, w = y.shape
    if op.mode.data == "DCR":
        y = y.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        y = y.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return _from_nchw(y.reshape(n, c // (b * b), h * b, w * b), layout).copy()


@checked_reference(m.SpaceToDepthOp)
def _space_to_depth(ev: Evaluator, op: m.SpaceToDepthOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    b, layout = m.space_params(dict(op.properties), _shape(x))
    m.space_to_depth_shape(_shape(x), b, layout)
    y = _as_nchw(x, layout)
    n, c, h, w = y.shape
    y = y.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return _from_nchw(y.reshape(n, c * b * b, h // b, w // b), layout).copy()
