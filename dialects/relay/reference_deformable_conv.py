"""Reference semantics of `relay.nn.deformable_conv2d` in float64: the sampled columns
[N, C, KH, KW, OH, OW] (TOPI's `data_deform`), then their products with the weight summed per
group."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import deformable_conv as dc
from xrelay.dialects.relay.base import get_str, properties_with_defaults
from xrelay.dialects.relay.reference_nn import to_layout
from xrelay.dialects.relay.types import numpy_dtype

Array = npt.NDArray[Any]


def bilinear(image: Array, py: Array, px: Array) -> Array:
    """`image` [N, C, H, W] read at positions `py`, `px` [N, OH, OW]: 0 where the position is
    outside [0, H) x [0, W) or NaN, else the bilinear sum over the four neighbours (x low then
    high, y low then high inside), a neighbour past the last row or column counting 0."""
    n, c, h, w = (int(d) for d in image.shape)
    inside = (py >= 0) & (py < h) & (px >= 0) & (px < w)
    y0 = np.where(inside, np.floor(np.where(inside, py, 0.0)), 0.0)
    x0 = np.where(inside, np.floor(np.where(inside, px, 0.0)), 0.0)
    wy_h, wx_h = np.where(inside, py - y0, 0.0), np.where(inside, px - x0, 0.0)
    batch: Array = np.arange(n)[:, None, None, None]
    chan: Array = np.arange(c)[None, :, None, None]
    out = np.zeros((n, c, *py.shape[1:]))
    for wx, xi in ((1 - wx_h, x0), (wx_h, x0 + 1)):
        for wy, yi in ((1 - wy_h, y0), (wy_h, y0 + 1)):
            ok = inside & (yi <= h - 1) & (xi <= w - 1)
            yc = np.where(ok, yi, 0).astype(np.intp)
            xc = np.where(ok, xi, 0).astype(np.intp)
            value = image[batch, chan, yc[:, None], xc[:, None]]
            out = out + np.where(ok[:, None], (wx * wy)[:, None] * value, 0.0)
    return out


def deformable_conv2d(x: Array, offset: Array, weight: Array, p: dc.DeformableParams) -> Array:
    """NCHW data and offset, OIHW weight, float64: the NCHW output."""
    n, c = int(x.shape[0]), int(x.shape[1])
    o, i, kh, kw = (int(d) for d in weight.shape)
    oh, ow = int(offset.shape[2]), int(offset.shape[3])
    top, left = p.padding[0], p.padding[1]
    base_y: Array = (np.arange(oh) * p.strides[0] - top)[None, :, None]
    base_x: Array = (np.arange(ow) * p.strides[1] - left)[None, None, :]
    per_dgroup = c // p.deformable_groups
    cols = np.zeros((n, c, kh, kw, oh, ow))
    for g in range(p.deformable_groups):
        image = x[:, g * per_dgroup : (g + 1) * per_dgroup]
        for ky in range(kh):
            for kx in range(kw):
                at = 2 * (g * kh * kw + ky * kw + kx)
                py: Array = base_y + ky * p.dilation[0] + offset[:, at]
                px: Array = base_x + kx * p.dilation[1] + offset[:, at + 1]
                cols[:, g * per_dgroup : (g + 1) * per_dgroup, ky, kx] = bilinear(image, py, px)
    out = np.zeros((n, o, oh, ow))
    per_group, out_per_group = c // p.groups, o // p.groups
    for g in range(p.groups):
        part = cols[:, g * per_group : (g + 1) * per_group]
        filters = weight[g * out_per_group : (g + 1) * out_per_group, :i]
        out[:, g * out_per_group : (g + 1) * out_per_group] = np.einsum(
            "ncijyx,ocij->noyx", part, filters
        )
    return out


@reference(dc.DeformableConv2DOp)
def _deformable_conv2d(ev: Evaluator, op: dc.DeformableConv2DOp, args: list[Value]) -> Value:
    props = properties_with_defaults(op)
    layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    x = to_layout(np.asarray(args[0]), layout, "NCHW").astype(np.float64)
    offset = to_layout(np.asarray(args[1]), layout, "NCHW").astype(np.float64)
    weight = to_layout(np.asarray(args[2]), kernel_layout, "OIHW").astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        out = deformable_conv2d(x, offset, weight, dc.deformable_params(props))
        result = out.astype(numpy_dtype(op.result.type.get_element_type()))
    return to_layout(result, "NCHW", layout)
