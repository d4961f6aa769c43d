"""Loop nest of `relay.vision.all_class_non_max_suppression` (ONNX NonMaxSuppression).

Per batch and class, candidates are visited in score order without scratch
memory: each step scans the row for the best score after the last one visited
(highest first, ties in index order), so the step count is quadratic in the box
count. The selected rows of the class, already in `out0`, are the boxes a
candidate is checked against. The IoU test follows the reference operation by
operation in the boxes' type (`reference_vision.suppresses`; C11 mode keeps
the compiler from contracting to FMA).
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.dialects.relay.base import get_bool


def _extent(w: CWriter, box: str, center: bool, axis: int, low: str, high: str) -> None:
    """Declare `low`, `high`: a box's extent along x (axis 1) or y (axis 0)."""
    if center:
        w.line(f"T {low} = {box}[{1 - axis}] - {box}[{3 - axis}] / 2;")
        w.line(f"T {high} = {box}[{1 - axis}] + {box}[{3 - axis}] / 2;")
        return
    first, second = f"{box}[{axis}]", f"{box}[{axis + 2}]"
    w.line(f"T {low} = {first} >= {second} ? {second} : {first};")
    w.line(f"T {high} = {first} >= {second} ? {first} : {second};")


def _suppresses(w: CWriter, center: bool) -> None:
    """Set `hit` when boxes `a` and `b` overlap with an IoU above `iou`."""
    w.line("int hit = 0;")
    with w.block("do"):
        _extent(w, "a", center, 1, "ax0", "ax1")
        _extent(w, "b", center, 1, "bx0", "bx1")
        w.line("T ix0 = bx0 > ax0 ? bx0 : ax0;")
        w.line("T ix1 = bx1 < ax1 ? bx1 : ax1;")
        w.line("if (ix1 <= ix0) break;")
        _extent(w, "a", center, 0, "ay0", "ay1")
        _extent(w, "b", center, 0, "by0", "by1")
        w.line("T iy0 = by0 > ay0 ? by0 : ay0;")
        w.line("T iy1 = by1 < ay1 ? by1 : ay1;")
        w.line("if (iy1 <= iy0) break;")
        w.line("T inter = (ix1 - ix0) * (iy1 - iy0);")
        w.line("if (inter <= 0) break;")
        w.line("T area_a = (ax1 - ax0) * (ay1 - ay0);")
        w.line("T area_b = (bx1 - bx0) * (by1 - by0);")
        w.line("T uni = area_a + area_b - inter;")
        w.line("if (area_a <= 0 || area_b <= 0 || uni <= 0) break;")
        w.line("hit = inter / uni > iou;")
    w.lines[-1] += " while (0);"


def all_class_non_max_suppression(k: Kernel) -> None:
    """Rows (batch, class, box) of the selected boxes, then -1 rows; the count in out1."""
    batch, count, _ = k.in_shape(0)
    classes = k.in_shape(1)[1]
    center = get_bool(k.op.properties, "center_point_box")
    ctype = k.in_scalar(0).ctype
    w = k.w
    w.line(f"typedef {ctype} T;")
    w.line("const T iou = in3[0];")
    w.line("const T least = in4[0];")
    w.line(f"const {INDEX} limit = in2[0] > 0 ? ({INDEX})in2[0] : 0;")
    w.line(f"{INDEX} total = 0;")
    with w.loop("bi", batch), w.loop("ci", classes):
        w.line(f"const T *row = in1 + (bi * {classes} + ci) * {count};")
        w.line(f"{INDEX} start = total;")
        w.line(f"{INDEX} last = -1;")
        w.line("T last_score = 0;")
        with w.block("while (total - start < limit)"):
            w.line(f"{INDEX} best = -1;")
            w.line("T best_score = 0;")
            with w.loop("i", count):
                w.line("T s = row[i];")
                w.line("if (!(s > least)) continue;")
                w.line(
                    "if (last >= 0 && !(s < last_score || (s == last_score && i > last))) continue;"
                )
                w.line("if (best < 0 || s > best_score) { best = i; best_score = s; }")
            w.line("if (best < 0) break;")
            w.line("last = best;")
            w.line("last_score = best_score;")
            w.line(f"const T *a = in0 + (bi * {count} + best) * 4;")
            w.line("int kept = 1;")
            with w.loop("r", "total", "start"):
                w.line(f"const T *b = in0 + (bi * {count} + out0[r * 3 + 2]) * 4;")
                _suppresses(w, center)
                w.line("if (hit) { kept = 0; break; }")
            with w.block("if (kept)"):
                w.line("out0[total * 3] = bi;")
                w.line("out0[total * 3 + 1] = ci;")
                w.line("out0[total * 3 + 2] = best;")
                w.line("++total;")
    with w.loop("r", batch * classes * count, "total"):
        w.line("out0[r * 3] = out0[r * 3 + 1] = out0[r * 3 + 2] = -1;")
    w.line("out1[0] = total;")
