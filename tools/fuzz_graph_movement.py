"""Graph generators for the ops added for the ONNX frontend (`movement`, `indexing`, `scan`),
merged into `fuzz_graph_ops.GENERATORS`.

Indices are run-time inputs drawn by `Values` (small integers and the type's extremes) or
constants mixing in-range, negative and out-of-range values: the rules of
docs/semantics.md ("Indices out of range") define every one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from xrelay import relay

if TYPE_CHECKING:
    from xrelay.tools.fuzz_graph_ops import GraphMaker

Expr = relay.Expr
Shape = tuple[int, ...]


def _shape(expr: Expr) -> Shape:
    ty = cast(TensorType[Attribute], expr.checked_type)
    return tuple(int(d) for d in ty.get_shape())


def _indices(g: GraphMaker, shape: Shape, size: int) -> Expr:
    """Indices of `shape` for an axis of `size`: an input, or a constant in [-size-2, size+2)."""
    dtype = g.rng.choice(("int32", "int64"))
    if g.rng.random() < 0.4:
        return g.var(shape, dtype)
    values = g.values.np_rng.integers(-size - 2, size + 2, shape)
    return relay.const(np.asarray(values, dtype))


def _broadcast_to(g: GraphMaker) -> Expr:
    shape = tuple(1 if g.rng.random() < 0.4 else g.dim(1, 4) for _ in range(g.rng.randint(0, 3)))
    x = g.var(shape, g.any_dtype())
    target = tuple(g.dim(1, 3) if d == 1 else d for d in shape)
    lead = tuple(g.dim(0, 3) for _ in range(g.rng.randint(0, 2)))
    return relay.broadcast_to(x, lead + target)


def _tile(g: GraphMaker) -> Expr:
    x = g.tensor(dtype=g.any_dtype())
    count = max(0, len(_shape(x)) + g.rng.randint(-1, 1))
    return relay.tile(x, [g.rng.randint(0, 3) for _ in range(count)])


def _reverse(g: GraphMaker) -> Expr:
    x = g.tensor(dtype=g.any_dtype())
    return relay.reverse(x, g.rng.randrange(-len(_shape(x)), len(_shape(x))))


def _trilu(g: GraphMaker) -> Expr:
    x = g.tensor(rank=g.rng.randint(2, 4), dtype=g.any_dtype())
    return relay.trilu(x, g.rng.randint(-3, 3), g.rng.random() < 0.5)


def _nchw_or_nhwc(g: GraphMaker, c: int, h: int, w: int) -> tuple[Expr, str]:
    layout = g.rng.choice(("NCHW", "NHWC"))
    shape = (g.batch, c, h, w) if layout == "NCHW" else (g.batch, h, w, c)
    return g.var(shape, g.any_dtype()), layout


def _depth_to_space(g: GraphMaker) -> Expr:
    b = g.rng.randint(1, 3)
    x, layout = _nchw_or_nhwc(g, g.dim(1, 2) * b * b, g.dim(1, 3), g.dim(1, 3))
    return relay.nn.depth_to_space(x, b, layout, g.rng.choice(("DCR", "CRD")))


def _space_to_depth(g: GraphMaker) -> Expr:
    b = g.rng.randint(1, 3)
    x, layout = _nchw_or_nhwc(g, g.dim(1, 3), g.dim(1, 3) * b, g.dim(1, 3) * b)
    return relay.nn.space_to_depth(x, b, layout)


def _elements_indices(g: GraphMaker, data: Shape, axis: int) -> Shape:
    """An indices shape for gather / scatter_elements: at most data's dims off the axis."""
    out = [g.rng.randint(min(d, 1), d) for d in data]
    out[axis] = g.rng.randint(1, 4) if data[axis] else 0
    return tuple(out)


def _gather(g: GraphMaker) -> Expr:
    x = g.tensor(dtype=g.any_dtype())
    data = _shape(x)
    axis = g.rng.randrange(len(data))
    shape = _elements_indices(g, data, axis)
    return relay.gather(
        x, axis - len(data) if g.rng.random() < 0.3 else axis, _indices(g, shape, data[axis])
    )


