"""Loop nests of `relay.vision.roi_align` and `relay.vision.roi_pool`: per region, the checks
and extents of `reference_vision_rcnn`, then per output element the bin's samples (align) or
cells (pool), in double in the reference's order, converted once."""

from __future__ import annotations

from typing import cast

import numpy as np
from xdsl.dialects.builtin import f64
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, converted
from xrelay.codegen.c.kernels_image import double_literal
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import affine, strides
from xrelay.dialects.relay import vision_rcnn as v
from xrelay.dialects.relay.base import (
    get_float,
    get_int,
    get_str,
    properties_with_defaults,
)
from xrelay.dialects.relay.reference_vision_rcnn import ROI_POOL_EPSILON


class _Roi:
    """What both kernels share: names, shapes, strides and the per-region prologue."""

    def __init__(self, k: Kernel) -> None:
        self.k = k
        self.props = properties_with_defaults(cast(IRDLOperation, k.op))
        self.layout = get_str(self.props, "layout")
        shape, out = k.in_shape(0), k.out_shape()
        self.n, self.c, self.h, self.w = (shape[self.layout.index(d)] for d in "NCHW")
        self.ds = dict(zip(self.layout, strides(shape), strict=True))
        self.os = dict(zip(self.layout, strides(out), strict=True))
        self.ph, self.pw = v.pooled_hw(self.props)
        self.rois = k.in_shape(1)[0]
        wide = k.in_types[0].get_element_type() == f64
        self.lowest = double_literal(float(np.finfo(np.float64 if wide else np.float32).min))

    def region(self, rounded: bool) -> None:
        """Declare `valid`, `b`, the scaled corners x1 y1 x2 y2 and the extents roi_h roi_w."""
        w, scale = self.k.w, double_literal(get_float(self.props, "spatial_scale"))
        w.line("double bi = (double)in1[r * 5];")
        w.line(f"int valid = isfinite(bi) && trunc(bi) >= 0 && trunc(bi) < {self.n};")
        w.line(f"{INDEX} b = valid ? ({INDEX})trunc(bi) : 0;")
        for i, name in enumerate(("x1", "y1", "x2", "y2"), start=1):
            value = f"(double)in1[r * 5 + {i}] * {scale}"
            w.line(f"double {name} = {f'round({value})' if rounded else value};")
        one = " + 1" if rounded else ""
        w.line(f"double roi_h = fmax(y2 - y1{one}, 1.0), roi_w = fmax(x2 - x1{one}, 1.0);")
        w.line("valid = valid && isfinite(x1) && isfinite(y1) && isfinite(x2) && isfinite(y2);")
        w.line("valid = valid && isfinite(roi_h) && isfinite(roi_w);")

    def data(self, y: str, x: str) -> str:
        terms = [("b", self.ds["N"]), ("c", self.ds["C"]), (y, self.ds["H"]), (x, self.ds["W"])]
        return f"(double)in0[{affine(terms)}]"

    def store(self, value: str) -> None:
        terms = [("r", self.os["N"]), ("c", self.os["C"]), ("ph", self.os["H"])]
        where = affine([*terms, ("pw", self.os["W"])])
        self.k.w.line(f"out0[{where}] = {converted(self.k.out_scalar(), value)};")


