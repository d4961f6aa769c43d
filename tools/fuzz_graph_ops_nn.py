"""Graph generators for the relay ops added for the ONNX frontend (normalization and friends),
merged into `fuzz_graph_ops.GENERATORS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import TensorType

from xrelay import relay

if TYPE_CHECKING:
    from xrelay.tools.fuzz_graph_ops import GraphMaker

Expr = relay.Expr


def _shape(expr: Expr) -> tuple[int, ...]:
    ty = expr.checked_type
    assert isinstance(ty, TensorType), ty
    return tuple(int(d) for d in ty.get_shape())


def _lrn(g: GraphMaker) -> Expr:
    x = g.tensor()
    rank = len(_shape(x))
    return relay.nn.lrn(
        x,
        size=g.rng.randint(1, 6),
        axis=g.rng.randint(-rank, rank - 1),
        bias=g.rng.choice((1.0, 2.0, 0.5)),
        alpha=g.rng.choice((1e-4, 0.5, 2.0)),
        beta=g.rng.choice((0.75, 0.5, 1.0)),
    )


NN_GENERATORS: dict[str, Callable[[GraphMaker], Expr]] = {
    "relay.nn.lrn": _lrn,
}
"""A graph generator for each op of this group, by op name."""
