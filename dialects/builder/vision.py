"""Builder functions for `relay.vision.*` ops (`xrelay.relay.vision`, as `tvm.relay.vision`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import vision as v
from xrelay.dialects.relay import vision_rcnn as rcnn
from xrelay.dialects.relay.types import numpy_dtype, tensor_element_type

__all__ = ["all_class_non_max_suppression", "roi_align", "roi_pool"]


def all_class_non_max_suppression(
    boxes: Expr,
    scores: Expr,
    max_output_boxes_per_class: int | Expr = -1,
    iou_threshold: float | Expr = -1.0,
    score_threshold: float | Expr = -1.0,
    output_format: str = "onnx",
    center_point_box: bool = False,
) -> Call:
    """`relay.vision.all_class_non_max_suppression(boxes, scores, max_output_boxes_per_class=-1,
    iou_threshold=-1.0, score_threshold=-1.0, output_format="onnx")`.

    Python numbers become constants (the count int64, the thresholds of the boxes'
    dtype). The result is the tuple (selected_indices [batch * classes * boxes, 3],
    num_total_detection [1]): index it as TVM's `TupleWrapper`. `center_point_box`
    is ONNX's attribute (an xrelay addition).
    """
    dtype = numpy_dtype(tensor_element_type(boxes.checked_type))
    count = (
        max_output_boxes_per_class
        if isinstance(max_output_boxes_per_class, Expr)
        else const(np.asarray(max_output_boxes_per_class, np.int64), "int64")
    )
    iou = (
        iou_threshold
        if isinstance(iou_threshold, Expr)
        else const(np.asarray(iou_threshold, dtype), str(dtype))
    )
    score = (
        score_threshold
        if isinstance(score_threshold, Expr)
        else const(np.asarray(score_threshold, dtype), str(dtype))
    )
    props = {
        "output_format": attrs.str_(output_format),
        "center_point_box": attrs.bool_(center_point_box),
    }
    return Call(v.AllClassNonMaxSuppressionOp, [boxes, scores, count, iou, score], props)


def _pooled_size(pooled_size: int | Sequence[int]) -> list[int]:
    """TVM's `pooled_size`: two ints (TOPI also takes one int for both)."""
    if isinstance(pooled_size, int):
        return [pooled_size, pooled_size]
    return [int(p) for p in pooled_size]


def roi_align(
    data: Expr,
    rois: Expr,
    pooled_size: int | Sequence[int],
    spatial_scale: float,
    sample_ratio: int = -1,
    layout: str = "NCHW",
    mode: str = "avg",
) -> Call:
    """`relay.vision.roi_align(data, rois, pooled_size, spatial_scale, sample_ratio=-1,
    layout="NCHW", mode="avg")`: rois are [num_roi, 5] rows (batch_index, x1, y1, x2, y2)."""
    props = {
        "pooled_size": attrs.ints(_pooled_size(pooled_size)),
        "spatial_scale": attrs.float_(spatial_scale),
        "sample_ratio": attrs.int_(sample_ratio),
        "layout": attrs.str_(layout),
        "mode": attrs.str_(mode),
    }
    return Call(rcnn.ROIAlignOp, [data, rois], props)


def roi_pool(
    data: Expr,
    rois: Expr,
    pooled_size: int | Sequence[int],
    spatial_scale: float,
    layout: str = "NCHW",
) -> Call:
    """`relay.vision.roi_pool(data, rois, pooled_size, spatial_scale, layout="NCHW")`: rois
    are [num_roi, 5] rows (batch_index, x1, y1, x2, y2)."""
    props = {
        "pooled_size": attrs.ints(_pooled_size(pooled_size)),
        "spatial_scale": attrs.float_(spatial_scale),
        "layout": attrs.str_(layout),
    }
    return Call(rcnn.ROIPoolOp, [data, rois], props)
