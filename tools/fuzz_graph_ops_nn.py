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


def _batch_matmul(g: GraphMaker) -> Expr:
    batch, m, k, n = g.rng.choice((1, 2, 3)), g.dim(), g.dim(), g.dim()
    ta, tb = g.rng.random() < 0.3, g.rng.random() < 0.7
    x_batch, y_batch = g.rng.choice(((batch, batch), (1, batch), (batch, 1)))
    x = g.var((x_batch, k, m) if ta else (x_batch, m, k))
    y = g.var((y_batch, n, k) if tb else (y_batch, k, n))
    return relay.nn.batch_matmul(x, y, transpose_a=ta, transpose_b=tb)


def _norm(kind: str) -> Callable[[GraphMaker], Expr]:
    def make(g: GraphMaker) -> Expr:
        x = g.tensor(rank=g.rng.randint(2, 4))
        shape = _shape(x)
        axis = g.rng.randrange(len(shape)) if kind == "layer" else 1
        channels = shape[axis]
        gamma, beta = g.const((channels,), finite=True), g.const((channels,), finite=True)
        epsilon = g.rng.choice((1e-5, 1e-3, 0.0))
        center, scale = g.rng.random() < 0.8, g.rng.random() < 0.8
        if kind == "layer":
            return relay.nn.layer_norm(
                x, gamma, beta, axis=axis, epsilon=epsilon, center=center, scale=scale
            )
        if kind == "instance":
            return relay.nn.instance_norm(
                x, gamma, beta, axis=axis, epsilon=epsilon, center=center, scale=scale
            )
        groups = g.rng.choice([d for d in range(1, channels + 1) if channels % d == 0])
        return relay.nn.group_norm(
            x, gamma, beta, groups, axis=axis, epsilon=epsilon, center=center, scale=scale
        )

    return make


def _prelu(g: GraphMaker) -> Expr:
    x = g.tensor()
    shape = _shape(x)
    axis = g.rng.randrange(len(shape))
    alpha = g.var((shape[axis],)) if g.rng.random() < 0.5 else g.const((shape[axis],))
    return relay.nn.prelu(x, alpha, axis=axis - len(shape) if g.rng.random() < 0.3 else axis)


def _l2_normalize(g: GraphMaker) -> Expr:
    x = g.tensor()
    rank = len(_shape(x))
    axis = None if g.rng.random() < 0.3 else g.rng.sample(range(rank), g.rng.randint(1, rank))
    return relay.nn.l2_normalize(x, g.rng.choice((1e-12, 0.5, 0.0, 1e-100)), axis)


def _adaptive_pool(fn: Callable[..., Expr]) -> Callable[[GraphMaker], Expr]:
    def make(g: GraphMaker) -> Expr:
        x = g.nchw(dtype=g.rng.choice(("float32", "float32", "int32")))
        size = g.rng.choice((None, 1, (g.dim(1, 4), g.dim(1, 4)), (g.dim(1, 9), g.dim(1, 9))))
        return fn(x, size)

    return make


NN_GENERATORS: dict[str, Callable[[GraphMaker], Expr]] = {
    "relay.nn.lrn": _lrn,
    "relay.nn.batch_matmul": _batch_matmul,
    "relay.nn.layer_norm": _norm("layer"),
    "relay.nn.instance_norm": _norm("instance"),
    "relay.nn.group_norm": _norm("group"),
    "relay.nn.prelu": _prelu,
    "relay.nn.l2_normalize": _l2_normalize,
    "relay.nn.adaptive_avg_pool2d": _adaptive_pool(relay.nn.adaptive_avg_pool2d),
    "relay.nn.adaptive_max_pool2d": _adaptive_pool(relay.nn.adaptive_max_pool2d),
}
"""A graph generator for each op of this group, by op name."""
