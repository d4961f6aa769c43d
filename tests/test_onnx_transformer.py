"""ONNX RotaryEmbedding and SwiGLU on relay ops, against ONNX's reference."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_node, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(23)


def _caches(positions: int, half: int) -> tuple[np.ndarray, np.ndarray]:
    theta = RNG.uniform(0, 2 * np.pi, (positions, half))
    return np.cos(theta).astype(np.float32), np.sin(theta).astype(np.float32)


@pytest.mark.parametrize("interleaved", [0, 1])
@pytest.mark.parametrize("rotary_dim", [0, 4])
def test_rotary_4d_with_position_ids(interleaved: int, rotary_dim: int) -> None:
    cos, sin = _caches(10, (rotary_dim or 8) // 2)
    inputs = {
        "x": RNG.standard_normal((2, 3, 5, 8)).astype(np.float32),
        "cos": cos,
        "sin": sin,
        "pos": RNG.integers(0, 10, (2, 5)).astype(np.int64),
    }
    node = helper.make_node(
        "RotaryEmbedding",
        list(inputs),
        ["y"],
        interleaved=interleaved,
        rotary_embedding_dim=rotary_dim,
    )
    y = check_node(node, inputs, opset=23)[0]
    if rotary_dim:  # dims past the rotary ones pass through unchanged
        np.testing.assert_array_equal(y[..., rotary_dim:], inputs["x"][..., rotary_dim:])


def test_rotary_3d_without_position_ids_on_c() -> None:
    cos, sin = _caches(2 * 4, 3)
    inputs = {
        "x": RNG.standard_normal((2, 4, 2 * 6)).astype(np.float32),
        "cos": cos.reshape(2, 4, 3),
        "sin": sin.reshape(2, 4, 3),
    }
    node = helper.make_node("RotaryEmbedding", list(inputs), ["y"], num_heads=2, interleaved=1)
    check_node(node, inputs, opset=23, target="c")


@pytest.mark.parametrize("alpha", [1.0, 1.702])
def test_swiglu(alpha: float) -> None:
    inputs = {
        "a": RNG.standard_normal((3, 4)).astype(np.float32),
        "b": RNG.standard_normal((3, 4)).astype(np.float32),
    }
    node = helper.make_node("SwiGLU", list(inputs), ["y"], alpha=alpha)
    check_node(node, inputs, opset=28)


def test_rotary_refuses_3d_without_num_heads() -> None:
    inputs = {
        "x": np.zeros((1, 2, 4), np.float32),
        "cos": np.zeros((1, 2, 2), np.float32),
        "sin": np.zeros((1, 2, 2), np.float32),
    }
    node = helper.make_node("RotaryEmbedding", list(inputs), ["y"], name="rope")
    with pytest.raises(OnnxImportError, match=r"node 'rope' \(RotaryEmbedding\): 3-D input"):
        from_onnx(node_model(node, inputs, opset=23))
