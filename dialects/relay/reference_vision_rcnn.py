"""Reference semantics of `relay.vision.roi_align` and `relay.vision.roi_pool`, in float64.

TOPI's computations (`roi_align_nchw`, `roi_pool_nchw`) region by region and bin by bin,
vectorized over the channels only, in float64 where TOPI computes in the rois' type; the
result is converted to the data's type once. The C form (`codegen/c/kernels_vision_rcnn.py`)
does the same operations in double in the same order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import vision_rcnn as v
from xrelay.dialects.relay.base import properties_with_defaults
from xrelay.dialects.relay.reference_nn import to_layout
from xrelay.dialects.relay.reference_tensor import checked_reference

Array = npt.NDArray[Any]

ROI_POOL_EPSILON = 1e-5
"""TOPI's guard against rounding in roi_pool's floor and ceil of bin edges."""


def round_half_away(value: float) -> float:
    """C's `round` (TVM's `round`): halfway cases away from zero, exactly."""
    low = math.floor(value)
    diff = value - low  # exact: value and its floor are within 1 of each other
    return float(low + 1 if diff > 0.5 or (diff == 0.5 and value >= 0) else low)


def region(roi: Array, batch: int, scale: float) -> tuple[int, list[float]] | None:
    """The batch index and scaled (x1, y1, x2, y2) of a region, or None when it gives zeros."""
    index = float(roi[0])
    if not math.isfinite(index) or not 0 <= math.trunc(index) < batch:
        return None
    corners = [float(c) * scale for c in roi[1:5]]
    if not all(math.isfinite(c) for c in corners):
        return None
    return math.trunc(index), corners


def bilinear(image: Array, y: Array, x: Array) -> Array:
    """TOPI's roi_align samples of a [C, H, W] image at positions (y, x): [samples, C]."""
    _, h, w = image.shape
    outside = (y < -1.0) | (x < -1.0) | (y > h) | (x > w)
    y = np.where(outside, 0.0, np.minimum(np.maximum(y, 0.0), h - 1.0))
    x = np.where(outside, 0.0, np.minimum(np.maximum(x, 0.0), w - 1.0))
    yl, xl = np.floor(y), np.floor(x)
    wyh, wxh = y - yl, x - xl
    wyl, wxl = 1.0 - wyh, 1.0 - wxh
    yi, xi = yl.astype(np.int64), xl.astype(np.int64)
    value = np.zeros((y.size, image.shape[0]))
    for wx, xp in ((wxl, xi), (wxh, xi + 1)):
        for wy, yp in ((wyl, yi), (wyh, yi + 1)):
            inside = (yp <= h - 1) & (xp <= w - 1)
            read = image[:, np.minimum(yp, h - 1), np.minimum(xp, w - 1)].T
            with np.errstate(invalid="ignore", over="ignore"):
                term = value + (wx * wy)[:, None] * read
            value = np.where(inside[:, None], term, value)
    return np.where(outside[:, None], 0.0, value)


def grid_size(extent: float, pooled: int, sample_ratio: int) -> int:
    """Samples per bin along one axis: `sample_ratio`, or adaptive (capped)."""
    if sample_ratio > 0:
        return sample_ratio
    return min(math.ceil(extent / pooled), v.ADAPTIVE_GRID_LIMIT)


def roi_align(
    data: Array,
    rois: Array,
    pooled: tuple[int, int],
    scale: float,
    sample_ratio: int,
    mode: str,
    lowest: float,
) -> Array:
    """roi_align of NCHW float64 data: [R, C, PH, PW] float64."""
    batch, channels = data.shape[0], data.shape[1]
    ph_count, pw_count = pooled
    out = np.zeros((rois.shape[0], channels, ph_count, pw_count))
    for r in range(rois.shape[0]):
        found = region(rois[r], batch, scale)
        if found is None:
            continue
        b, (x1, y1, x2, y2) = found
        roi_h, roi_w = max(y2 - y1, 1.0), max(x2 - x1, 1.0)
        if not (math.isfinite(roi_h) and math.isfinite(roi_w)):
            continue
        bin_h, bin_w = roi_h / ph_count, roi_w / pw_count
        gh = grid_size(roi_h, ph_count, sample_ratio)
        gw = grid_size(roi_w, pw_count, sample_ratio)
        count = float(gh * gw)
        iy = np.repeat(np.arange(gh) + 0.5, gw)
        ix = np.tile(np.arange(gw) + 0.5, gh)
        for ph in range(ph_count):
            for pw in range(pw_count):
                y = (y1 + ph * bin_h) + iy * bin_h / gh
                x = (x1 + pw * bin_w) + ix * bin_w / gw
                samples = bilinear(data[b], y, x)
                if mode == "avg":  # a running sum in sample order, as the C loop adds
                    out[r, :, ph, pw] = np.cumsum(samples / count, axis=0)[-1]
                else:
                    out[r, :, ph, pw] = np.maximum(lowest, np.max(samples, axis=0))
    return out


def pool_bounds(start: float, extent: float, pooled: int, index: int, size: int) -> range:
    """The map rows (or columns) of roi_pool's bin `index`."""
    bin_size = extent / pooled
    low = float(np.floor(index * bin_size + ROI_POOL_EPSILON)) + start
    high = float(np.ceil((index + 1) * bin_size - ROI_POOL_EPSILON)) + start
    return range(int(min(max(low, 0.0), size)), int(min(max(high, 0.0), size)))


def roi_pool(
    data: Array, rois: Array, pooled: tuple[int, int], scale: float, lowest: float
) -> Array:
    """roi_pool of NCHW float64 data: [R, C, PH, PW] float64."""
    batch, channels, height, width = data.shape
    ph_count, pw_count = pooled
    out = np.zeros((rois.shape[0], channels, ph_count, pw_count))
    for r in range(rois.shape[0]):
        found = region(rois[r], batch, scale)
        if found is None:
            continue
        b, corners = found
        x1, y1, x2, y2 = (round_half_away(c) for c in corners)
        roi_h, roi_w = max(y2 - y1 + 1, 1.0), max(x2 - x1 + 1, 1.0)
        if not (math.isfinite(roi_h) and math.isfinite(roi_w)):
            continue
        for ph in range(ph_count):
            rows = pool_bounds(y1, roi_h, ph_count, ph, height)
            for pw in range(pw_count):
                cols = pool_bounds(x1, roi_w, pw_count, pw, width)
                if not rows or not cols:
                    continue
                acc = np.full(channels, lowest)
                for y in rows:
                    for x in cols:
                        acc = np.maximum(acc, data[b, :, y, x])
                out[r, :, ph, pw] = acc
    return out


@checked_reference(v.ROIAlignOp, v.ROIPoolOp)
def _roi(ev: Evaluator, op: v.ROIAlignOp | v.ROIPoolOp, args: list[Value]) -> Value:
    props = properties_with_defaults(op)
    data, rois = np.asarray(args[0]), np.asarray(args[1])
    layout = op.layout.data
    x = to_layout(data, layout, "NCHW").astype(np.float64)
    boxes = rois.astype(np.float64)
    pooled = v.pooled_hw(props)
    scale = float(op.spatial_scale.value.data)
    lowest = float(np.finfo(data.dtype).min)
    if isinstance(op, v.ROIAlignOp):
        ratio = op.sample_ratio.value.data
        y = roi_align(x, boxes, pooled, scale, ratio, op.mode.data, lowest)
    else:
        y = roi_pool(x, boxes, pooled, scale, lowest)
    return to_layout(y, "NCHW", layout).astype(data.dtype)