def _gather_nd(g: GraphMaker) -> Expr:
    x = g.tensor(dtype=g.any_dtype())
    data = _shape(x)
    batch = 1 if len(data) > 1 and g.rng.random() < 0.3 else 0
    depth = g.rng.randint(1, len(data) - batch)
    ys = tuple(g.dim(1, 3) for _ in range(g.rng.randint(0, 2)))
    if 0 in data[batch : batch + depth] and 0 not in data[batch + depth :]:
        ys = (*ys, 0)  # nothing to read: an empty result
    shape = (depth, *data[:batch], *ys)
    return relay.gather_nd(x, _indices(g, shape, max(data)), batch_dims=batch)


def _scatter_elements(g: GraphMaker) -> Expr:
    dtype = g.any_dtype()
    x = g.tensor(dtype=dtype)
    data = _shape(x)
    axis = g.rng.randrange(len(data))
    shape = _elements_indices(g, data, axis)
    if not data[axis]:
        shape = (*shape[:axis], g.rng.randint(0, 2), *shape[axis + 1 :])
    updates = g.var(shape, dtype)
    mode = g.rng.choice(("update", "add", "mul", "min", "max"))
    indices = _indices(g, shape, data[axis])
    return relay.scatter_elements(x, indices, updates, axis, mode)


def _scatter_nd(g: GraphMaker) -> Expr:
    dtype = g.any_dtype()
    x = g.tensor(dtype=dtype)
    data = _shape(x)
    depth = g.rng.randint(1, len(data))
    ys = tuple(g.dim(1, 4) for _ in range(g.rng.randint(1, 2)))
    indices = _indices(g, (depth, *ys), max(data))
    updates = g.var((*ys, *data[depth:]), dtype)
    return relay.scatter_nd(
        x, indices, updates, g.rng.choice(("update", "add", "mul", "min", "max"))
    )


def _one_hot(g: GraphMaker) -> Expr:
    depth = g.rng.randint(0, 4)
    shape = tuple(g.dim(0, 3) for _ in range(g.rng.randint(0, 2)))
    indices = _indices(g, shape, depth)
    dtype = g.any_dtype()
    on, off = g.const((), dtype), g.const((), dtype)
    return relay.one_hot(indices, on, off, depth, g.rng.randint(-len(shape) - 1, len(shape)), dtype)


def _scan(fn: Callable[..., Expr]) -> Callable[[GraphMaker], Expr]:
    def make(g: GraphMaker) -> Expr:
        x = g.tensor(dtype=g.any_dtype())
        rank = len(_shape(x))
        axis = None if g.rng.random() < 0.3 else g.rng.randint(-rank, rank - 1)
        dtype = g.rng.choice((None, None, "float32", "int32", "int64"))
        return fn(x, axis, dtype, g.rng.random() < 0.5)

    return make


def _arange(g: GraphMaker) -> Expr:
    start = g.rng.choice((0, -3, 2.5, 1))
    step = g.rng.choice((1, 2, -1, 0.5, -1.5))
    stop = start + step * g.rng.randint(-1, 6) + g.rng.choice((0, 0.25))
    dtype = g.rng.choice(("float32", "int32", "int64"))
    out = relay.arange(start, stop, step, dtype)
    return relay.add(out, g.var(_shape(out), dtype))


def _shape_query(fn: Callable[..., Expr]) -> Callable[[GraphMaker], Expr]:
    def make(g: GraphMaker) -> Expr:
        return fn(g.tensor(dtype=g.any_dtype()), g.rng.choice(("int32", "int64")))

    return make


MOVEMENT_GENERATORS: dict[str, Callable[[GraphMaker], Expr]] = {
    "relay.broadcast_to": _broadcast_to,
    "relay.tile": _tile,
    "relay.reverse": _reverse,
    "relay.trilu": _trilu,
    "relay.nn.depth_to_space": _depth_to_space,
    "relay.nn.space_to_depth": _space_to_depth,
    "relay.gather": _gather,
    "relay.gather_nd": _gather_nd,
    "relay.scatter_elements": _scatter_elements,
    "relay.scatter_nd": _scatter_nd,
    "relay.one_hot": _one_hot,
    "relay.cumsum": _scan(relay.cumsum),
    "relay.cumprod": _scan(relay.cumprod),
    "relay.arange": _arange,
    "relay.shape_of": _shape_query(relay.shape_of),
    "relay.ndarray_size": _shape_query(relay.ndarray_size),
}
"""A graph generator for each op of `movement`, `indexing` and `scan`, by op name."""
