"""Builder functions of `relay.nn.space_to_batch_nd` and `relay.nn.batch_to_space_nd`, with
TVM's signatures."""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import space_batch as sb

__all__ = ["batch_to_space_nd", "space_to_batch_nd"]


def _flat(pairs: Sequence[Sequence[int]]) -> list[int]:
    return [int(v) for pair in pairs for v in pair]


def space_to_batch_nd(
    data: Expr,
    block_shape: Sequence[int],
    paddings: Sequence[Sequence[int]],
    pad_value: float = 0,
) -> Call:
    """`relay.nn.space_to_batch_nd(data, block_shape, paddings, pad_value=0)`."""
    props = {
        "block_shape": attrs.ints([int(b) for b in block_shape]),
        "paddings": attrs.ints(_flat(paddings)),
        "pad_value": attrs.float_(float(pad_value)),
    }
    return Call(sb.SpaceToBatchNDOp, [data], props)


def batch_to_space_nd(
    data: Expr, block_shape: Sequence[int], crops: Sequence[Sequence[int]]
) -> Call:
    """`relay.nn.batch_to_space_nd(data, block_shape, crops)`."""
    props = {
        "block_shape": attrs.ints([int(b) for b in block_shape]),
        "crops": attrs.ints(_flat(crops)),
    }
    return Call(sb.BatchToSpaceNDOp, [data], props)