def roi_align(k: Kernel) -> None:
    """Per region: grid sizes; per (c, ph, pw): the average or maximum of the bin's samples."""
    roi = _Roi(k)
    w, h_, w_ = k.w, roi.h, roi.w
    ratio = get_int(roi.props, "sample_ratio")
    average = get_str(roi.props, "mode") == "avg"
    with w.loop("r", roi.rois):
        roi.region(rounded=False)
        w.line(f"double bin_h = roi_h / {roi.ph}, bin_w = roi_w / {roi.pw};")
        for axis, extent, pooled in (("gh", "roi_h", roi.ph), ("gw", "roi_w", roi.pw)):
            if ratio > 0:
                w.line(f"{INDEX} {axis} = {ratio};")
            else:
                w.line(f"double {axis}_d = valid ? ceil({extent} / {pooled}) : 1;")
                limit = v.ADAPTIVE_GRID_LIMIT
                w.line(f"{INDEX} {axis} = {axis}_d < {limit} ? ({INDEX}){axis}_d : {limit};")
        if average:
            w.line("double count = (double)(gh * gw);")
        with w.loop("c", roi.c), w.loop("ph", roi.ph), w.loop("pw", roi.pw):
            w.line(f"double acc = {'0' if average else roi.lowest};")
            with w.block("if (valid)"):
                w.line("double sy = y1 + ph * bin_h, sx = x1 + pw * bin_w;")
                with w.loop("iy", "gh"):
                    w.line("double y = sy + (iy + 0.5) * bin_h / gh;")
                    with w.loop("ix", "gw"):
                        w.line("double x = sx + (ix + 0.5) * bin_w / gw;")
                        w.line("double s = 0;")
                        outside = f"y < -1.0 || x < -1.0 || y > {h_} || x > {w_}"
                        with w.block(f"if (!({outside}))"):
                            w.line(f"double yc = fmin(fmax(y, 0.0), {h_ - 1}.0);")
                            w.line(f"double xc = fmin(fmax(x, 0.0), {w_ - 1}.0);")
                            w.line("double y0 = floor(yc), x0 = floor(xc);")
                            w.line("double wyh = yc - y0, wxh = xc - x0;")
                            w.line("double wyl = 1.0 - wyh, wxl = 1.0 - wxh;")
                            w.line(f"{INDEX} yl = ({INDEX})y0, xl = ({INDEX})x0;")
                            w.line(f"int yh = yl + 1 <= {h_ - 1}, xh = xl + 1 <= {w_ - 1};")
                            w.line(f"s += (wxl * wyl) * {roi.data('yl', 'xl')};")
                            w.line(f"if (yh) s += (wxl * wyh) * {roi.data('yl + 1', 'xl')};")
                            w.line(f"if (xh) s += (wxh * wyl) * {roi.data('yl', 'xl + 1')};")
                            both = roi.data("yl + 1", "xl + 1")
                            w.line(f"if (yh && xh) s += (wxh * wyh) * {both};")
                        if average:
                            w.line("acc += s / count;")
                        else:
                            w.line("if (s > acc || s != s) acc = s;")
            w.line("if (!valid) acc = 0;")
            roi.store("acc")


def _bounds(roi: _Roi, index: str, start: str, extent: str, pooled: int, size: int) -> None:
    """Declare `{index}0`, `{index}1`: roi_pool's clamped cell range of bin `index`."""
    eps = double_literal(ROI_POOL_EPSILON)
    w = roi.k.w
    w.line(f"double {index}_bin = {extent} / {pooled};")
    w.line(f"double {index}_lo = floor({index} * {index}_bin + {eps}) + {start};")
    w.line(f"double {index}_hi = ceil(({index} + 1) * {index}_bin - {eps}) + {start};")
    for end in ("lo", "hi"):
        name = f"{index}{0 if end == 'lo' else 1}"
        w.line(f"{INDEX} {name} = ({INDEX})fmin(fmax({index}_{end}, 0.0), {size}.0);")


def roi_pool(k: Kernel) -> None:
    """Per region: rounded corners; per (c, ph, pw): the maximum over the bin's cells."""
    roi = _Roi(k)
    w = k.w
    with w.loop("r", roi.rois):
        roi.region(rounded=True)
        with w.loop("c", roi.c), w.loop("ph", roi.ph), w.loop("pw", roi.pw):
            _bounds(roi, "ph", "y1", "roi_h", roi.ph, roi.h)
            _bounds(roi, "pw", "x1", "roi_w", roi.pw, roi.w)
            w.line("double acc = 0;")
            with w.block("if (valid && ph0 < ph1 && pw0 < pw1)"):
                w.line(f"acc = {roi.lowest};")
                with w.loop("y", "ph1", "ph0"), w.loop("x", "pw1", "pw0"):
                    w.line(f"double s = {roi.data('y', 'x')};")
                    w.line("if (s > acc || s != s) acc = s;")
            roi.store("acc")
