"""`fuzz_graph` generators for the sorting, einsum and vision ops (merged into `GENERATORS`)."""

from __future__ import annotations

from collections.abc import Callable
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


def sortable(g: GraphMaker) -> tuple[Expr, int, bool]:
    """Data of any dtype (edge values: NaN, ±inf, ±0, integer extremes), an axis, an order."""
    x = g.tensor(dtype=g.rng.choice(("float32", "float32", "int32", "int64")))
    axis = g.rng.randrange(len(_shape(x)))
    if g.rng.random() < 0.3:
        axis -= len(_shape(x))
    return x, axis, g.rng.random() < 0.5


def _topk(g: GraphMaker) -> Expr:
    x, axis, ascend = sortable(g)
    k = g.rng.randint(0, _shape(x)[axis])
    ret_type = g.rng.choice(("both", "values", "indices"))
    dtype = g.rng.choice(("int32", "int64"))
    out = relay.topk(x, k, axis, ret_type, ascend, dtype)
    return out[g.rng.randrange(2)] if ret_type == "both" else out


def _argsort(g: GraphMaker) -> Expr:
    x, axis, ascend = sortable(g)
    return relay.argsort(x, axis, ascend, g.rng.choice(("int32", "int64")))


def _sort(g: GraphMaker) -> Expr:
    x, axis, ascend = sortable(g)
    return relay.sort(x, axis, ascend)


def _einsum(g: GraphMaker) -> Expr:
    """Batch matmul, a transpose, a sum, a diagonal, an outer product or a broadcast '...'."""
    dtype = g.rng.choice(("float32", "float32", "int32", "int64"))
    b, i, j, k = g.batch, g.dim(), g.dim(), g.dim()
    forms: list[tuple[str, list[tuple[int, ...]]]] = [
        ("bij,bjk->bik", [(b, i, j), (b, j, k)]),
        ("bij->jbi", [(b, i, j)]),
        ("bij->b", [(b, i, j)]),
        ("...ii->...i", [(b, j, j)]),
        ("bi,j", [(b, i), (j,)]),
        ("...j,jk", [(b, 1, j), (j, k)]),
        ("i,i", [(i,), (i,)]),
    ]
    equation, shapes = g.rng.choice(forms)
    operands = [g.var(s, dtype) for s in shapes]
    if g.rng.random() < 0.3:  # a computed operand
        operands[0] = relay.negative(operands[0])
    return relay.einsum(operands, equation)


def _nms(g: GraphMaker) -> Expr:
    """Overlapping boxes (some identical, some flipped), tied and edge-valued scores."""
    batch, classes, count = g.batch, g.dim(1, 3), g.dim(1, 8)
    boxes = g.var((batch, count, 4))
    scores = g.var((batch, classes, count))
    if g.rng.random() < 0.3:
        scores = relay.sigmoid(scores)
    limit = relay.const(np.array(g.rng.randint(-1, 4), "int64"), "int64")
    out = relay.vision.all_class_non_max_suppression(
        boxes,
        scores,
        limit,
        g.rng.choice((0.0, 0.3, 0.5, 1.0)),
        g.rng.choice((-np.inf, 0.0, 0.5)),
        center_point_box=g.rng.random() < 0.5,
    )
    return out[g.rng.randrange(2)]


MISC_GENERATORS: dict[str, Callable[[GraphMaker], Expr]] = {
    "relay.topk": _topk,
    "relay.argsort": _argsort,
    "relay.sort": _sort,
    "relay.einsum": _einsum,
    "relay.vision.all_class_non_max_suppression": _nms,
}
"""A graph generator for each op of this group, by op name."""
