"""Reference semantics of `nn.space_to_batch_nd` and `nn.batch_to_space_nd`
(`space_batch.py`): numpy pad, reshape and transpose, as TensorFlow defines them."""

from __future__ import annotations

from typing import Any

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import space_batch as sb
from xrelay.dialects.relay.base import get_float, get_ints
from xrelay.dialects.relay.reference_tensor import checked_reference

Array = np.ndarray[Any, Any]


def space_to_batch(x: Array, block: tuple[int, ...], pads: tuple[int, ...], value: float) -> Array:
    """`[N, D.., R..]` padded, split into blocks, block offsets moved before the batch."""
    sb.space_to_batch_shape(tuple(x.shape), block, pads)
    m = len(block)
    widths = [(0, 0)] + [(pads[2 * i], pads[2 * i + 1]) for i in range(m)]
    widths += [(0, 0)] * (x.ndim - 1 - m)
    padded = np.pad(x, widths, constant_values=np.array(value).astype(x.dtype))
    n, rest = x.shape[0], x.shape[1 + m :]
    split: list[int] = [n]
    for i, b in enumerate(block):
        split += [padded.shape[1 + i] // b, b]
    y = padded.reshape(*split, *rest)
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    order += list(range(1 + 2 * m, y.ndim))
    y = y.transpose(order)
    return y.reshape(n * int(np.prod(block)), *y.shape[1 + m : 1 + 2 * m], *rest)


def batch_to_space(x: Array, block: tuple[int, ...], crops: tuple[int, ...]) -> Array:
    """The inverse of `space_to_batch` (without padding), then `crops` dropped."""
    shape = sb.batch_to_space_shape(tuple(x.shape), block, crops)
    m = len(block)
    n, dims, rest = shape[0], x.shape[1 : 1 + m], x.shape[1 + m :]
    y = x[: n * int(np.prod(block))].reshape(*block, n, *dims, *rest)
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(1 + 2 * m, y.ndim))
    y = y.transpose(order).reshape(n, *(d * b for d, b in zip(dims, block, strict=True)), *rest)
    index = [slice(None)] + [
        slice(crops[2 * i], y.shape[1 + i] - crops[2 * i + 1]) for i in range(m)
    ]
    return np.ascontiguousarray(y[tuple(index)])


@checked_reference(sb.SpaceToBatchNDOp)
def _space_to_batch(ev: Evaluator, op: sb.SpaceToBatchNDOp, args: list[Value]) -> Value:
    props = dict(op.properties)
    return space_to_batch(
        np.asarray(args[0]),
        get_ints(props, "block_shape"),
        get_ints(props, "paddings"),
        get_float(props, "pad_value"),
    )


@checked_reference(sb.BatchToSpaceNDOp)
def _batch_to_space(ev: Evaluator, op: sb.BatchToSpaceNDOp, args: list[Value]) -> Value:
    props = dict(op.properties)
    return batch_to_space(
        np.asarray(args[0]), get_ints(props, "block_shape"), get_ints(props, "crops")
    )
