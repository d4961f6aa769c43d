"""Reference semantics of the `relay.image` resize ops: resize1d/2d/3d, separable (one
spatial axis after another, outermost first) in float64 on the taps of `resize_taps`, as
ONNX Resize's reference computes it."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import image
from xrelay.dialects.relay.base import get_float, get_str, properties_with_defaults
from xrelay.dialects.relay.reference_nn import to_layout
from xrelay.dialects.relay.resize_taps import AxisResize, axis_resizes, taps
from xrelay.dialects.relay.types import numpy_dtype

Array = npt.NDArray[Any]


def resize_axis(x: Array, axis: int, resize: AxisResize, extrapolation: float) -> Array:
    """Resize float64 `x` along `axis`: the taps' weighted sum, in tap order."""
    index, weights, outside = taps(resize)
    moved = np.moveaxis(x, axis, -1)
    out: Array = np.zeros((*moved.shape[:-1], resize.out))
    with np.errstate(invalid="ignore", over="ignore"):
        for k in range(index.shape[1]):
            out = out + moved[..., index[:, k]] * weights[:, k]
    out[..., outside] = extrapolation
    return np.moveaxis(out, -1, axis)


def convert(values: Array, dtype: np.dtype[Any]) -> Array:
    """Integers round half to even and saturate (ONNX's cast); floats are cast."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        with np.errstate(invalid="ignore"):
            rounded = np.clip(np.nan_to_num(np.round(values)), info.min, info.max)
        return rounded.astype(dtype)
    with np.errstate(over="ignore"):
        return values.astype(dtype)


@reference(image.Resize1DOp, image.Resize2DOp, image.Resize3DOp)
def _resize(ev: Evaluator, op: image.ResizeOp, args: list[Value]) -> Value:
    props = properties_with_defaults(op)
    layout = get_str(props, "layout")
    spatial = op.SPATIAL
    canonical = "NC" + spatial
    x = to_layout(np.asarray(args[0]), layout, canonical).astype(np.float64)
    out_dtype: np.dtype[Any] = numpy_dtype(op.result.type.get_element_type())
    out_shape = op.result.type.get_shape()
    out = [out_shape[layout.index(d)] for d in spatial]
    axes = axis_resizes(props, x.shape[2:], out)
    extrapolation = get_float(props, "extrapolation_value")
    for dim, axis in enumerate(axes):
        x = resize_axis(x, dim + 2, axis, extrapolation)
    return to_layout(convert(x, out_dtype), canonical, layout)
