"""relay.image.resize1d and resize3d: naive loops by the formulas, ONNX Resize's own
reference (`onnx.reference`) on 3-D and 5-D data, the channels-last layouts, and the C
target against the interpreter."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator
from xrelay.passes.convert_layout import ConvertLayout

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(23)


def run(expr: relay.Expr, *params: tuple[relay.Var, Array]) -> Array:
    mod = IRModule.from_expr(relay.Function([p for p, _ in params], expr))
    return np.asarray(xrelay.evaluate(mod, *(v for _, v in params)))


def resize1d(x: Array, size: tuple[int], **attrs: Any) -> Array:
    v = relay.var("x", shape=x.shape, dtype=str(x.dtype))
    return run(relay.image.resize1d(v, size, **attrs), (v, x))


def resize3d(x: Array, size: tuple[int, int, int], **attrs: Any) -> Array:
    v = relay.var("x", shape=x.shape, dtype=str(x.dtype))
    return run(relay.image.resize3d(v, size, **attrs), (v, x))


def linear_taps(out: int, size: int, mode: str) -> list[list[tuple[int, float]]]:
    """Per output position, (input index, weight) pairs of linear interpolation."""
    taps: list[list[tuple[int, float]]] = []
    for o in range(out):
        if mode == "align_corners":
            coord = 0.0 if out == 1 else o * (size - 1) / (out - 1)
        else:  # half_pixel
            coord = (o + 0.5) * size / out - 0.5
        low = math.floor(coord)
        frac = coord - low
        clamp = [min(max(i, 0), size - 1) for i in (low, low + 1)]
        taps.append([(clamp[0], 1 - frac), (clamp[1], frac)])
    return taps


def test_trilinear_matches_naive_loops() -> None:
    x = RNG.standard_normal((1, 2, 3, 4, 5)).astype("float64")
    out = (5, 2, 7)
    for mode in ("half_pixel", "align_corners"):
        got = resize3d(x, out, coordinate_transformation_mode=mode)
        td, th, tw = (linear_taps(o, s, mode) for o, s in zip(out, x.shape[2:], strict=True))
        want = np.zeros((1, 2, *out))
        for c, d, h, w in itertools.product(range(2), range(out[0]), range(out[1]), range(out[2])):
            total = 0.0
            for (i, a), (j, b), (k, g) in itertools.product(td[d], th[h], tw[w]):
                total += a * b * g * x[0, c, i, j, k]
            want[0, c, d, h, w] = total
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=mode)


def test_resize1d_nearest_and_cubic_by_hand() -> None:
    x = np.array([[[10, 20, 30]]], "float32")
    # align_corners from 3 to 5: coordinates 0, 0.5, 1, 1.5, 2, rounded half up (TVM's round).
    got = resize1d(
        x, (5,), method="nearest_neighbor", coordinate_transformation_mode="align_corners"
    )
    np.testing.assert_array_equal(got[0, 0], [10, 20, 20, 30, 30])
    got = resize1d(x, (6,), method="nearest_neighbor", coordinate_transformation_mode="asymmetric")
    np.testing.assert_array_equal(got[0, 0], [10, 10, 20, 20, 30, 30])
    # cubic, align_corners from 3 to 5: position 1 has coordinate 0.5, between 10 and 20,
    # Keys' weights at distances 1.5, 0.5, 0.5, 1.5 with alpha -0.5 (edges clamped).
    got = resize1d(x, (5,), method="cubic", coordinate_transformation_mode="align_corners")
    near = 1 - 2.5 * 0.25 + 1.5 * 0.125
    far = -0.5 * 3.375 + 2.5 * 2.25 - 4 * 1.5 + 2
    np.testing.assert_allclose(got[0, 0, 1], far * 10 + near * 10 + near * 20 + far * 30, rtol=1e-6)
    np.testing.assert_allclose(got[0, 0, [0, 2, 4]], [10, 20, 30], rtol=1e-6)


def test_resize1d_is_resize2d_of_one_row() -> None:
    x = RNG.standard_normal((2, 3, 6)).astype("float32")
    attrs: dict[str, Any] = {"method": "cubic", "cubic_exclude": 1, "cubic_alpha": -0.75}
    got = resize1d(x, (9,), roi=(0.1, 0.8), **attrs)
    v = relay.var("x", shape=(2, 3, 1, 6))
    row = run(
        relay.image.resize2d(v, (1, 9), roi=(0.0, 0.1, 1.0, 0.8), **attrs), (v, x[:, :, None])
    )
    np.testing.assert_array_equal(got, row[:, :, 0])


def test_channels_last_layouts_and_tvm_defaults() -> None:
    x = RNG.standard_normal((1, 2, 3, 4, 5)).astype("float32")
    want = resize3d(x, (4, 2, 6), method="nearest_neighbor")
    nd = resize3d(x.transpose(0, 2, 3, 4, 1), (4, 2, 6), layout="NDHWC", method="nearest_neighbor")
    np.testing.assert_array_equal(nd.transpose(0, 4, 1, 2, 3), want)
    y = RNG.standard_normal((2, 3, 5)).astype("float32")
    nwc = resize1d(y.transpose(0, 2, 1), (8,), layout="NWC")
    np.testing.assert_array_equal(nwc.transpose(0, 2, 1), resize1d(y, (8,)))
    call = relay.image.resize3d(relay.var("x", shape=(1, 2, 3, 4, 5)), (1, 1, 1))
    assert call.attrs.roi == (0.0,) * 6
    assert call.attrs.layout == "NCDHW"
    assert relay.image.resize1d(relay.var("y", shape=(1, 2, 3)), (4,)).attrs.roi == (0.0, 0.0)


def run_onnx(x: Array, out: tuple[int, ...], roi: list[float], attrs: dict[str, Any]) -> Array:
    """ONNX Resize (opset 19) of the spatial axes of NC... `x` by its reference."""
    node = helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    rank = len(out)
    starts, ends = roi[:rank], roi[rank:]
    feeds: dict[str, Array] = {
        "x": x,
        "roi": np.array([0, 0, *starts, 1, 1, *ends], "float32"),
        "sizes": np.array([*x.shape[:2], *out], "int64"),
    }
    return np.asarray(ReferenceEvaluator(model).run(None, feeds)[0])


MODES = ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_crop_and_resize"]
CASES = list(itertools.product(["nearest", "linear", "cubic"], MODES))


@pytest.mark.parametrize(("method", "mode"), CASES)
def test_matches_onnx_reference(method: str, mode: str) -> None:
    attrs: dict[str, Any] = {
        "mode": method,
        "coordinate_transformation_mode": mode,
        "extrapolation_value": 5.0,
        "cubic_coeff_a": -0.75,
    }
    relay_attrs: dict[str, Any] = {
        "method": "nearest_neighbor" if method == "nearest" else method,
        "coordinate_transformation_mode": mode,
        "cubic_alpha": -0.75,
        "extrapolation_value": 5.0,
    }
    if method == "nearest":
        attrs["nearest_mode"] = relay_attrs["rounding_method"] = "round_prefer_ceil"
    if method == "cubic" and len(mode) % 2:
        attrs["exclude_outside"] = relay_attrs["cubic_exclude"] = 1
    x1 = RNG.standard_normal((1, 2, 5)).astype("float32")
    roi1 = [0.2, 1.1]
    want = run_onnx(x1, (7,), roi1, attrs)
    got = resize1d(x1, (7,), roi=[float(np.float32(r)) for r in roi1], **relay_attrs)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    x3 = RNG.standard_normal((1, 1, 3, 4, 3)).astype("float32")
    roi3 = [0.1, 0.0, 0.3, 0.9, 1.2, 0.8]
    want = run_onnx(x3, (4, 3, 5), roi3, attrs)
    got = resize3d(x3, (4, 3, 5), roi=[float(np.float32(r)) for r in roi3], **relay_attrs)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_convert_layout_resize1d_to_nwc() -> None:
    x = relay.var("x", shape=(1, 3, 6))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.relu(relay.image.resize1d(x, (9,)))))
    data = RNG.standard_normal((1, 3, 6)).astype("float32")
    want = np.asarray(xrelay.evaluate(mod, data))
    out = ConvertLayout({"image.resize1d": ["NWC"]})(mod)
    (op,) = [op for op in out.module.walk() if op.name == "relay.image.resize1d"]
    assert op.properties["layout"].data == "NWC"  # type: ignore[attr-defined]
    np.testing.assert_array_equal(np.asarray(xrelay.evaluate(out, data)), want)


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for index, (method, mode) in enumerate(CASES[::2]):
        dtype = ("float32", "uint8", "int32")[index % 3]
        three = index % 2 == 1
        last = index % 3 == 0
        if three:
            shape = (1, 3, 4, 2, 2) if last else (1, 2, 3, 4, 2)
        else:
            shape = (2, 5, 3) if last else (2, 3, 5)
        v = relay.var(f"v{index}", shape=shape, dtype=dtype)
        params.append(v)
        if dtype == "float32":
            values.append(RNG.standard_normal(shape).astype(dtype))
        else:
            values.append(RNG.integers(0, 256, shape).astype(dtype))
        attrs: dict[str, Any] = {
            "method": "nearest_neighbor" if method == "nearest" else method,
            "coordinate_transformation_mode": mode,
            "rounding_method": "round_prefer_floor" if index % 4 == 1 else "",
            "cubic_exclude": index % 2,
            "extrapolation_value": -2.0,
        }
        if three:
            layout = "NDHWC" if last else "NCDHW"
            roi = (0.1, 0.2, 0.0, 0.9, 1.3, 1.0)
            outputs.append(relay.image.resize3d(v, (5, 2, 3), roi, layout, **attrs))
        else:
            outputs.append(
                relay.image.resize1d(v, (7,), (0.1, 1.2), "NWC" if last else "NCW", **attrs)
            )
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    assert len(got) == len(want) == len(outputs)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
