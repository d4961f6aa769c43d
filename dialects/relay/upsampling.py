"""`relay.nn.upsampling`: TVM's 2-D upsampling by a scale factor.

Names, attributes and defaults are TVM's (`tvm.relay.nn.upsampling`). TVM computes it as
`image.resize2d` to `round(H * scale_h), round(W * scale_w)` (half to even) with the
coordinate transform `align_corners` or `asymmetric` and the method without its `bi`
prefix; `resize_props` gives those resize2d properties, which the reference and the C
kernel evaluate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr, TensorType, f64, i1, i64
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    get_bool,
    get_float,
    get_str,
    int_list_attr,
)
from xrelay.dialects.relay.image import float_list_attr
from xrelay.dialects.relay.nn import element_type, known, layout_dims
from xrelay.dialects.relay.types import format_shape, is_bool, tensor_type

UPSAMPLING_METHODS = {
    "nearest_neighbor": "nearest_neighbor",
    "bilinear": "linear",
    "bicubic": "cubic",
}
"""TVM's upsampling method -> the resize2d method it computes with."""
UPSAMPLING_LAYOUTS = ("NCHW", "NHWC")


def scaled_size(size: int, scale: float) -> int:
    """TVM's output extent: `size * scale` in double, rounded half to even."""
    return round(size * scale)


def _scale(props: Props, name: str) -> float:
    scale = get_float(props, name)
    if not (math.isfinite(scale) and scale > 0):
        raise RelayTypeError(f"{name} must be a positive finite number, got {scale}")
    return scale


def resize_props(props: Props, in_hw: tuple[int, int]) -> Props:
    """The `image.resize2d` properties (all of them) that TVM computes the upsampling as."""
    size = (
        scaled_size(in_hw[0], get_float(props, "scale_h")),
        scaled_size(in_hw[1], get_float(props, "scale_w")),
    )
    mode = "align_corners" if get_bool(props, "align_corners") else "asymmetric"
    return {
        "size": int_list_attr(size),
        "roi": float_list_attr([0.0, 0.0, 0.0, 0.0]),
        "layout": StringAttr(get_str(props, "layout")),
        "method": StringAttr(UPSAMPLING_METHODS[get_str(props, "method")]),
        "coordinate_transformation_mode": StringAttr(mode),
        "rounding_method": StringAttr(""),
        "cubic_alpha": FloatAttr(-0.5, f64),
        "cubic_exclude": IntegerAttr(0, i64),
        "extrapolation_value": FloatAttr(0.0, f64),
    }


@irdl_op_definition
class UpSamplingOp(RelayOp):
    """`relay.nn.upsampling`: scale H and W of NCHW or NHWC data by `scale_h`, `scale_w`.

    The output extents are `round(H * scale_h)` and `round(W * scale_w)` (half to even, as
    TVM's type relation); values are `image.resize2d` to that size (see `resize_props`):
    `nearest_neighbor` (rounding `round` with `align_corners`, else `floor`), `bilinear`
    or `bicubic` (Keys' kernel, alpha -0.5), input coordinate `x * (in - 1) / (out - 1)`
    with `align_corners`, else `x * in / out`. Integer data rounds half to even and
    saturates, as resize2d. H and W must be static.
    """

    name = "relay.nn.upsampling"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    scale_h = prop_def(FloatAttr, FloatAttr(1.0, f64))
    scale_w = prop_def(FloatAttr, FloatAttr(1.0, f64))
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    method = prop_def(StringAttr, StringAttr("nearest_neighbor"))
    align_corners = prop_def(IntegerAttr, IntegerAttr(0, i1))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        expect_rank(data, 4, "data")
        dtype = element_type(operand_types[0])
        if is_bool(dtype):
            raise RelayTypeError("upsampling does not take boolean data")
        layout = layout_dims(get_str(props, "layout"), UPSAMPLING_LAYOUTS, "layout")
        method = get_str(props, "method")
        if method not in UPSAMPLING_METHODS:
            shown = ", ".join(f"'{m}'" for m in UPSAMPLING_METHODS)
            raise RelayTypeError(f"unknown method '{method}'; expected one of {shown}")
        get_bool(props, "align_corners")
        dims = {d: data[layout.index(d)] for d in layout}
        if not (known(dims["H"]) and known(dims["W"])):
            raise RelayTypeError(f"upsampling needs static H and W, got {format_shape(data)}")
        dims["H"] = scaled_size(dims["H"], _scale(props, "scale_h"))
        dims["W"] = scaled_size(dims["W"], _scale(props, "scale_w"))
        return [tensor_type([dims[d] for d in layout], dtype)]


OPS = (UpSamplingOp,)
