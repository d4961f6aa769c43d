"""Builder functions for `relay.image` ops, with TVM's signatures and defaults."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Constant, Expr
from xrelay.dialects.relay import image
from xrelay.dialects.relay.image import ResizeOp

__all__ = ["resize1d", "resize2d", "resize3d"]


def _static(values: Sequence[float] | Constant | None, what: str) -> list[float] | None:
    if values is None:
        return None
    if isinstance(values, Constant):
        return [float(v) for v in values.data.reshape(-1)]
    if isinstance(values, Expr):
        raise TypeError(f"{what} must be static: numbers or a relay.const")
    return [float(v) for v in values]


def _resize(
    op: type[ResizeOp],
    data: Expr,
    size: Sequence[int] | Constant,
    roi: Sequence[float] | Constant | None,
    layout: str,
    method: str,
    coordinate_transformation_mode: str,
    rounding_method: str,
    cubic_alpha: float,
    cubic_exclude: int,
    extrapolation_value: float,
    out_dtype: str | None,
    scales: Sequence[float] | None,
    antialias: bool,
) -> Call:
    sizes = _static(size, "size") or []
    rois = _static(roi, "roi") or [0.0] * (2 * len(op.SPATIAL))
    props: dict[str, Attribute] = {
        "size": attrs.ints([int(s) for s in sizes]),
        "roi": image.float_list_attr(rois),
        "layout": attrs.str_(layout),
        "method": attrs.str_(method),
        "coordinate_transformation_mode": attrs.str_(coordinate_transformation_mode),
        "rounding_method": attrs.str_(rounding_method),
        "cubic_alpha": attrs.float_(cubic_alpha),
        "cubic_exclude": attrs.int_(cubic_exclude),
        "extrapolation_value": attrs.float_(extrapolation_value),
    }
    if scales is not None:
        props["scales"] = image.float_list_attr(scales)
    if antialias:
        props["antialias"] = attrs.bool_(True)
    if out_dtype:
        props["out_dtype"] = attrs.dtype(out_dtype)
    return Call(op, [data], props)


def resize1d(
    data: Expr,
    size: Sequence[int] | Constant,
    roi: Sequence[float] | Constant | None = None,
    layout: str = "NCW",
    method: str = "linear",
    coordinate_transformation_mode: str = "half_pixel",
    rounding_method: str = "",
    cubic_alpha: float = -0.5,
    cubic_exclude: int = 0,
    extrapolation_value: float = 0.0,
    out_dtype: str | None = None,
    scales: Sequence[float] | None = None,
    antialias: bool = False,
) -> Call:
    """`relay.image.resize1d`, TVM's signature (`size` is [W], `roi` is [start_w, end_w]);
    `scales` and `antialias` are the xrelay extensions of `resize2d`."""
    return _resize(
        image.Resize1DOp,
        data,
        size,
        roi,
        layout,
        method,
        coordinate_transformation_mode,
        rounding_method,
        cubic_alpha,
        cubic_exclude,
        extrapolation_value,
        out_dtype,
        scales,
        antialias,
    )


def resize2d(
    data: Expr,
    size: Sequence[int] | Constant,
    roi: Sequence[float] | Constant | None = None,
    layout: str = "NCHW",
    method: str = "linear",
    coordinate_transformation_mode: str = "half_pixel",
    rounding_method: str = "",
    cubic_alpha: float = -0.5,
    cubic_exclude: int = 0,
    extrapolation_value: float = 0.0,
    out_dtype: str | None = None,
    scales: Sequence[float] | None = None,
    antialias: bool = False,
) -> Call:
    """`relay.image.resize2d`, TVM's signature (`roi` is [start_h, start_w, end_h, end_w]).

    `scales` (an xrelay extension, ONNX Resize's `scales` for H and W) makes the
    coordinate transform divide by them instead of `size / input`; `antialias` (an
    extension too, ONNX's attribute) widens linear and cubic kernels when downsampling.
    """
    return _resize(
        image.Resize2DOp,
        data,
        size,
        roi,
        layout,
        method,
        coordinate_transformation_mode,
        rounding_method,
        cubic_alpha,
        cubic_exclude,
        extrapolation_value,
        out_dtype,
        scales,
        antialias,
    )


def resize3d(
    data: Expr,
    size: Sequence[int] | Constant,
    roi: Sequence[float] | Constant | None = None,
    layout: str = "NCDHW",
    method: str = "linear",
    coordinate_transformation_mode: str = "half_pixel",
    rounding_method: str = "",
    cubic_alpha: float = -0.5,
    cubic_exclude: int = 0,
    extrapolation_value: float = 0.0,
    out_dtype: str | None = None,
    scales: Sequence[float] | None = None,
    antialias: bool = False,
) -> Call:
    """`relay.image.resize3d`, TVM's signature (`size` is [D, H, W], `roi` is
    [start_d, start_h, start_w, end_d, end_h, end_w]); `scales` and `antialias` are the
    xrelay extensions of `resize2d`."""
    return _resize(
        image.Resize3DOp,
        data,
        size,
        roi,
        layout,
        method,
        coordinate_transformation_mode,
        rounding_method,
        cubic_alpha,
        cubic_exclude,
        extrapolation_value,
        out_dtype,
        scales,
        antialias,
    )
