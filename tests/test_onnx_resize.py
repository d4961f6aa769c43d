"""ONNX Resize (opsets 10, 11, 13, 18, 19) and Upsample (opsets 7, 9) on
`relay.image.resize2d`, against ONNX's reference, on the interpreter and on target c."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from testlib.onnx_reference import node_model

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(15)
TARGETS = [None, "c"]


def _x(*shape: int) -> Any:
    return RNG.standard_normal(shape).astype(np.float32)


def _constant(name: str, values: Any) -> onnx.NodeProto:
    dtype = helper.np_dtype_to_tensor_dtype(values.dtype)
    tensor = helper.make_tensor(name, dtype, list(values.shape), values.reshape(-1).tolist())
    return helper.make_node("Constant", [], [name], value=tensor)


def _check(
    op: str,
    opset: int,
    attrs: dict[str, Any],
    x: Any,
    extra: list[tuple[str, Any]],
    target: str | None,
) -> None:
    """`op` on graph input x and Constant nodes for the `extra` inputs (None: absent),
    run on xrelay and on ONNX's reference."""
    nodes = [_constant(name, value) for name, value in extra if value is not None]
    names = ["x", *(name if value is not None else "" for name, value in extra)]
    while names[-1] == "":
        names.pop()
    nodes.append(helper.make_node(op, names, ["y"], **attrs))
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    mod, _ = from_onnx(model)
    got = xrelay.evaluate(mod, x) if target is None else xrelay.build(mod, target=target)(x)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _check_resize(
    opset: int,
    attrs: dict[str, Any],
    x: Any,
    roi: Any = None,
    scales: Any = None,
    sizes: Any = None,
    target: str | None = None,
) -> None:
    extra = (
        [("scales", scales)] if opset < 11 else [("roi", roi), ("scales", scales), ("sizes", sizes)]
    )
    _check("Resize", opset, attrs, x, extra, target)


F32 = np.float32


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("attrs", "scales"),
    [
        ({"mode": "nearest", "nearest_mode": "ceil"}, [1, 1, 1.5, 0.7]),
        ({"mode": "linear", "coordinate_transformation_mode": "align_corners"}, [1, 1, 2.2, 1]),
        ({"mode": "cubic", "exclude_outside": 1, "cubic_coeff_a": -0.5}, [1, 1, 0.6, 1.7]),
        ({"mode": "linear", "antialias": 1}, [1, 1, 0.5, 0.4]),
    ],
)
def test_resize_by_scales(attrs: dict[str, Any], scales: list[float], target: str | None) -> None:
    _check_resize(19, attrs, _x(1, 2, 5, 6), scales=np.array(scales, F32), target=target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("policy", ["stretch", "not_larger", "not_smaller"])
def test_resize_by_sizes_on_axes(policy: str, target: str | None) -> None:
    attrs = {"mode": "linear", "axes": [3, 2], "keep_aspect_ratio_policy": policy}
    sizes = np.array([7, 3], np.int64)
    _check_resize(19, attrs, _x(1, 2, 4, 5), sizes=sizes, target=target)


@pytest.mark.parametrize("target", TARGETS)
def test_resize_tf_crop_and_resize(target: str | None) -> None:
    attrs = {
        "mode": "linear",
        "coordinate_transformation_mode": "tf_crop_and_resize",
        "extrapolation_value": 3.0,
    }
    roi = np.array([0, 0, 0.2, -0.1, 1, 1, 0.9, 1.3], F32)
    sizes = np.array([1, 2, 4, 4], np.int64)
    _check_resize(13, attrs, _x(1, 2, 5, 6), roi=roi, sizes=sizes, target=target)


def _run(model: onnx.ModelProto, x: Any, target: str | None) -> Any:
    mod, _ = from_onnx(model)
    return xrelay.evaluate(mod, x) if target is None else xrelay.build(mod, target=target)(x)


# ONNX's reference implements neither Resize-10 nor Upsample-7: integer nearest
# upsampling (asymmetric, floor) repeats each element, as its Upsample reference does
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("op", "opset"), [("Resize", 10), ("Upsample", 7), ("Upsample", 9)])
def test_nearest_upsampling_by_integers_repeats(op: str, opset: int, target: str | None) -> None:
    x = _x(1, 2, 2, 3)
    scales = np.array([1, 1, 2, 3], F32)
    if opset == 7:
        node = helper.make_node(op, ["x"], ["y"], mode="nearest", scales=scales.tolist())
        nodes = [node]
    else:
        nodes = [_constant("s", scales), helper.make_node(op, ["x", "s"], ["y"], mode="nearest")]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    np.testing.assert_array_equal(_run(model, x, target), x.repeat(2, axis=2).repeat(3, axis=3))


def test_upsample_needs_known_scales() -> None:
    x, scales = _x(1, 1, 2, 2), np.array([1, 1, 2, 2], F32)
    node = helper.make_node("Upsample", ["x", "s"], ["y"], name="up")
    with pytest.raises(OnnxImportError, match=r"node 'up' \(Upsample\): the scales"):
        from_onnx(node_model(node, {"x": x, "s": scales}, opset=9))


def test_resize_refuses_a_scaled_channel_axis_and_other_ranks() -> None:
    node = helper.make_node("Upsample", ["x"], ["y"], name="up", scales=[1.0, 2.0, 2.0, 2.0])
    with pytest.raises(OnnxImportError, match=r"node 'up' \(Upsample\): only H and W"):
        from_onnx(node_model(node, {"x": _x(1, 1, 2, 2)}, opset=7))
    node = helper.make_node("Upsample", ["x"], ["y"], name="up3", scales=[1.0, 1.0, 2.0])
    with pytest.raises(OnnxImportError, match=r"node 'up3' \(Upsample\): only 4-D NCHW"):
        from_onnx(node_model(node, {"x": _x(1, 1, 2)}, opset=7))
