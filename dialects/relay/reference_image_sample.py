"""Reference semantics of `relay.image.grid_sample`: the taps of `grid_taps` per axis,
summed in float64, the innermost axis first."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import image_sample
from xrelay.dialects.relay.base import get_bool, get_str, properties_with_defaults
from xrelay.dialects.relay.grid_taps import axis_taps

Array = npt.NDArray[Any]


def grid_sample(
    data: Array, grid: Array, method: str, padding_mode: str, align_corners: bool
) -> Array:
    """Sample float64 `data` [N, C, *in] at `grid` [N, r, *out] (channel 0 the last axis)."""
    rank = data.ndim - 2
    spatial = data.shape[2:]
    taps = [
        axis_taps(
            grid[:, rank - 1 - a].astype(np.float64),
            spatial[a],
            method,
            padding_mode,
            align_corners,
        )
        for a in range(rank)
    ]
    channels_last = np.moveaxis(data, 1, -1)  # [N, *in, C]
    batch: Array = np.arange(int(data.shape[0]), dtype=np.int64).reshape((-1, *(1,) * rank))

    def accumulate(axis: int, picked: list[Array]) -> Array:
        index, weight = taps[axis]
        total: Array = np.zeros((*grid.shape[:1], *grid.shape[2:], data.shape[1]))
        for k in range(index.shape[-1]):
            at = [*picked, index[..., k]]
            if axis == rank - 1:
                valid = np.logical_and.reduce([i >= 0 for i in at])
                safe = [np.maximum(i, 0) for i in at]
                with np.errstate(invalid="ignore", over="ignore"):
                    inner = np.where(valid[..., None], channels_last[(batch, *safe)], 0.0)
            else:
                inner = accumulate(axis + 1, at)
            with np.errstate(invalid="ignore", over="ignore"):
                total = total + weight[..., k, None] * inner
        return total

    return np.moveaxis(accumulate(0, []), -1, 1)


@reference(image_sample.GridSampleOp)
def _grid_sample(ev: Evaluator, op: image_sample.GridSampleOp, args: list[Value]) -> Value:
    props = properties_with_defaults(op)
    data = np.asarray(args[0])
    out = grid_sample(
        data.astype(np.float64),
        np.asarray(args[1]),
        get_str(props, "method"),
        get_str(props, "padding_mode"),
        get_bool(props, "align_corners"),
    )
    with np.errstate(over="ignore", invalid="ignore"):
        return out.astype(data.dtype)
