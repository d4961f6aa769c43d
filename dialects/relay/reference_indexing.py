"""Reference semantics of `gather`, `gather_nd`, `scatter_elements`, `scatter_nd` and `one_hot`,
in numpy (`indexing.py` has the shape rules).

Indices (docs/semantics.md, "Indices out of range"): a negative index counts from the end
once (`-1` is the last); a gather then clamps to the axis, a scatter drops an update
whose index is still outside it. Scatters apply updates one at a time in row-major order
of the update, so with repeated indices the last `update` wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import indexing as ix
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.dialects.relay.reference_tensor import checked_reference

Array = npt.NDArray[Any]


def _shape(x: Array) -> tuple[int, ...]:
    return tuple(int(d) for d in x.shape)


def gather_index(indices: Array, size: int) -> Array:
    """Gather's index rule: negative once from the end, then clamped to [0, size - 1]."""
    q = indices.astype(np.int64)
    q = np.where(q < 0, q + size, q)
    if size == 0 and q.size:
        raise RelayTypeError("cannot gather from an empty axis")
    return np.clip(q, 0, max(size - 1, 0))


def scatter_index(index: int, size: int) -> int | None:
    """Scatter's index rule: negative once from the end; None (drop) if still outside."""
    q = index + size if index < 0 else index
    return q if 0 <= q < size else None


COMBINE: dict[str, Callable[[Array, Array], Array]] = {
    "update": lambda old, new: new,
    "add": np.add,
    "mul": np.multiply,
    "min": np.minimum,
    "max": np.maximum,
}
"""How a scatter combines the old element with the update (numpy's NaN rules for min/max)."""


@checked_reference(ix.GatherOp)
def _gather(ev: Evaluator, op: ix.GatherOp, args: list[Value]) -> Value:
    data, indices = np.asarray(args[0]), np.asarray(args[1])
    axis = ix.elements_shape(_shape(data), _shape(indices), op.axis.value.data, "indices")
    q = gather_index(indices, data.shape[axis])
    grid: list[Array] = [np.asarray(g) for g in np.indices(indices.shape, sparse=True)]
    grid[axis] = q
    return data[tuple(grid)]


@checked_reference(ix.GatherNDOp)
def _gather_nd(ev: Evaluator, op: ix.GatherNDOp, args: list[Value]) -> Value:
    data, indices = np.asarray(args[0]), np.asarray(args[1])
    batch = op.batch_dims.value.data
    out_shape = ix.nd_shape(_shape(data), _shape(indices), batch)
    if 0 in out_shape:
        return np.empty(out_shape, data.dtype)
    depth, ys = indices.shape[0], indices.shape[1:]
    grid = np.indices(ys, sparse=True)
    key = [grid[b] for b in range(batch)]
    key += [gather_index(indices[m], data.shape[batch + m]) for m in range(depth)]
    return np.asarray(data[tuple(key)]).reshape(out_shape)


def _combine(op_name: str, old: Array, new: Array) -> Array:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(COMBINE[op_name](old, new)).astype(old.dtype)


@checked_reference(ix.ScatterElementsOp)
def _scatter_elements(ev: Evaluator, op: ix.ScatterElementsOp, args: list[Value]) -> Value:
    out = np.array(args[0], copy=True)
    indices, updates = np.asarray(args[1]).astype(np.int64), np.asarray(args[2])
    axis = op.axis.value.data % max(out.ndim, 1)
    reduction = op.reduction.data
    for j in np.ndindex(*indices.shape):
        q = scatter_index(int(indices[j]), out.shape[axis])
        if q is None:
            continue
        at = (*j[:axis], q, *j[axis + 1 :])
        out[at] = _combine(reduction, out[at], updates[j])
    return out


@checked_reference(ix.ScatterNDOp)
def _scatter_nd(ev: Evaluator, op: ix.ScatterNDOp, args: list[Value]) -> Value:
    out = np.array(args[0], copy=True)
    indices, updates = np.asarray(args[1]).astype(np.int64), np.asarray(args[2])
    depth = indices.shape[0]
    for y in np.ndindex(*indices.shape[1:]):
        picked = [scatter_index(int(indices[(m, *y)]), out.shape[m]) for m in range(depth)]
        if any(q is None for q in picked):
            continue
        at = tuple(q for q in picked if q is not None)
        out[at] = _combine(op.mode.data, out[at], updates[y])
    return out


@checked_reference(ix.OneHotOp)
def _one_hot(ev: Evaluator, op: ix.OneHotOp, args: list[Value]) -> Value:
    indices = np.asarray(args[0]).astype(np.int64)
    on, off = np.asarray(args[1]), np.asarray(args[2])
    depth, axis = op.depth.value.data, op.axis.value.data
    hot = indices[..., None] == np.arange(depth)
    out = np.where(hot, on, off).astype(on.dtype)
    return np.moveaxis(out, -1, axis if axis >= 0 else axis + indices.ndim + 1)
