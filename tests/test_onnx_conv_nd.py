"""ONNX Conv and pools of rank 1 and 3, ConvTranspose, LpPool and GlobalLpPool on
`relay.nn` ops, against ONNX's reference, on the interpreter and on target c."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator
from testlib.onnx_reference import check_node, node_model

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(15)
TARGETS = [None, "c"]


def _f32(*shape: int) -> Any:
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("x_shape", "w_shape", "attrs"),
    [
        ((1, 2, 5), (2, 3, 3), {"strides": [2], "output_padding": [1]}),
        ((1, 2, 3, 4), (2, 3, 2, 3), {"dilations": [2, 1], "pads": [1, 0, 0, 1]}),
        ((1, 1, 3, 3), (1, 2, 3, 3), {"strides": [3, 2], "output_shape": [10, 8]}),
        ((1, 1, 3, 3), (1, 2, 3, 3), {"strides": [2, 2], "auto_pad": "SAME_LOWER"}),
        ((1, 2, 2, 3, 2), (2, 2, 2, 2, 2), {"strides": [1, 2, 1]}),
    ],
)
def test_conv_transpose(
    x_shape: tuple[int, ...], w_shape: tuple[int, ...], attrs: dict[str, Any], target: str | None
) -> None:
    inputs = {
        "x": _f32(*x_shape),
        "w": _f32(*w_shape),
        "b": _f32(w_shape[1] * attrs.get("group", 1)),
    }
    node = helper.make_node("ConvTranspose", list(inputs), ["y"], **attrs)
    check_node(node, inputs, opset=22, target=target, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", TARGETS)
def test_grouped_conv_transpose_is_one_per_group(target: str | None) -> None:
    x, w = _f32(1, 4, 3, 4), _f32(4, 2, 2, 3)
    attrs: dict[str, Any] = {"strides": [2, 1], "pads": [1, 0, 0, 1]}
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], group=2, **attrs)
    mod, _ = from_onnx(node_model(node, {"x": x, "w": w}, opset=22))
    got = xrelay.evaluate(mod, x, w) if target is None else xrelay.build(mod, target=target)(x, w)
    single = helper.make_node("ConvTranspose", ["x", "w"], ["y"], **attrs)
    halves = [
        ReferenceEvaluator(node_model(single, {"x": x[:, g], "w": w[g]}, opset=22)).run(
            None, {"x": x[:, g], "w": w[g]}
        )[0]
        for g in (slice(0, 2), slice(2, 4))
    ]
    assert got.shape == (1, 4, 5, 5)
    np.testing.assert_allclose(got, np.concatenate(halves, axis=1), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("x_shape", "w_shape", "attrs"),
    [
        ((1, 2, 7), (4, 1, 3), {"group": 2, "auto_pad": "SAME_LOWER", "strides": [2]}),
        ((1, 2, 4, 5, 3), (3, 2, 2, 3, 2), {"pads": [1, 0, 1, 0, 1, 0], "dilations": [1, 2, 1]}),
    ],
)
def test_conv_of_rank_1_and_3(
    x_shape: tuple[int, ...], w_shape: tuple[int, ...], attrs: dict[str, Any], target: str | None
) -> None:
    inputs = {"x": _f32(*x_shape), "w": _f32(*w_shape)}
    node = helper.make_node("Conv", list(inputs), ["y"], **attrs)
    check_node(node, inputs, opset=22, target=target, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
@pytest.mark.parametrize(
    ("x_shape", "attrs"),
    [
        # the ceil-mode last window starts in the right padding: ONNX drops it
        ((1, 2, 6), {"kernel_shape": [2], "strides": [2], "pads": [1, 1], "ceil_mode": 1}),
        ((1, 1, 5, 4, 6), {"kernel_shape": [2, 2, 3], "strides": [2, 1, 2], "ceil_mode": 1}),
    ],
)
def test_pools_of_rank_1_and_3(
    op: str, x_shape: tuple[int, ...], attrs: dict[str, Any], target: str | None
) -> None:
    node = helper.make_node(op, ["x"], ["y"], **attrs)
    check_node(node, {"x": _f32(*x_shape)}, opset=22, target=target)


@pytest.mark.parametrize("target", TARGETS)
def test_average_pool_3d_counting_the_padding(target: str | None) -> None:
    attrs = {"kernel_shape": [3, 3, 3], "pads": [1] * 6, "count_include_pad": 1}
    node = helper.make_node("AveragePool", ["x"], ["y"], **attrs)
    check_node(node, {"x": _f32(1, 1, 4, 4, 4)}, opset=22, target=target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("x_shape", "attrs"),
    [
        ((1, 2, 7), {"kernel_shape": [3], "p": 3, "strides": [2]}),
        ((1, 2, 5, 5), {"kernel_shape": [2, 3], "pads": [1, 0, 0, 1], "dilations": [2, 1]}),
        ((1, 1, 3, 4, 3), {"kernel_shape": [2, 2, 2], "p": 1, "auto_pad": "SAME_UPPER"}),
    ],
)
def test_lp_pool(x_shape: tuple[int, ...], attrs: dict[str, Any], target: str | None) -> None:
    node = helper.make_node("LpPool", ["x"], ["y"], **attrs)
    check_node(node, {"x": _f32(*x_shape)}, opset=22, target=target, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("p", [1, 2, 3])
def test_global_lp_pool(p: int, target: str | None) -> None:
    x = _f32(2, 3, 4, 5)
    node = helper.make_node("GlobalLpPool", ["x"], ["y"], p=p)
    mod, _ = from_onnx(node_model(node, {"x": x}, opset=22))
    got = xrelay.evaluate(mod, x) if target is None else xrelay.build(mod, target=target)(x)
    want = (np.abs(x.astype(np.float64)) ** p).sum(axis=(2, 3), keepdims=True) ** (1 / p)
    assert got.shape == (2, 3, 1, 1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_conv_transpose_refuses_rank_6_by_name() -> None:
    inputs = {"x": _f32(1, 1, 2, 2, 2, 2), "w": _f32(1, 1, 1, 1, 1, 1)}
    node = helper.make_node("ConvTranspose", list(inputs), ["y"], name="up")
    with pytest.raises(OnnxImportError, match=r"node 'up' \(ConvTranspose\): only 1-D, 2-D"):
        from_onnx(node_model(node, inputs, opset=22))
