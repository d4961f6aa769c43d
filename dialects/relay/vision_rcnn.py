"""R-CNN region ops: `relay.vision.roi_align` and `relay.vision.roi_pool` (TVM's `relay.vision`).

Both pool each region of interest of a feature map to a fixed `pooled_size` grid. The
regions are rows `[batch_index, x1, y1, x2, y2]` in image coordinates, scaled to the map by
`spatial_scale`. Names, attributes, defaults and result types are TVM's; the sampling is
TOPI's (`roi_align_nchw`, `roi_pool_nchw`): see the op classes and docs/semantics.md
("Regions of interest").

See https://tvm.apache.org/docs/reference/api/python/relay/vision.html
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    f32,
    f64,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    get_float,
    get_int,
    get_ints,
    get_str,
    operand_element_type,
)
from xrelay.dialects.relay.nn import expect_same_element_type, known, layout_dims
from xrelay.dialects.relay.types import format_shape, tensor_type

ROI_LAYOUTS = ("NCHW", "NHWC")
ROI_ALIGN_MODES = ("avg", "max")
ADAPTIVE_GRID_LIMIT = 256
"""The most samples per bin along one axis that roi_align's adaptive grid takes (TVM: none)."""


def pooled_hw(props: Props) -> tuple[int, int]:
    """`pooled_size` as (height, width): two positive integers."""
    size = get_ints(props, "pooled_size")
    if len(size) != 2 or min(size) < 1:
        raise RelayTypeError(f"pooled_size must be two positive integers, got {list(size)}")
    return size[0], size[1]


def _roi_result(operand_types: Sequence[Attribute], props: Props) -> Sequence[Attribute]:
    """The checks and result type the two ops share (TVM's `ROIAlignRel` / `ROIPoolRel`)."""
    data = expect_tensor(operand_types, 0, "data")
    rois = expect_tensor(operand_types, 1, "rois")
    expect_rank(data, 4, "data")
    expect_rank(rois, 2, "rois")
    dtype = operand_element_type(operand_types, 0)
    if dtype not in (f32, f64):
        raise RelayTypeError(f"data must be float32 or float64, got {dtype}")
    expect_same_element_type(operand_types, 1, "rois")
    if known(rois[1]) and rois[1] != 5:
        raise RelayTypeError(
            f"rois must have shape [num_roi, 5] (batch_index, x1, y1, x2, y2), "
            f"got {format_shape(rois)}"
        )
    layout = layout_dims(get_str(props, "layout"), ROI_LAYOUTS, "layout")
    ph, pw = pooled_hw(props)
    get_float(props, "spatial_scale")
    dims = {"N": rois[0], "C": data[layout.index("C")], "H": ph, "W": pw}
    return [tensor_type([dims[d] for d in layout], dtype)]


@irdl_op_definition
class ROIAlignOp(RelayOp):
    """`relay.vision.roi_align`: bilinear samples averaged (or maxed) over each bin of a region.

    Operands: `data` [N, C, H, W] (or NHWC, `layout`) and `rois` [R, 5], both float32 or
    both float64. The result is [R, C, PH, PW] (or [R, PH, PW, C]). Region r's corners are
    its x1, y1, x2, y2 times `spatial_scale`; its height and width are at least 1; bin
    (ph, pw) is 1/PH by 1/PW of it. The bin's samples lie on a grid of `sample_ratio`
    points per axis (when positive; else ceil(region extent / pooled extent), at most
    `ADAPTIVE_GRID_LIMIT`), at the centres of the grid's cells. A sample below -1 or past H
    (W) reads 0; else it is clamped into the map and read bilinearly, neighbours past the
    last row or column counting 0. `mode` "avg" sums sample / count, "max" takes the
    largest (from the type's lowest finite value). A region whose batch index (truncated)
    is outside [0, N), or with a NaN or infinite scaled coordinate, gives zeros.
    """

    name = "relay.vision.roi_align"

    data = operand_def(TensorType)
    rois = operand_def(TensorType)
    result = result_def(TensorType)
    pooled_size = prop_def(DenseArrayBase)
    spatial_scale = prop_def(FloatAttr)
    sample_ratio = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    mode = prop_def(StringAttr, StringAttr("avg"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        mode = get_str(props, "mode")
        if mode not in ROI_ALIGN_MODES:
            raise RelayTypeError(f"mode must be 'avg' or 'max', got '{mode}'")
        get_int(props, "sample_ratio")
        return _roi_result(operand_types, props)


@irdl_op_definition
class ROIPoolOp(RelayOp):
    """`relay.vision.roi_pool`: the maximum over each bin of a region, on whole map cells.

    Operands and result as `roi_align`'s. Region r's corners are its x1, y1, x2, y2 times
    `spatial_scale`, rounded half away from zero; its extent is `end - start + 1`, at least
    1. Bin ph covers rows `floor(ph * e / PH + 1e-5)` to `ceil((ph + 1) * e / PH - 1e-5)`
    (exclusive) offset by the start and clamped to [0, H] (columns alike); the result is
    the bin's maximum (from the type's lowest finite value), or 0 for an empty bin. A
    region whose batch index (truncated) is outside [0, N), or with a NaN or infinite scaled
    coordinate, gives zeros. TOPI computes NCHW only; NHWC is the same rule.
    """

    name = "relay.vision.roi_pool"

    data = operand_def(TensorType)
    rois = operand_def(TensorType)
    result = result_def(TensorType)
    pooled_size = prop_def(DenseArrayBase)
    spatial_scale = prop_def(FloatAttr)
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        return _roi_result(operand_types, props)


OPS = (ROIAlignOp, ROIPoolOp)
