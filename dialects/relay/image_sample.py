"""Sampling relay op `relay.image.grid_sample` (TVM's `tvm.relay.image.grid_sample`).

Names, attributes and defaults are TVM's; the numerics follow ONNX GridSample's
reference, which TVM's frontend maps onto it (the per-axis taps are `grid_taps`).
See https://tvm.apache.org/docs/reference/api/python/relay/image.html.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, StringAttr, TensorType, i1
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_bool,
    get_str,
    operand_element_type,
)
from xrelay.dialects.relay.types import ANY, format_shape, is_float, tensor_type

GRID_METHODS = ("bilinear", "nearest", "bicubic")
PADDING_MODES = ("zeros", "border", "reflection")
GRID_LAYOUTS = {"NCHW": 4, "NCDHW": 5}
"""Layout -> the rank of the data (and of the grid)."""


def _one_of(value: str, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        shown = ", ".join(f"'{a}'" for a in allowed)
        raise RelayTypeError(f"unknown {what} '{value}'; expected one of {shown}")
    return value


def _same(a: int, b: int) -> bool:
    return ANY in (a, b) or a == b


@irdl_op_definition
class GridSampleOp(RelayOp):
    """`relay.image.grid_sample`: sample `data` at the positions of `grid`.

    `data` is [N, C, H, W] (layout NCHW) or [N, C, D, H, W] (NCDHW); `grid` is
    [N, 2, OH, OW] or [N, 3, OD, OH, OW], channel 0 the x (W), 1 the y (H), 2 the
    z (D) coordinate, normalized to [-1, 1] (TVM's grid layout: ONNX's
    [N, OH, OW, 2] transposed). The result is [N, C, OH, OW] (or 5-D) in the
    data's type. Per axis (ONNX GridSample's reference, `grid_taps`): denormalize
    by `align_corners`; `nearest` rounds half to even; `border` clamps and
    `reflection` reflects an outside coordinate; `bilinear`/`bicubic` (Keys,
    alpha -0.75) weigh the neighbours, and a neighbour outside the data reads 0
    (`zeros`), the edge (`border`) or its reflection (`reflection`). Sums run in
    double, the innermost axis first. A non-finite coordinate samples 0.
    """

    name = "relay.image.grid_sample"

    data = operand_def(TensorType)
    grid = operand_def(TensorType)
    result = result_def(TensorType)
    method = prop_def(StringAttr, StringAttr("bilinear"))
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    padding_mode = prop_def(StringAttr, StringAttr("zeros"))
    align_corners = prop_def(IntegerAttr, IntegerAttr(1, i1))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        grid = expect_tensor(operand_types, 1, "grid")
        layout = get_str(props, "layout")
        if layout not in GRID_LAYOUTS:
            raise RelayTypeError(f"unknown layout '{layout}'; expected one of NCHW, NCDHW")
        rank = GRID_LAYOUTS[layout]
        _one_of(get_str(props, "method"), GRID_METHODS, "method")
        _one_of(get_str(props, "padding_mode"), PADDING_MODES, "padding_mode")
        get_bool(props, "align_corners")
        for index, what in ((0, "data"), (1, "grid")):
            element = operand_element_type(operand_types, index)
            if not is_float(element):
                raise RelayTypeError(f"grid_sample needs floating-point {what}, got {element}")
        if len(data) != rank:
            raise RelayTypeError(f"layout {layout} needs {rank}-D data, got {format_shape(data)}")
        if len(grid) != rank or not _same(grid[1], rank - 2) or not _same(grid[0], data[0]):
            raise RelayTypeError(
                f"grid must be [{data[0] if data[0] != ANY else 'N'}, {rank - 2}, ...] "
                f"({rank}-D), got {format_shape(grid)}"
            )
        batch = data[0] if data[0] != ANY else grid[0]
        shape = (batch, data[1], *grid[2:])
        return [tensor_type(shape, operand_element_type(operand_types, 0))]


OPS = (GridSampleOp,)
