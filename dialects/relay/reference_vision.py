"""Reference semantics of `relay.vision.all_class_non_max_suppression`, in numpy scalars.

ONNX NonMaxSuppression's algorithm, in the boxes' float type operation by
operation (as the C form computes it): per batch and class, candidates are the
boxes whose score is above `score_threshold` (never a NaN score), taken by
score, highest first, ties in index order; a candidate is selected unless its
IoU with a box already selected for the class is above `iou_threshold`; at
most `max(max_output_boxes_per_class, 0)` per class.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import vision as v
from xrelay.dialects.relay.base import get_bool
from xrelay.dialects.relay.reference_tensor import checked_reference

Array = npt.NDArray[Any]


def _ordered(lhs: Any, rhs: Any) -> tuple[Any, Any]:
    """(min, max) as ONNX's `max_min`: a NaN keeps the given order."""
    return (rhs, lhs) if lhs >= rhs else (lhs, rhs)


def _larger(a: Any, b: Any) -> Any:
    return b if b > a else a


def _smaller(a: Any, b: Any) -> Any:
    return b if b < a else a


def _extent(box: Array, center: bool, axis: int) -> tuple[Any, Any]:
    """(low, high) of a box along x (axis 1) or y (axis 0)."""
    if center:
        middle, half = box[1 - axis], box[3 - axis] / 2
        return middle - half, middle + half
    return _ordered(box[axis], box[axis + 2])


def suppresses(a: Array, b: Array, center: bool, threshold: Any) -> bool:
    """Whether boxes `a` and `b` overlap with an IoU above `threshold`."""
    ax0, ax1 = _extent(a, center, 1)
    bx0, bx1 = _extent(b, center, 1)
    ix0, ix1 = _larger(ax0, bx0), _smaller(ax1, bx1)
    if ix1 <= ix0:
        return False
    ay0, ay1 = _extent(a, center, 0)
    by0, by1 = _extent(b, center, 0)
    iy0, iy1 = _larger(ay0, by0), _smaller(ay1, by1)
    if iy1 <= iy0:
        return False
    inter = (ix1 - ix0) * (iy1 - iy0)
    if inter <= 0:
        return False
    area_a = (ax1 - ax0) * (ay1 - ay0)
    area_b = (bx1 - bx0) * (by1 - by0)
    union = area_a + area_b - inter
    if area_a <= 0 or area_b <= 0 or union <= 0:
        return False
    return bool(inter / union > threshold)


def all_class_nms(
    boxes: Array, scores: Array, max_out: int, iou: Any, score: Any, center: bool
) -> tuple[Array, Array]:
    """The padded selected rows and their count, as the op returns them."""
    batch, classes, count = scores.shape
    rows: list[tuple[int, int, int]] = []
    for b in range(batch):
        for c in range(classes):
            row = scores[b, c]
            candidates = [i for i in range(count) if row[i] > score]
            # highest score first; Python's sort is stable, so ties stay in index order
            candidates.sort(key=lambda i: -float(row[i]))
            kept: list[int] = []
            for i in candidates:
                if len(kept) >= max_out:
                    break
                if not any(suppresses(boxes[b, i], boxes[b, j], center, iou) for j in kept):
                    kept.append(i)
                    rows.append((b, c, i))
    out = np.full((batch * classes * count, 3), -1, np.int64)
    if rows:
        out[: len(rows)] = rows
    return out, np.array([len(rows)], np.int64)


@checked_reference(v.AllClassNonMaxSuppressionOp)
def _nms(ev: Evaluator, op: v.AllClassNonMaxSuppressionOp, args: list[Value]) -> Value:
    boxes, scores, max_out, iou, score = (np.asarray(a) for a in args)
    for what, value in (("max_output_boxes_per_class", max_out), ("iou_threshold", iou)):
        if value.size != 1:
            raise ValueError(f"{what} must hold one element, got {value.size}")
    if score.size != 1:
        raise ValueError(f"score_threshold must hold one element, got {score.size}")
    center = get_bool(dict(op.properties), "center_point_box")
    limit = max(int(max_out.reshape(())), 0)
    return all_class_nms(boxes, scores, limit, iou.reshape(())[()], score.reshape(())[()], center)
