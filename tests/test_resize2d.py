"""relay.image.resize2d: hand-computed values per mode, ONNX Resize's own reference
(`onnx.reference`) on random data for every mode, method and rounding, integer outputs,
and the C target against the interpreter."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(17)


def resize(x: Array, size: tuple[int, int], **attrs: Any) -> Array:
    expr = relay.image.resize2d(relay.var("x", shape=x.shape, dtype=str(x.dtype)), size, **attrs)
    return np.asarray(xrelay.evaluate(IRModule.from_expr(expr), x))


def row(*values: float) -> Array:
    return np.array([[[values]]], "float32")


def test_nearest_asymmetric_repeats() -> None:
    x = np.array([[[[1, 2], [3, 4]]]], "float32")
    got = resize(x, (4, 4), method="nearest_neighbor", coordinate_transformation_mode="asymmetric")
    np.testing.assert_array_equal(
        got[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]]
    )


def test_linear_modes_hand_computed() -> None:
    x = row(1, 2)
    # half_pixel: coordinates -0.25, 0.25, 0.75, 1.25, clamped at the edges.
    np.testing.assert_allclose(resize(x, (1, 4))[0, 0, 0], [1, 1.25, 1.75, 2])
    # align_corners: 0, 0.5, 1.
    got = resize(x, (1, 3), coordinate_transformation_mode="align_corners")
    np.testing.assert_allclose(got[0, 0, 0], [1, 1.5, 2])
    # asymmetric: 0, 0.5, 1, 1.5 (clamped).
    got = resize(x, (1, 4), coordinate_transformation_mode="asymmetric")
    np.testing.assert_allclose(got[0, 0, 0], [1, 1.5, 2, 2])


def test_nearest_rounding_methods() -> None:
    # align_corners from 3 to 5: coordinates 0, 0.5, 1, 1.5, 2.
    x = row(10, 20, 30)
    want = {
        "floor": [10, 10, 20, 20, 30],
        "ceil": [10, 20, 20, 30, 30],
        "round": [10, 20, 20, 30, 30],
        "round_prefer_floor": [10, 10, 20, 20, 30],
        "round_prefer_ceil": [10, 20, 20, 30, 30],
        "": [10, 20, 20, 30, 30],  # align_corners defaults to round (TVM)
    }
    for rounding, expected in want.items():
        got = resize(
            x,
            (1, 5),
            method="nearest_neighbor",
            coordinate_transformation_mode="align_corners",
            rounding_method=rounding,
        )
        np.testing.assert_array_equal(got[0, 0, 0], expected, err_msg=rounding)


def test_cubic_against_keys_kernel() -> None:
    x = row(0, 1, 4, 9, 16)
    alpha = -0.75
    got = resize(
        x,
        (1, 3),
        method="cubic",
        cubic_alpha=alpha,
        coordinate_transformation_mode="asymmetric",
        scales=(1.0, 0.6),
    )

    def kernel(d: float) -> float:
        d = abs(d)
        if d <= 1:
            return (alpha + 2) * d**3 - (alpha + 3) * d**2 + 1
        return alpha * d**3 - 5 * alpha * d**2 + 8 * alpha * d - 4 * alpha if d < 2 else 0.0

    data = [0, 1, 4, 9, 16]
    want = []
    for out in range(3):
        coord = out / 0.6
        first = int(np.floor(coord))
        total = 0.0
        for k in range(first - 1, first + 3):
            total += kernel(coord - k) * data[min(max(k, 0), 4)]
        want.append(total)
    np.testing.assert_allclose(got[0, 0, 0], want, rtol=1e-6)


def test_tf_crop_and_resize_extrapolates() -> None:
    x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    got = resize(
        x,
        (2, 3),
        coordinate_transformation_mode="tf_crop_and_resize",
        roi=(0.0, 0.5, 1.0, 1.5),
        extrapolation_value=-1.0,
    )
    # Columns 1.5, 3, 4.5 of rows 0 and 3: the last is outside the input.
    np.testing.assert_allclose(got[0, 0], [[1.5, 3, -1], [13.5, 15, -1]])


def test_integer_output_rounds_half_to_even_and_saturates() -> None:
    x = np.array([[[[0, 255, 0, 255]]]], "uint8")
    got = resize(x, (1, 8), method="cubic", cubic_alpha=-0.75)
    assert got.dtype == np.uint8
    reference = resize(x.astype("float32"), (1, 8), method="cubic", cubic_alpha=-0.75)
    np.testing.assert_array_equal(got, np.clip(np.round(reference), 0, 255).astype("uint8"))
    halves = resize(np.array([[[[1, 2, 3, 4]]]], "int32"), (1, 3), scales=(1.0, 0.75))
    floats = resize(np.array([[[[1, 2, 3, 4]]]], "float32"), (1, 3), scales=(1.0, 0.75))
    np.testing.assert_array_equal(halves, np.round(floats).astype("int32"))


MODES = [
    "half_pixel",
    "align_corners",
    "asymmetric",
    "pytorch_half_pixel",
    "tf_crop_and_resize",
    "half_pixel_symmetric",
]


def run_onnx(
    x: Array,
    out: tuple[int, int],
    scales: tuple[float, float] | None,
    roi: list[float],
    attrs: dict[str, Any],
) -> Array:
    """ONNX Resize (opset 19) on NCHW `x` by its reference implementation."""
    names = ["x", "roi", "scales" if scales else "", "" if scales else "sizes"]
    node = helper.make_node("Resize", names, ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    feeds: dict[str, Array] = {
        "x": x,
        "roi": np.array([0, 0, roi[0], roi[1], 1, 1, roi[2], roi[3]], "float32"),
    }
    if scales:
        feeds["scales"] = np.array([1, 1, *scales], "float32")
    else:
        feeds["sizes"] = np.array([*x.shape[:2], *out], "int64")
    return np.asarray(ReferenceEvaluator(model).run(None, feeds)[0])


CASES = list(
    itertools.product(
        ["nearest", "linear", "cubic"],
        MODES,
        [
            ((3, 4), (5, 7), None),
            ((5, 6), (3, 2), None),
            ((4, 5), (2, 3), (0.6, 0.7)),
            ((3, 3), (7, 6), (2.5, 2.2)),
        ],
    )
)


@pytest.mark.parametrize(("method", "mode", "shapes"), CASES)
def test_matches_onnx_reference(method: str, mode: str, shapes: Any) -> None:
    (h, w), out, scales = shapes
    x = RNG.standard_normal((1, 2, h, w)).astype("float32")
    roi = [0.1, 0.2, 0.9, 1.3]
    attrs: dict[str, Any] = {"mode": method, "coordinate_transformation_mode": mode}
    relay_attrs: dict[str, Any] = {
        "method": "nearest_neighbor" if method == "nearest" else method,
        "coordinate_transformation_mode": mode,
        "roi": [float(np.float32(r)) for r in roi],  # ONNX's roi is float32 too
        "cubic_alpha": -0.75,
        "extrapolation_value": 7.0,
    }
    attrs["extrapolation_value"] = 7.0
    if method == "nearest":
        nearest = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"][len(mode) % 4]
        attrs["nearest_mode"] = nearest
        relay_attrs["rounding_method"] = nearest
    if method == "cubic" and len(mode) % 2:
        attrs["exclude_outside"] = 1
        relay_attrs["cubic_exclude"] = 1
    want = run_onnx(x, out, scales, roi, attrs)
    if scales:  # ONNX's scales are float32: the coordinates divide by those values
        relay_attrs["scales"] = [float(np.float32(s)) for s in scales]
    got = resize(x, want.shape[2:], **relay_attrs)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("method", ["linear", "cubic"])
@pytest.mark.parametrize(
    "shapes", [((6, 7), (3, 2), None), ((5, 8), (2, 3), (0.6, 0.4)), ((3, 4), (5, 6), None)]
)
def test_antialias_matches_onnx_reference(method: str, shapes: Any) -> None:
    (h, w), out, scales = shapes
    x = RNG.standard_normal((1, 1, h, w)).astype("float32")
    roi = [0.0, 0.0, 1.0, 1.0]
    want = run_onnx(x, out, scales, roi, {"mode": method, "antialias": 1})
    relay_attrs: dict[str, Any] = {"method": method, "antialias": True, "cubic_alpha": -0.75}
    if scales:
        relay_attrs["scales"] = [float(np.float32(s)) for s in scales]
    got = resize(x, want.shape[2:], **relay_attrs)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("optimize", [False, True])
def test_c_target_matches_the_interpreter(optimize: bool, cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for index, (method, mode, shapes) in enumerate(CASES[::3]):
        (h, w), out, scales = shapes
        dtype = ("float32", "uint8", "int32", "float32")[index % 4]
        layout = "NHWC" if index % 5 == 0 else "NCHW"
        shape = (1, h, w, 2) if layout == "NHWC" else (1, 2, h, w)
        v = relay.var(f"v{index}", shape=shape, dtype=dtype)
        params.append(v)
        if dtype == "float32":
            values.append(RNG.standard_normal(shape).astype(dtype))
        else:
            values.append(RNG.integers(0, 256, shape).astype(dtype))
        outputs.append(
            relay.image.resize2d(
                v,
                out,
                roi=(0.1, 0.2, 0.9, 1.3),
                layout=layout,
                method="nearest_neighbor" if method == "nearest" else method,
                coordinate_transformation_mode=mode,
                rounding_method="round_prefer_ceil" if index % 2 else "",
                cubic_exclude=index % 2,
                extrapolation_value=-3.0,
                scales=scales,
                antialias=method != "nearest" and index % 3 == 0,
            )
        )
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    assert len(got) == len(want) == len(outputs)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
