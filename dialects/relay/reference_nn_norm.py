"""Reference semantics of the normalization `relay.nn` ops (`nn_norm`), in numpy.

Sums of squares, means and variances are computed in float64 in a fixed order
(the C target's order), then the result is converted to the data's type.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import nn_norm

Array = npt.NDArray[Any]


def lrn_data(x: Array, size: int, axis: int, bias: float, alpha: float, beta: float) -> Array:
    """`relay.nn.lrn` in float64: each channel's window of squares summed in channel order."""
    data = np.moveaxis(x.astype(np.float64), axis, 0)
    before, after = nn_norm.lrn_window(size)
    channels = data.shape[0]
    squares = data * data
    total = np.zeros_like(data)
    for c in range(channels):
        for k in range(max(0, c - before), min(channels, c + after + 1)):
            total[c] += squares[k]
    with np.errstate(all="ignore"):
        out = data / np.power(bias + alpha / size * total, beta)  # C's pow, no fast path
    return np.moveaxis(out, 0, axis)


@reference(nn_norm.LRNOp)
def _lrn(ev: Evaluator, op: nn_norm.LRNOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return lrn_data(
        x,
        op.size.value.data,
        op.axis.value.data % x.ndim,
        op.bias.value.data,
        op.alpha.value.data,
        op.beta.value.data,
    )
