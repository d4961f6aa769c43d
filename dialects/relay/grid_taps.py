"""The taps of `relay.image.grid_sample` along one axis: for each sampled coordinate, the
input indices it reads (-1: outside, reads 0) and their weights, as ONNX GridSample's
reference computes them (in float64). The C kernel prints the same steps."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]

CUBIC_ALPHA = -0.75
TAP_OFFSETS = {"nearest": (0,), "bilinear": (0, 1), "bicubic": (-1, 0, 1, 2)}
"""Method -> the taps' offsets from the floor of the coordinate."""


def bounds(size: int, align_corners: bool) -> tuple[float, float]:
    """The coordinate range inside the data: pixel centers or pixel edges."""
    return (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)


def denormalize(g: Array, size: int, align_corners: bool) -> Array:
    """A grid value in [-1, 1] as a coordinate in pixels."""
    if align_corners:
        return (g + 1) / 2 * (size - 1)
    return ((g + 1) * size - 1) / 2


def reflect(x: Array, low: float, high: float) -> Array:
    """Reflect `x` by the near border until it lies in [low, high]."""
    span = high - low
    if span <= 0:
        return np.full_like(x, low)
    below, above = low - x, x - high
    out = x.copy()
    for dx, near, far, mask in ((below, low, high, x < low), (above, high, low, x > high)):
        n = np.floor(dx / span)
        r = dx - n * span
        sign = 1.0 if near == low else -1.0
        even = np.fmod(n, 2) == 0
        out = np.where(mask, np.where(even, near + sign * r, far - sign * r), out)
    return np.clip(out, low, high)


def cubic_weights(t: Array) -> list[Array]:
    """Keys' cubic kernel (alpha -0.75) at distances 1 + t, t, 1 - t, 2 - t."""
    a = CUBIC_ALPHA

    def outer(d: Array) -> Array:
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    def inner(d: Array) -> Array:
        return ((a + 2) * d - (a + 3)) * d * d + 1

    return [outer(t + 1), inner(t), inner(1 - t), outer(2 - t)]


def axis_taps(
    g: Array, size: int, method: str, padding_mode: str, align_corners: bool
) -> tuple[Array, Array]:
    """(index, weight), each of shape g.shape + (taps,): the data positions read along the
    axis (-1 reads 0) and their weights, for normalized grid values `g` (float64)."""
    with np.errstate(invalid="ignore", over="ignore"):
        x = denormalize(g, size, align_corners)
    finite = np.isfinite(x)
    x = np.where(finite, x, 0.0)
    if method == "nearest":
        x = np.rint(x)
    low, high = bounds(size, align_corners)
    outside = (x < low) | (x > high)
    if padding_mode == "border":
        x = np.where(outside, np.clip(x, 0, size - 1), x)
    elif padding_mode == "reflection":
        x = np.where(outside, reflect(x, low, high), x)
    base = np.trunc(x) if method == "nearest" else np.floor(x)
    t = x - base
    if method == "nearest":
        weights = [np.ones_like(x)]
    elif method == "bilinear":
        weights = [1 - t, t]
    else:
        weights = cubic_weights(t)
    positions = np.stack([base + k for k in TAP_OFFSETS[method]], axis=-1)
    if padding_mode == "zeros":
        valid = (positions >= 0) & (positions < size)
        positions = np.where(valid, positions, -1.0)
    elif padding_mode == "border":
        positions = np.clip(positions, 0, size - 1)
    else:
        positions = np.clip(np.trunc(reflect(positions, low, high)), 0, size - 1)
    positions = np.where(finite[..., None], positions, -1.0)
    return positions.astype(np.int64), np.stack(weights, axis=-1)
