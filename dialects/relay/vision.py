"""Vision relay ops: `relay.vision.all_class_non_max_suppression` (TVM's `relay.vision`).

The op is TVM's form of ONNX NonMaxSuppression. Its result count depends on the
data, so, as TVM does, it returns a fixed-size buffer and a count: the tuple
(`selected_indices` of shape [batch * classes * boxes, 3], int64 rows
(batch, class, box) in ONNX's order, padded with -1 rows; `num_total_detection`
of shape [1], int64, how many rows are real). ONNX's output is the first `num_total_detection`
rows, a data-dependent shape (docs/semantics.md, "Non-max suppression").

See https://tvm.apache.org/docs/reference/api/python/relay/vision.html
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, StringAttr, TensorType, TupleType, f32, f64, i1, i64
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_str,
    operand_element_type,
)
from xrelay.dialects.relay.tensor import is_integer
from xrelay.dialects.relay.types import ANY, format_shape, tensor_type, tuple_type

OUTPUT_FORMATS = ("onnx",)


def _expect_scalar(types: Sequence[Attribute], index: int, what: str) -> None:
    """A threshold or count operand: rank 0 or one element."""
    shape = expect_tensor(types, index, what)
    if shape not in ((), (1,), (ANY,)):
        raise RelayTypeError(
            f"{what} must be a scalar or hold one element, got shape {format_shape(shape)}"
        )


@irdl_op_definition
class AllClassNonMaxSuppressionOp(RelayOp):
    """`relay.vision.all_class_non_max_suppression`: ONNX NonMaxSuppression, per batch and class.

    Operands: `boxes` [batch, boxes, 4] (corners y1, x1, y2, x2, or with
    `center_point_box` x_center, y_center, width, height), `scores`
    [batch, classes, boxes] of the same float type, the scalars
    `max_output_boxes_per_class` (an integer), `iou_threshold` and
    `score_threshold` (the boxes' type). `center_point_box` is ONNX's attribute
    (TVM's frontend converts the boxes instead).

    See https://tvm.apache.org/docs/reference/api/python/relay/vision.html
    """

    name = "relay.vision.all_class_non_max_suppression"

    boxes = operand_def(TensorType)
    scores = operand_def(TensorType)
    max_output_boxes_per_class = operand_def(TensorType)
    iou_threshold = operand_def(TensorType)
    score_threshold = operand_def(TensorType)
    result = result_def(TupleType)
    output_format = prop_def(StringAttr, StringAttr("onnx"))
    center_point_box = prop_def(IntegerAttr, IntegerAttr(0, i1))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        output_format = get_str(props, "output_format")
        if output_format not in OUTPUT_FORMATS:
            raise RelayTypeError(f"output_format must be 'onnx', got '{output_format}'")
        boxes = expect_tensor(operand_types, 0, "boxes")
        scores = expect_tensor(operand_types, 1, "scores")
        dtype = operand_element_type(operand_types, 0)
        if dtype not in (f32, f64):
            raise RelayTypeError(f"boxes must be float32 or float64, got {dtype}")
        if len(boxes) != 3 or boxes[2] not in (4, ANY):
            raise RelayTypeError(
                f"boxes must have shape [batch, boxes, 4], got {format_shape(boxes)}"
            )
        if len(scores) != 3:
            raise RelayTypeError(
                f"scores must have shape [batch, classes, boxes], got {format_shape(scores)}"
            )
        for axis, what in ((0, "batch"), (1, "box count")):
            a, b = boxes[axis], scores[2 * axis]
            if ANY not in (a, b) and a != b:
                raise RelayTypeError(
                    f"the {what} of boxes {format_shape(boxes)} and scores "
                    f"{format_shape(scores)} differ"
                )
        for index, what in ((1, "scores"), (3, "iou_threshold"), (4, "score_threshold")):
            if operand_element_type(operand_types, index) != dtype:
                raise RelayTypeError(
                    f"{what} must have the boxes' type {dtype}, got "
                    f"{operand_element_type(operand_types, index)}"
                )
        _expect_scalar(operand_types, 2, "max_output_boxes_per_class")
        _expect_scalar(operand_types, 3, "iou_threshold")
        _expect_scalar(operand_types, 4, "score_threshold")
        count_type = operand_element_type(operand_types, 2)
        if not is_integer(count_type):
            raise RelayTypeError(f"max_output_boxes_per_class must be an integer, got {count_type}")
        batch = boxes[0] if boxes[0] != ANY else scores[0]
        count = boxes[1] if boxes[1] != ANY else scores[2]
        dims = (batch, scores[1], count)
        rows = ANY if ANY in dims else dims[0] * dims[1] * dims[2]
        return [tuple_type([tensor_type((rows, 3), i64), tensor_type((1,), i64)])]


OPS = (AllClassNonMaxSuppressionOp,)
