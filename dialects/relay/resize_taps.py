"""The taps of `relay.image.resize1d/2d/3d` along one axis: for each output position, the input
positions it reads (clamped to the input), their weights, and whether it lies outside the
input (tf_crop_and_resize's extrapolation). The reference and the C kernel share them.

Coordinates follow ONNX Resize's reference (`coordinate_transformation_mode`), with
`scale` the output-over-input ratio and `length` the resized length `scale * input`
(the output size unless ONNX's `scales` make it fractional).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.relay.base import Props, get_float, get_int, get_str
from xrelay.dialects.relay.image import get_floats

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class AxisResize:
    """How one axis is resized."""

    size: int
    """Input extent."""
    out: int
    """Output extent."""
    scale: float
    """Output over input (ONNX's scale); the coordinates divide by it."""
    mode: str
    """coordinate_transformation_mode."""
    method: str
    """nearest_neighbor, linear or cubic."""
    rounding: str
    """rounding_method, "" resolved (round for align_corners, else floor)."""
    alpha: float
    exclude: bool
    antialias: bool
    """ONNX's antialias: a wider kernel when downsampling (linear and cubic)."""
    start: float
    """tf_crop_and_resize's roi start on this axis (a fraction of the input)."""
    end: float


def coordinates(axis: AxisResize) -> tuple[Array, Array]:
    """The input coordinate of each output position, and whether it is extrapolated."""
    x = np.arange(axis.out, dtype=np.float64)
    size, scale, mode = axis.size, axis.scale, axis.mode
    length = scale * size
    outside = np.zeros(axis.out, bool)
    if mode == "align_corners":
        coords = np.zeros_like(x) if length == 1 else x * (size - 1) / (length - 1)
    elif mode == "asymmetric":
        coords = x / scale
    elif mode == "tf_half_pixel_for_nn":
        coords = (x + 0.5) / scale
    elif mode == "pytorch_half_pixel":
        coords = np.zeros_like(x) if length == 1 else (x + 0.5) / scale - 0.5
    elif mode == "tf_crop_and_resize":
        span = (axis.end - axis.start) * (size - 1)
        coords = np.full_like(x, span / 2) if length == 1 else x * span / (length - 1)
        coords = coords + axis.start * (size - 1)
        outside = (coords < 0) | (coords > size - 1)
    elif mode == "half_pixel_symmetric":
        offset = size / 2 * (1 - axis.out / length)
        coords = offset + (x + 0.5) / scale - 0.5
    else:  # half_pixel
        coords = (x + 0.5) / scale - 0.5
    return coords, outside


def _rounded(coords: Array, rounding: str) -> Array:
    if rounding == "floor":
        return np.floor(coords)
    if rounding == "ceil":
        return np.ceil(coords)
    if rounding == "round_prefer_floor":
        return np.ceil(coords - 0.5)
    if rounding == "round_prefer_ceil":
        return np.floor(coords + 0.5)
    return np.sign(coords) * np.floor(np.abs(coords) + 0.5)  # round: half away from zero


def _cubic(distance: Array, alpha: float) -> Array:
    """Keys' cubic convolution kernel (0 from |distance| = 2 on)."""
    d = np.abs(distance)
    near = ((alpha + 2) * d - (alpha + 3)) * d * d + 1
    far = ((alpha * d - 5 * alpha) * d + 8 * alpha) * d - 4 * alpha
    return np.where(d <= 1, near, np.where(d < 2, far, 0.0))


def _antialiased(axis: AxisResize, ratio: Array) -> tuple[Array, Array]:
    """ONNX's antialiased taps: the kernel stretched by 1 / scale when downsampling (wider,
    normalized to sum 1); an integer coordinate counts as ratio 1 from the element before."""
    scale = min(axis.scale, 1.0)
    reach = 1.0 if axis.method == "linear" else 2.0
    start = math.floor(-reach / scale) + 1
    offsets = np.arange(start, 2 - start)
    ratio = np.where(ratio == 0, 1.0, ratio)
    distance = (offsets[None, :] - ratio) * scale
    if axis.method == "linear":
        weights = np.clip(1 - np.abs(distance), 0, 1)
    else:
        weights = _cubic(distance, axis.alpha)
    return offsets, weights / weights.sum(axis=1, keepdims=True)


def taps(axis: AxisResize) -> tuple[Array, Array, Array]:
    """(indices `[out, n]` clamped to the input, weights `[out, n]`, extrapolated `[out]`)."""
    coords, outside = coordinates(axis)
    last = max(axis.size - 1, 0)
    if axis.method == "nearest_neighbor":
        index = _rounded(coords, axis.rounding).astype(np.int64)[:, None]
        return np.clip(index, 0, last), np.ones((axis.out, 1)), outside
    first = np.floor(coords)
    ratio = (coords - first)[:, None]
    if axis.antialias:
        offsets, weights = _antialiased(axis, ratio)
        first = np.where(ratio[:, 0] == 0, first - 1, first)
    elif axis.method == "linear":
        offsets = np.arange(2)
        weights = np.concatenate([1 - ratio, ratio], axis=1)
    else:
        offsets = np.arange(-1, 3)
        weights = _cubic(offsets[None, :] - ratio, axis.alpha)
    index = first.astype(np.int64)[:, None] + offsets[None, :]
    if axis.exclude:
        weights = np.where((index < 0) | (index > last), 0.0, weights)
        total = weights.sum(axis=1, keepdims=True)
        weights = weights / np.where(total == 0, 1.0, total)
    return np.clip(index, 0, last), weights, outside


def axis_resizes(props: Props, size: Sequence[int], out: Sequence[int]) -> list[AxisResize]:
    """The resize of each spatial axis (outermost first) from a resize op's properties
    (defaults filled in); `roi` holds the starts of all axes, then their ends."""
    scales = get_floats(props, "scales") if "scales" in props else None
    roi = get_floats(props, "roi")
    rank = len(size)
    method, mode = get_str(props, "method"), get_str(props, "coordinate_transformation_mode")
    rounding = get_str(props, "rounding_method")
    if not rounding:
        rounding = "round" if mode == "align_corners" else "floor"
    axes: list[AxisResize] = []
    for dim in range(rank):
        ratio = out[dim] / size[dim] if size[dim] else 1.0
        scale = scales[dim] if scales is not None else ratio
        axes.append(
            AxisResize(
                size[dim],
                out[dim],
                scale,
                mode,
                method,
                rounding,
                get_float(props, "cubic_alpha"),
                bool(get_int(props, "cubic_exclude")),
                "antialias" in props and bool(get_int(props, "antialias")),
                roi[dim],
                roi[dim + rank],
            )
        )
    return axes
