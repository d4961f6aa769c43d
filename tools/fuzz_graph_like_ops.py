"""`fuzz_graph` generators for the `*_like` ops and `collapse_sum_to` (like operands of
other shapes and dtypes, collapses over leading and unit axes, reshape_like's ranges) and
for `nn.space_to_batch_nd` / `nn.batch_to_space_nd` (merged into `GENERATORS`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xrelay.dialects.interpreter import numpy_dtype
from xrelay.dialects.relay.types import tensor_element_type
from xrelay.tools.fuzz_graph_ops_misc import _shape  # pyright: ignore[reportPrivateUsage]

from xrelay import relay

if TYPE_CHECKING:
    from xrelay.tools.fuzz_graph_ops import GraphMaker

Expr = relay.Expr
Generator = Callable[["GraphMaker"], Expr]


def _reshape_like(g: GraphMaker) -> Expr:
    """reshape_like over the whole shape, or keeping data's leading dims (lhs_begin)."""
    x = g.tensor(dtype=g.any_dtype())
    shape = _shape(x)
    keep = g.rng.randint(0, len(shape) - 1)
    rest = math.prod(shape[keep:])
    like = (g.dim(), rest) if g.rng.random() < 0.5 else (rest,)
    lv = g.var(like, g.rng.choice(("float32", "int8")))
    rhs_begin = len(like) - 1
    return relay.reshape_like(x, lv, lhs_begin=keep, rhs_begin=rhs_begin)


def _cast_like(g: GraphMaker) -> Expr:
    x = g.tensor(dtype=g.any_dtype())
    return relay.cast_like(x, g.var((g.dim(),), g.any_dtype()))


def _small(g: GraphMaker, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts to `shape`: some leading dims dropped, some dims made 1."""
    tail = shape[g.rng.randint(0, len(shape)) :]
    return tuple(1 if g.rng.random() < 0.4 else d for d in tail)


def _broadcast_to_like(g: GraphMaker) -> Expr:
    big = g.tensor(dtype=g.any_dtype())
    small = g.var(_small(g, _shape(big)), _dtype_of(big))
    return relay.broadcast_to_like(small, big)


def _collapse_sum(to: bool) -> Generator:
    def make(g: GraphMaker) -> Expr:
        x = g.tensor(dtype=g.rng.choice(("float32", "float32", "int32", "int8", "float16")))
        target = _small(g, _shape(x))
        if to:
            return relay.collapse_sum_to(x, target)
        return relay.collapse_sum_like(x, g.var(target, _dtype_of(x)))

    return make


def _dtype_of(x: Expr) -> str:
    """The numpy dtype name of a tensor-typed expression (as `fuzz_graph_ops.dtype_of`)."""
    ty = x.checked_type
    assert isinstance(ty, TensorType)
    return str(np.dtype(numpy_dtype(tensor_element_type(cast(Attribute, ty)))))


LIKE_GENERATORS = {
    "relay.reshape_like": _reshape_like,
    "relay.cast_like": _cast_like,
    "relay.broadcast_to_like": _broadcast_to_like,
    "relay.collapse_sum_like": _collapse_sum(to=False),
    "relay.collapse_sum_to": _collapse_sum(to=True),
}
"""A graph generator for each op of `dialects/relay/like_ops.py`."""


def _space_to_batch(g: GraphMaker) -> Expr:
    """space_to_batch_nd over 1 or 2 spatial dims, paddings making the dims divisible."""
    x = g.tensor(rank=g.rng.randint(2, 4), dtype=g.any_dtype())
    shape = _shape(x)
    m = g.rng.randint(1, min(2, len(shape) - 1))
    block = [g.rng.randint(1, 3) for _ in range(m)]
    pads: list[list[int]] = []
    for i, b in enumerate(block):
        before = g.rng.randint(0, 2)
        after = (-(shape[1 + i] + before)) % b
        pads.append([before, after])
    return relay.nn.space_to_batch_nd(x, block, pads, pad_value=g.rng.choice((0, 1, -2)))


def _batch_to_space(g: GraphMaker) -> Expr:
    """batch_to_space_nd of a batch that is a multiple of the block size, with crops."""
    m = g.rng.randint(1, 2)
    block = [g.rng.randint(1, 3) for _ in range(m)]
    dims = [g.dim() for _ in range(m)]
    shape = (
        max(g.batch, 1) * math.prod(block),
        *dims,
        *([g.dim()] if g.rng.random() < 0.5 else []),
    )
    x = g.var(shape, g.any_dtype())
    crops: list[list[int]] = []
    for d, b in zip(dims, block, strict=True):
        before = g.rng.randint(0, d * b - 1)
        crops.append([before, g.rng.randint(0, d * b - before - 1)])
    return relay.nn.batch_to_space_nd(x, block, crops)


SPACE_BATCH_GENERATORS = {
    "relay.nn.space_to_batch_nd": _space_to_batch,
    "relay.nn.batch_to_space_nd": _batch_to_space,
}
"""A graph generator for each op of `dialects/relay/space_batch.py`."""
