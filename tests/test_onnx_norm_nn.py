"""ONNX LRN, InstanceNormalization, GroupNormalization, PRelu, LayerNormalization and 3-D
MatMul on their `relay.nn` ops.

LRN is compared with the spec's formula written out here (ONNX's ReferenceEvaluator
sums the wrong window when the batch is smaller than the channel count).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from onnx import helper
from testlib.onnx_reference import check_node, node_model

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx

Array = npt.NDArray[Any]
RNG = np.random.default_rng(15)


def _lrn_spec(x: Array, size: int, alpha: float, beta: float, bias: float) -> Array:
    """ONNX's LRN: channels c - floor((size-1)/2) .. c + ceil((size-1)/2) that exist."""
    channels = x.shape[1]
    out = np.empty_like(x)
    for c in range(channels):
        lo = max(0, c - (size - 1) // 2)
        hi = min(channels - 1, c + -(-(size - 1) // 2))
        square_sum = (x[:, lo : hi + 1].astype(np.float64) ** 2).sum(axis=1)
        out[:, c] = x[:, c] / (bias + alpha / size * square_sum) ** beta
    return out


def _run(node: Any, inputs: dict[str, Array], opset: int, target: str | None) -> Any:
    mod, params = from_onnx(node_model(node, inputs, opset=opset))
    args = [*inputs.values(), *params.values()]
    if target is None:
        return xrelay.evaluate(mod, *args)
    return xrelay.build(mod, target=target)(*args)


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize(
    ("shape", "size"), [((1, 7, 3, 3), 3), ((2, 5, 4), 4), ((1, 3, 2, 2, 2), 5), ((3, 6), 1)]
)
def test_lrn_matches_the_spec(shape: tuple[int, ...], size: int, target: str | None) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    node = helper.make_node("LRN", ["x"], ["y"], size=size, alpha=2e-2, beta=0.6, bias=1.5)
    got = _run(node, {"x": x}, 13, target)
    assert got.dtype == np.float32
    assert got.shape == x.shape
    np.testing.assert_allclose(got, _lrn_spec(x, size, 2e-2, 0.6, 1.5), rtol=1e-5, atol=1e-6)


def test_lrn_defaults() -> None:
    x = RNG.standard_normal((1, 4, 2, 2)).astype(np.float32)
    node = helper.make_node("LRN", ["x"], ["y"], size=3)
    got = _run(node, {"x": x}, 1, None)
    np.testing.assert_allclose(got, _lrn_spec(x, 3, 1e-4, 0.75, 1.0), rtol=1e-5, atol=1e-6)


def test_lrn_refuses_integers_by_name() -> None:
    x = np.ones((1, 3, 2, 2), np.int32)
    node = helper.make_node("LRN", ["x"], ["y"], size=3, name="norm1")
    with pytest.raises(OnnxImportError, match=r"node 'norm1' \(LRN\): .*int32; floats only"):
        from_onnx(node_model(node, {"x": x}, opset=13))


@pytest.mark.parametrize("target", [None, "c"])
def test_instance_norm(target: str | None) -> None:
    inputs = {"x": RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)}
    inputs["scale"] = RNG.standard_normal(3).astype(np.float32)
    inputs["bias"] = RNG.standard_normal(3).astype(np.float32)
    node = helper.make_node("InstanceNormalization", list(inputs), ["y"], epsilon=1e-3)
    check_node(node, inputs, opset=22, target=target, rtol=1e-4, atol=1e-5)
    assert "relay.nn.instance_norm" in from_onnx(node_model(node, inputs, opset=22))[0].astext()


def _group_norm_spec(x: Array, scale: Array, bias: Array, groups: int, eps: float) -> Array:
    """ONNX's formula; scale and bias per channel."""
    n, c = x.shape[:2]
    grouped = x.reshape(n, groups, -1).astype(np.float64)
    mean = grouped.mean(-1, keepdims=True)
    var = grouped.var(-1, keepdims=True)
    norm = ((grouped - mean) / np.sqrt(var + eps)).reshape(x.shape)
    bcast = (1, c) + (1,) * (x.ndim - 2)
    return norm * scale.reshape(bcast) + bias.reshape(bcast)


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize("opset", [18, 21])
def test_group_norm(opset: int, target: str | None) -> None:
    x = RNG.standard_normal((2, 6, 3, 2)).astype(np.float32)
    per = 6 if opset >= 21 else 3
    scale = RNG.standard_normal(per).astype(np.float32)
    bias = RNG.standard_normal(per).astype(np.float32)
    inputs = {"x": x, "scale": scale, "bias": bias}
    node = helper.make_node("GroupNormalization", list(inputs), ["y"], num_groups=3, epsilon=1e-2)
    got = _run(node, inputs, opset, target)
    if per != 6:  # opset 18: each group's value for its channels
        scale, bias = scale.repeat(2), bias.repeat(2)
    want = _group_norm_spec(x, scale, bias, 3, 1e-2)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_group_norm_refuses_indivisible_channels_by_name() -> None:
    inputs = {"x": np.ones((1, 5, 2), np.float32)}
    inputs["scale"] = inputs["bias"] = np.ones(5, np.float32)
    node = helper.make_node("GroupNormalization", list(inputs), ["y"], num_groups=2, name="gn")
    with pytest.raises(OnnxImportError, match=r"node 'gn' \(GroupNormalization\): 5 channels"):
        from_onnx(node_model(node, inputs, opset=21))


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize(
    ("opset", "x_shape", "slope_shape", "relay_op"),
    [
        (6, (2, 3, 4), (3,), "relay.nn.prelu"),  # per channel before opset 7
        (16, (2, 3, 4), (4,), "relay.nn.prelu"),  # numpy broadcasting: the last axis
        (16, (2, 3, 4), (3, 1), "relay.nn.prelu"),
        (16, (2, 3, 4), (3, 4), "relay.where"),
        (16, (2, 3, 4), (1,), "relay.where"),
    ],
)
def test_prelu_slopes(
    opset: int,
    x_shape: tuple[int, ...],
    slope_shape: tuple[int, ...],
    relay_op: str,
    target: str | None,
) -> None:
    x = RNG.standard_normal(x_shape).astype(np.float32)
    slope = RNG.standard_normal(slope_shape).astype(np.float32)
    node = helper.make_node("PRelu", ["x", "slope"], ["y"])
    got = _run(node, {"x": x, "slope": slope}, opset, target)
    aligned = slope.reshape(-1, 1) if opset < 7 else slope
    np.testing.assert_allclose(got, np.where(x < 0, x * aligned, x), rtol=1e-6)
    text = from_onnx(node_model(node, {"x": x, "slope": slope}, opset=opset))[0].astext()
    assert relay_op in text


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize("axis", [1, -1])
def test_layer_norm_is_nn_layer_norm(axis: int, target: str | None) -> None:
    inputs = {"x": RNG.standard_normal((2, 3, 4)).astype(np.float32)}
    inputs["scale"] = RNG.standard_normal((2, 3, 4)[axis:]).astype(np.float32)
    inputs["bias"] = RNG.standard_normal((2, 3, 4)[axis:]).astype(np.float32)
    node = helper.make_node("LayerNormalization", list(inputs), ["y"], axis=axis)
    check_node(node, inputs, opset=17, target=target, rtol=1e-4, atol=1e-5)
    assert "relay.nn.layer_norm" in from_onnx(node_model(node, inputs, opset=17))[0].astext()


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize(("a_shape", "b_shape"), [((3, 2, 4), (3, 4, 5)), ((1, 2, 4), (3, 4, 5))])
def test_matmul_3d_is_batch_matmul(
    a_shape: tuple[int, ...], b_shape: tuple[int, ...], target: str | None
) -> None:
    inputs = {"a": RNG.standard_normal(a_shape).astype(np.float32)}
    inputs["b"] = RNG.standard_normal(b_shape).astype(np.float32)
    node = helper.make_node("MatMul", ["a", "b"], ["y"])
    check_node(node, inputs, opset=13, target=target, rtol=1e-5, atol=1e-5)
    assert "relay.nn.batch_matmul" in from_onnx(node_model(node, inputs, opset=13))[0].astext()
