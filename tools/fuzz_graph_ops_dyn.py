"""`fuzz_graph` generators for the dynamic ops (`relay.dyn.*`, merged into `GENERATORS`).

The C target compiles static shapes only, so each shape here is one `dynamic-to-static`
(run by `optimize`, so by every fuzzed build) folds: `shape_of` of an extra input of the
wanted shape, or constant arithmetic (`const + const`). The interpreter runs the dynamic
op itself, reading the shape at run time: the two sides of the comparison take different
paths.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import TensorType

from xrelay import relay

if TYPE_CHECKING:
    from xrelay.tools.fuzz_graph_ops import GraphMaker

Expr = relay.Expr


def _shape(expr: Expr) -> tuple[int, ...]:
    ty = expr.checked_type
    assert isinstance(ty, TensorType), ty
    return tuple(int(d) for d in ty.get_shape())


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
    choices = [list(reversed(shape)), [int(np.prod(shape))], [0] * len(shape)]
    if len(shape) >= 2:
        choices.append([*shape[:-2], -1])
    return relay.reshape(x, shape_expr(g, g.rng.choice(choices), signed=True))


def _dyn_squeeze(g: GraphMaker) -> Expr:
    """dyn.squeeze: the unit dims of an input made to have some (negative axes too)."""
    shape = [g.batch, *(g.rng.choice((1, g.dim())) for _ in range(g.rng.randint(1, 3)))]
    x = g.var(tuple(shape), g.any_dtype())
    units = [a for a, d in enumerate(shape) if d == 1]
    axes = g.rng.sample(units, g.rng.randint(0, len(units))) if units else []
    axes = [a - len(shape) if g.rng.random() < 0.3 else a for a in axes]
    if not axes:
        x = relay.expand_dims(x, 0)
        axes = [0]
    return relay.squeeze(x, shape_expr(g, axes, signed=True))


def _dyn_tile(g: GraphMaker) -> Expr:
    """dyn.tile: reps shorter, as long as or longer than the rank (0 reps included)."""
    x = g.tensor(dtype=g.any_dtype())
    reps = [g.rng.choice((0, 1, 1, 2, 3)) for _ in range(g.rng.randint(1, len(_shape(x)) + 1))]
    return relay.tile(x, shape_expr(g, reps))


def _dyn_broadcast_to(g: GraphMaker) -> Expr:
    """dyn.broadcast_to: unit dims stretched, leading dims added."""
    shape = [g.rng.choice((1, g.dim())) for _ in range(g.rng.randint(1, 3))]
    x = g.var(tuple(shape), g.any_dtype())
    target = [g.dim() if d == 1 else d for d in shape]
    target = [g.dim() for _ in range(g.rng.randint(0, 2))] + target
    return relay.broadcast_to(x, shape_expr(g, target))


def _fill(op: Callable[[Expr, str], Expr]) -> Callable[[GraphMaker], Expr]:
    def make(g: GraphMaker) -> Expr:
        """dyn.zeros / dyn.ones: a shape (a zero dim included), any dtype, added to an input
        so the graph reads one."""
        shape = [g.rng.choice((0, g.dim(), g.dim())) for _ in range(g.rng.randint(1, 3))]
        dtype = g.any_dtype()
        return relay.add(op(shape_expr(g, shape), dtype), g.var(tuple(shape), dtype))

    return make


def _dyn_full(g: GraphMaker) -> Expr:
    """dyn.full: a scalar input broadcast to a folded shape, its dtype or another."""
    dtype = g.any_dtype()
    fill = g.var((), dtype)
    shape = [g.dim() for _ in range(g.rng.randint(1, 3))]
    return relay.full(fill, shape_expr(g, shape), g.rng.choice(("", dtype, "float32")))


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
    return relay.nn.pad(x, pad_width, g.rng.choice((0.0, 1.5, -2.0)), mode)


DYN_GENERATORS: dict[str, Callable[[GraphMaker], Expr]] = {
    "relay.dyn.reshape": _dyn_reshape,
    "relay.dyn.squeeze": _dyn_squeeze,
    "relay.dyn.tile": _dyn_tile,
    "relay.dyn.broadcast_to": _dyn_broadcast_to,
    "relay.dyn.zeros": _fill(relay.zeros),
    "relay.dyn.ones": _fill(relay.ones),
    "relay.dyn.full": _dyn_full,
    "relay.dyn.nn.pad": _dyn_pad,
}
"""A graph generator for every dynamic op, by op name."""
