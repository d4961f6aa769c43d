"""`fuzz_graph` generators for the dynamic ops (`relay.dyn.*`) and `relay.sparse_to_dense`
(merged into `GENERATORS`).

The C target compiles static shapes only, so each shape here is one `dynamic-to-static`
(run by `optimize`, so by every fuzzed build) folds: `shape_of` of an extra input of the
wanted shape, or constant arithmetic (`const + const`). The interpreter runs the dynamic
op itself, reading the shape at run time: the two sides of the comparison take different
paths. Each generator ends in a static `reshape` to the shape the dynamic op makes, so
the graph's value has a static type as the other generators' do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import TensorType
from xrelay.tools.fuzz_graph_ops_misc import sortable

from xrelay import relay

if TYPE_CHECKING:
    from xrelay.tools.fuzz_graph_ops import GraphMaker

Expr = relay.Expr


def _shape(expr: Expr) -> tuple[int, ...]:
    ty = expr.checked_type
    assert isinstance(ty, TensorType), ty
    return tuple(int(d) for d in ty.get_shape())


def static(out: Expr, shape: Sequence[int]) -> Expr:
    """`out` (of `?` dims) reshaped to the static `shape` it has at run time."""
    return relay.reshape(out, [int(d) for d in shape], allowzero=True)


def shape_expr(g: GraphMaker, values: Sequence[int], signed: bool = False) -> Expr:
    """An expression of `values` that folds at compile time but is no constant: `shape_of`
    of an extra input (non-negative values only) or a sum of two constants."""
    dtype = g.rng.choice(("int32", "int64"))
    if not signed and all(v >= 0 for v in values) and g.rng.random() < 0.5:
        return relay.shape_of(g.var(tuple(values), "float32"), dtype)
    split = np.array([g.rng.randint(-3, 3) for _ in values], dtype)
    return relay.add(relay.const(np.array(values, dtype) - split), relay.const(split))


def _dyn_reshape(g: GraphMaker) -> Expr:
    """dyn.reshape: a permutation of the dims, or flat, with 0 (copy) and -1 (infer)."""
    x = g.tensor(dtype=g.any_dtype())
    shape = list(_shape(x))
    choices = [(list(reversed(shape)), True), ([int(np.prod(shape))], True)]
    choices.append(([0] * len(shape), False))
    if len(shape) >= 2 and 0 not in shape:
        choices.append(([*shape[:-2], -1], False))
    newshape, allowzero = g.rng.choice(choices)
    out = relay.reshape(x, shape_expr(g, newshape, signed=True), allowzero=allowzero)
    size = int(np.prod(shape))
    result = [size // max(int(np.prod(shape[:-2])), 1) if d == -1 else d for d in newshape]
    return static(out, shape if newshape == [0] * len(shape) and not allowzero else result)


def _dyn_squeeze(g: GraphMaker) -> Expr:
    """dyn.squeeze: the unit dims of an input made to have some (negative axes too)."""
    shape = [g.batch, *(g.rng.choice((1, g.dim())) for _ in range(g.rng.randint(1, 3)))]
    x = g.var(tuple(shape), g.any_dtype())
    units = [a for a, d in enumerate(shape) if d == 1]
    axes = g.rng.sample(units, g.rng.randint(0, len(units))) if units else []
    axes = [a - len(shape) if g.rng.random() < 0.3 else a for a in axes]
    if not axes:
        x = relay.expand_dims(x, 0)
        shape, axes = [1, *shape], [0]
    gone = {a % len(shape) for a in axes}
    out = relay.squeeze(x, shape_expr(g, axes, signed=True))
    return static(out, [d for a, d in enumerate(shape) if a not in gone])


def _dyn_tile(g: GraphMaker) -> Expr:
    """dyn.tile: reps shorter, as long as or longer than the rank (0 reps included)."""
    x = g.tensor(dtype=g.any_dtype())
    reps = [g.rng.choice((0, 1, 1, 2, 3)) for _ in range(g.rng.randint(1, len(_shape(x)) + 1))]
    return static(relay.tile(x, shape_expr(g, reps)), np.tile(np.zeros(_shape(x)), reps).shape)


def _dyn_broadcast_to(g: GraphMaker) -> Expr:
    """dyn.broadcast_to: unit dims stretched, leading dims added."""
    shape = [g.rng.choice((1, g.dim())) for _ in range(g.rng.randint(1, 3))]
    x = g.var(tuple(shape), g.any_dtype())
    target = [g.dim() if d == 1 else d for d in shape]
    target = [g.dim() for _ in range(g.rng.randint(0, 2))] + target
    return static(relay.broadcast_to(x, shape_expr(g, target)), target)


def _fill(op: Callable[[Expr, str], Expr]) -> Callable[[GraphMaker], Expr]:
    def make(g: GraphMaker) -> Expr:
        """dyn.zeros / dyn.ones: a shape (a zero dim included), any dtype, added to an input
        so the graph reads one."""
        shape = [g.rng.choice((0, g.dim(), g.dim())) for _ in range(g.rng.randint(1, 3))]
        dtype = g.any_dtype()
        made = static(op(shape_expr(g, shape), dtype), shape)
        return relay.add(made, g.var(tuple(shape), dtype))

    return make


def _dyn_full(g: GraphMaker) -> Expr:
    """dyn.full: a scalar input broadcast to a folded shape, its dtype or another."""
    dtype = g.any_dtype()
    fill = g.var((), dtype)
    shape = [g.dim() for _ in range(g.rng.randint(1, 3))]
    out = relay.full(fill, shape_expr(g, shape), g.rng.choice(("", dtype, "float32")))
    return static(out, shape)


def _dyn_pad(g: GraphMaker) -> Expr:
    """dyn.nn.pad: computed widths, a constant pad value (TVM's rule: both must fold), the
    four modes."""
    x = g.tensor(dtype=g.any_dtype())
    shape = _shape(x)
    mode = g.rng.choice(("constant", "constant", "edge", "reflect", "wrap"))
    widths: list[list[int]] = []
    for d in shape:
        limit = 0 if (mode != "constant" and d == 0) else (d - 1 if mode == "reflect" else 2)
        widths.append([g.rng.randint(0, max(limit, 0)) for _ in range(2)])
    dtype = g.rng.choice(("int32", "int64"))
    flat = np.array(widths, dtype).reshape(len(shape), 2)
    pad_width = relay.add(relay.const(flat), relay.const(np.zeros_like(flat)))
    out = relay.nn.pad(x, pad_width, g.rng.choice((0.0, 1.5, -2.0)), mode)
    return static(out, [d + b + a for d, (b, a) in zip(shape, widths, strict=True)])


def _sparse_to_dense(g: GraphMaker) -> Expr:
    """sparse_to_dense (static): 0-D, 1-D or 2-D indices of any integer type with repeats,
    negative and out-of-range ones; one value or one per index; a default of another dtype."""
    dtype = g.any_dtype()
    rank = g.rng.randint(1, 3)
    shape = [g.rng.choice((0, g.dim(), g.dim())) for _ in range(rank)]
    kind = g.rng.choice((0, 1, 2)) if rank == 1 else 2
    count = g.rng.randint(0, 5)
    index_shape = () if kind == 0 else ((count,) if kind == 1 else (count, rank))
    index_dtype = g.rng.choice(("int32", "int64", "int8", "uint8"))
    low = -6 if index_dtype.startswith("int") else 0
    indices = relay.const(
        np.array(g.rng.choices(range(low, 7), k=int(np.prod(index_shape))), index_dtype).reshape(
            index_shape
        )
    )
    per_index = kind != 0 and g.rng.random() < 0.7
    values = g.var((count,) if per_index else (), dtype)
    default = g.var((), g.rng.choice((dtype, "float32", "int32")))
    return relay.sparse_to_dense(indices, shape, values, default)


def _dyn_topk(g: GraphMaker) -> Expr:
    """dyn.topk: a folded k (0: the whole axis), one result, index dtypes float32 too."""
    x, axis, ascend = sortable(g)
    shape = list(_shape(x))
    n = shape[axis]
    k = g.rng.randint(0, n)
    ret_type = g.rng.choice(("both", "values", "indices"))
    dtype = g.rng.choice(("int32", "int64", "float32"))
    out = relay.topk(x, shape_expr(g, [k]), axis, ret_type, ascend, dtype)
    if ret_type == "both":
        out = out[g.rng.randrange(2)]
    shape[axis] = k if k >= 1 else n
    return static(out, shape)


DYN_GENERATORS: dict[str, Callable[[GraphMaker], Expr]] = {
    "relay.dyn.reshape": _dyn_reshape,
    "relay.dyn.squeeze": _dyn_squeeze,
    "relay.dyn.tile": _dyn_tile,
    "relay.dyn.broadcast_to": _dyn_broadcast_to,
    "relay.dyn.zeros": _fill(relay.zeros),
    "relay.dyn.ones": _fill(relay.ones),
    "relay.dyn.full": _dyn_full,
    "relay.dyn.nn.pad": _dyn_pad,
    "relay.sparse_to_dense": _sparse_to_dense,
    "relay.dyn.topk": _dyn_topk,
}
"""A graph generator for every dynamic op (and sparse_to_dense), by op name."""
