"""Builder functions for `relay.vision.*` ops (`xrelay.relay.vision`, as `tvm.relay.vision`)."""

from __future__ import annotations

import numpy as np
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import vision as v
from xrelay.dialects.relay.types import numpy_dtype, tensor_element_type

__all__ = ["all_class_non_max_suppression"]


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
