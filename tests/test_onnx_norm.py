"""ONNX LayerNormalization and RMSNormalization on relay ops, against ONNX's reference."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_node, node_model

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(17)


@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_layer_norm_axes_with_mean_and_inv_std_dev(axis: int) -> None:
    inputs = {
        "x": RNG.standard_normal((2, 3, 4)).astype(np.float32),
        "scale": RNG.standard_normal((2, 3, 4)[axis:]).astype(np.float32),
        "bias": RNG.standard_normal((2, 3, 4)[axis:]).astype(np.float32),
    }
    node = helper.make_node(
        "LayerNormalization", list(inputs), ["y", "mean", "inv_std"], axis=axis, epsilon=1e-3
    )
    y, mean, inv_std = check_node(node, inputs, opset=17)
    x = inputs["x"]
    axes = tuple(range(axis % 3, 3))
    np.testing.assert_allclose(mean, x.mean(axis=axes, keepdims=True), rtol=1e-5, atol=1e-6)
    assert y.shape == x.shape
    assert inv_std.shape == mean.shape


def test_layer_norm_on_c() -> None:
    inputs = {"x": RNG.standard_normal((3, 5)).astype(np.float32)}
    inputs["scale"] = RNG.standard_normal(5).astype(np.float32)
    node = helper.make_node("LayerNormalization", list(inputs), ["y", "mean", "inv_std"])
    check_node(node, inputs, opset=17, target="c")


def test_layer_norm_float16_stashes_statistics_in_float32() -> None:
    x = (RNG.standard_normal((2, 8)) * 100).astype(np.float16)
    scale = np.ones(8, np.float16)
    node = helper.make_node("LayerNormalization", ["x", "scale"], ["y", "mean", "inv_std"])
    mod, _ = from_onnx(node_model(node, {"x": x, "scale": scale}, opset=17))
    y, mean, inv_std = xrelay.evaluate(mod, x, scale)
    assert y.dtype == np.float16
    assert mean.dtype == inv_std.dtype == np.float32
    wide = x.astype(np.float64)
    want = (wide - wide.mean(-1, keepdims=True)) / np.sqrt(wide.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(y, want, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("axis", [0, -1])
def test_rms_norm(axis: int) -> None:
    inputs = {
        "x": RNG.standard_normal((2, 3, 4)).astype(np.float32),
        "scale": RNG.standard_normal((2, 3, 4)[axis:]).astype(np.float32),
    }
    node = helper.make_node("RMSNormalization", list(inputs), ["y"], axis=axis, epsilon=1e-4)
    check_node(node, inputs, opset=23)
    if axis == -1:
        check_node(node, inputs, opset=23, target="c")


def test_norm_refuses_an_axis_out_of_range() -> None:
    inputs = {"x": np.zeros((2, 3), np.float32), "scale": np.ones(3, np.float32)}
    node = helper.make_node("RMSNormalization", list(inputs), ["y"], axis=2, name="rms")
    with pytest.raises(OnnxImportError, match=r"node 'rms' \(RMSNormalization\): axis 2"):
        from_onnx(node_model(node, inputs, opset=23))
