"""Image relay ops (`relay.image.*`): `resize1d`, `resize2d`, `resize3d`.

Names, attributes and defaults are TVM's (`tvm.relay.image.resize1d/2d/3d`); the
numerics follow ONNX Resize's reference, which TVM's frontend maps onto it. The
three differ only in their spatial axes (W; H, W; D, H, W) and share one verifier.
See https://tvm.apache.org/docs/reference/api/python/relay/image.html.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
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
)
from xrelay.dialects.relay.nn import element_type, expect_len, layout_dims, result_dtype
from xrelay.dialects.relay.types import tensor_type

METHODS = ("nearest_neighbor", "linear", "cubic")
COORDINATE_MODES = (
    "half_pixel",
    "align_corners",
    "asymmetric",
    "pytorch_half_pixel",
    "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
    "half_pixel_symmetric",
)
ROUNDING_METHODS = ("", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil")
RESIZE_LAYOUTS = ("NCHW", "NHWC")
RESIZE1D_LAYOUTS = ("NCW", "NWC")
RESIZE3D_LAYOUTS = ("NCDHW", "NDHWC")


def float_list_attr(values: Sequence[float]) -> DenseArrayBase:
    """The storage of a float-list property: `array<f64: ...>`."""
    return DenseArrayBase.from_list(f64, [float(v) for v in values])


def get_floats(props: Props, name: str) -> tuple[float, ...]:
    """A float-list property (an integer list is read as floats)."""
    attr = props[name]
    if isinstance(attr, DenseArrayBase):
        return tuple(float(v) for v in attr.get_values())
    raise RelayTypeError(f"attribute '{name}' must be a list of floats, got {attr}")


def _one_of(value: str, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        shown = ", ".join(f"'{a}'" for a in allowed)
        raise RelayTypeError(f"unknown {what} '{value}'; expected one of {shown}")
    return value


class ResizeOp(RelayOp):
    """Base of `relay.image.resize1d/2d/3d`: resize the spatial axes `SPATIAL` of data in
    one of `LAYOUTS` to `size`, one value per spatial axis in `SPATIAL`'s order.

    Output position `x` maps to the input coordinate of
    `coordinate_transformation_mode` (ONNX Resize's formulas, with
    `scale = size / input`, or the xrelay extension `scales` when given: ONNX's
    `scales` input, which the transform divides by when `scale * input` is not an
    integer); `tf_crop_and_resize` reads `roi` = [starts..., ends...] (fractions of
    the input, one per spatial axis) and gives `extrapolation_value` outside the input.
    `nearest_neighbor` rounds the coordinate by `rounding_method` (default:
    `round` for align_corners, else `floor`, as TVM); `linear` and `cubic`
    (Keys' kernel with `cubic_alpha`; `cubic_exclude` drops and renormalizes
    taps outside the input) interpolate the neighbours, clamped to the input
    edge, one spatial axis after another in `SPATIAL`'s order, in double. Integer
    outputs round half to even and saturate (ONNX's cast). `antialias` (an xrelay
    extension, ONNX's attribute) widens the linear or cubic kernel by the inverse
    scale when downsampling and normalizes it.
    """

    SPATIAL: ClassVar[str] = "HW"
    """The resized axes, outermost first."""
    LAYOUTS: ClassVar[tuple[str, ...]] = RESIZE_LAYOUTS

    data = operand_def(TensorType)
    result = result_def(TensorType)
    size = prop_def(DenseArrayBase)
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    method = prop_def(StringAttr, StringAttr("linear"))
    coordinate_transformation_mode = prop_def(StringAttr, StringAttr("half_pixel"))
    rounding_method = prop_def(StringAttr, StringAttr(""))
    cubic_alpha = prop_def(FloatAttr, FloatAttr(-0.5, f64))
    cubic_exclude = prop_def(IntegerAttr, IntegerAttr(0, i64))
    extrapolation_value = prop_def(FloatAttr, FloatAttr(0.0, f64))
    scales = opt_prop_def(DenseArrayBase)
    antialias = opt_prop_def(IntegerAttr)
    out_dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())
    # Each op declares `size`, `roi` (its default has 2 values per spatial axis) and
    # `layout` again, so that they come first, in this order, when printed.

    @classmethod
    def short_name(cls) -> str:
        """`resize1d`, `resize2d` or `resize3d`."""
        return f"resize{len(cls.SPATIAL)}d"

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        rank = len(cls.SPATIAL)
        what = cls.short_name()
        data = expect_tensor(operand_types, 0)
        expect_rank(data, rank + 2, "data")
        if element_type(operand_types[0]) == i1:
            raise RelayTypeError(f"{what} does not take boolean data")
        layout = layout_dims(get_str(props, "layout"), cls.LAYOUTS, "layout")
        size = get_ints(props, "size")
        expect_len(size, (rank,), "size")
        if any(s < 0 for s in size):
            raise RelayTypeError(f"size must be non-negative, got {list(size)}")
        roi = get_floats(props, "roi")
        expect_len(roi, (2 * rank,), "roi")  # pyright: ignore[reportArgumentType]
        if "scales" in props:
            scales = get_floats(props, "scales")
            expect_len(scales, (rank,), "scales")  # pyright: ignore[reportArgumentType]
            if not all(s > 0 for s in scales):
                raise RelayTypeError(f"scales must be positive, got {list(scales)}")
        _one_of(get_str(props, "method"), METHODS, "method")
        _one_of(
            get_str(props, "coordinate_transformation_mode"),
            COORDINATE_MODES,
            "coordinate_transformation_mode",
        )
        _one_of(get_str(props, "rounding_method"), ROUNDING_METHODS, "rounding_method")
        antialias = "antialias" in props and get_int(props, "antialias")
        if antialias and get_str(props, "method") == "nearest_neighbor":
            raise RelayTypeError("antialias needs method 'linear' or 'cubic'")
        get_float(props, "cubic_alpha")
        get_int(props, "cubic_exclude")
        get_float(props, "extrapolation_value")
        out_dtype = result_dtype(props, operand_types[0])
        if out_dtype == i1:
            raise RelayTypeError(f"{what} does not give boolean results")
        dims = {d: data[layout.index(d)] for d in layout}
        dims.update(zip(cls.SPATIAL, size, strict=True))
        return [tensor_type([dims[d] for d in layout], out_dtype)]


@irdl_op_definition
class Resize1DOp(ResizeOp):
    """`relay.image.resize1d`: resize W of NCW or NWC data to `size` = [W] (see `ResizeOp`;
    `roi` is [start_w, end_w])."""

    name = "relay.image.resize1d"
    SPATIAL: ClassVar[str] = "W"
    LAYOUTS: ClassVar[tuple[str, ...]] = RESIZE1D_LAYOUTS

    size = prop_def(DenseArrayBase)
    roi = prop_def(DenseArrayBase, float_list_attr([0.0] * 2))
    layout = prop_def(StringAttr, StringAttr("NCW"))


@irdl_op_definition
class Resize2DOp(ResizeOp):
    """`relay.image.resize2d`: resize H and W of NCHW or NHWC data to `size` = [H, W] (see
    `ResizeOp`; `roi` is [start_h, start_w, end_h, end_w]); linear and cubic interpolate
    along H, then along W."""

    name = "relay.image.resize2d"

    size = prop_def(DenseArrayBase)
    roi = prop_def(DenseArrayBase, float_list_attr([0.0] * 4))


@irdl_op_definition
class Resize3DOp(ResizeOp):
    """`relay.image.resize3d`: resize D, H and W of NCDHW or NDHWC data to `size` =
    [D, H, W] (see `ResizeOp`; `roi` is [start_d, start_h, start_w, end_d, end_h, end_w])."""

    name = "relay.image.resize3d"
    SPATIAL: ClassVar[str] = "DHW"
    LAYOUTS: ClassVar[tuple[str, ...]] = RESIZE3D_LAYOUTS

    size = prop_def(DenseArrayBase)
    roi = prop_def(DenseArrayBase, float_list_attr([0.0] * 6))
    layout = prop_def(StringAttr, StringAttr("NCDHW"))


OPS = (Resize2DOp, Resize1DOp, Resize3DOp)
