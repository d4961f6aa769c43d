"""Converters for ONNX's Resize and Upsample onto `relay.image.resize2d` (NCHW, H and W).

ONNX's `scales` and `roi` are float32: they are passed to the op as those values
(`float(np.float32(v))`), so the coordinates divide by what ONNX divides by
(docs/semantics.md, Resize). With `sizes` the scale is `size / input`, the op's
default, unless `keep_aspect_ratio_policy` picks one scale for both axes.
"""

from __future__ import annotations

import numpy as np

from xrelay.dialects.builder import image as IMAGE
from xrelay.relay.frontend.onnx_registry import Node, Result, converter

METHODS = {"nearest": "nearest_neighbor", "linear": "linear", "cubic": "cubic"}


def _f32(values: list[float]) -> list[float]:
    return [float(np.float32(v)) for v in values]


def _full(node: Node, values: list[float], fill: float, rank: int) -> list[float]:
    """Per-axis values given for `axes` (opset 18) spread over every axis."""
    axes = node.ints_attr("axes")
    if axes is None:
        node.refuse(len(values) != rank, f"{len(values)} values for rank {rank}")
        return values
    node.refuse(len(values) != len(axes), f"{len(values)} values for axes {axes}")
    full = [fill] * rank
    for axis, value in zip(axes, values, strict=True):
        node.refuse(not -rank <= axis < rank, f"axis {axis} out of range for rank {rank}")
        full[axis % rank] = value
    return full


def _resize(
    node: Node,
    scales: list[float] | None,
    sizes: list[int] | None,
    roi: list[float] | None,
    legacy: bool = False,
) -> Result:
    """`legacy` (Resize-10, Upsample): asymmetric coordinates, floor for nearest."""
    shape = node.static_shape(0, "Resize")
    node.refuse(len(shape) != 4, f"only 4-D NCHW input is supported (rank {len(shape)})")
    mode = node.str_attr("mode", "nearest")
    node.refuse(mode not in METHODS, f"unknown mode '{mode}'")
    ctm = "asymmetric" if legacy else node.str_attr("coordinate_transformation_mode", "half_pixel")
    op_scales: list[float] | None = None
    if sizes is not None:
        full_sizes = _full(node, [float(s) for s in sizes], -1.0, 4)
        out = [shape[i] if s < 0 else int(s) for i, s in enumerate(full_sizes)]
        policy = node.str_attr("keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            node.refuse(policy not in ("not_larger", "not_smaller"), f"unknown policy {policy}")
            chosen = _axes(node)
            ratios = [out[i] / shape[i] for i in chosen]
            scale = min(ratios) if policy == "not_larger" else max(ratios)
            out = [int(scale * shape[i] + 0.5) if i in chosen else shape[i] for i in range(4)]
            op_scales = [scale if i in chosen else 1.0 for i in (2, 3)]
    else:
        assert scales is not None
        full = _f32(_full(node, scales, 1.0, 4))
        out = [int(s * d) for s, d in zip(full, shape, strict=True)]
        op_scales = full[2:]
    node.refuse(out[:2] != list(shape[:2]), "only H and W (axes 2 and 3) can be resized")
    box = [0.0, 0.0, 1.0, 1.0]
    if ctm == "tf_crop_and_resize":
        node.refuse(roi is None, "tf_crop_and_resize needs roi")
        assert roi is not None
        half = len(roi) // 2
        starts = _full(node, _f32(roi[:half]), 0.0, 4)
        ends = _full(node, _f32(roi[half:]), 1.0, 4)
        box = [starts[2], starts[3], ends[2], ends[3]]
    nearest_mode = node.str_attr("nearest_mode", "round_prefer_floor")
    return IMAGE.resize2d(
        node.expr(0),
        out[2:],
        roi=box,
        method=METHODS[mode],
        coordinate_transformation_mode=ctm,
        rounding_method=nearest_mode if mode == "nearest" and not legacy else "",
        cubic_alpha=node.float_attr("cubic_coeff_a", -0.75),
        cubic_exclude=node.int_attr("exclude_outside", 0),
        extrapolation_value=node.float_attr("extrapolation_value", 0.0),
        scales=op_scales,
        antialias=bool(node.int_attr("antialias", 0)),
    )


def _axes(node: Node) -> list[int]:
    axes = node.ints_attr("axes")
    return [0, 1, 2, 3] if axes is None else [a % 4 for a in axes]


def _known_floats(node: Node, index: int, what: str) -> list[float] | None:
    if not node.has(index):
        return None
    values = [float(v) for v in node.const(index, what).reshape(-1)]
    return values or None


@converter("Resize", 10)
def resize_v10(node: Node) -> Result:
    """Resize (X, scales): nearest or linear, asymmetric coordinates."""
    scales = _known_floats(node, 1, "the scales")
    node.refuse(scales is None, "the scales are required")
    return _resize(node, scales, None, None, legacy=True)


@converter("Resize", 11)
def resize_v11(node: Node) -> Result:
    """Resize (X, roi, scales, sizes): every mode, roi for tf_crop_and_resize, and from
    opset 18 antialias, axes and keep_aspect_ratio_policy."""
    scales = _known_floats(node, 2, "the scales")
    sizes = None
    if scales is None:
        node.refuse(not node.has(3), "neither scales nor sizes is given")
        sizes = node.ints(3, "the sizes")
    return _resize(node, scales, sizes, _known_floats(node, 1, "the roi"))


@converter("Upsample", 7)
def upsample_v7(node: Node) -> Result:
    """Upsample: scales as an attribute (opset 7) or input (opset 9), nearest or linear."""
    if node.opset >= 9:
        scales = _known_floats(node, 1, "the scales")
    else:
        scales = [float(s) for s in node.attr("scales", [])]
    node.refuse(not scales, "the scales are required")
    return _resize(node, scales, None, None, legacy=True)
