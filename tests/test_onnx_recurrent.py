"""ONNX CausalConvWithState and LinearAttention on relay ops, against ONNX's reference."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_node, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(27)


def _rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("with_past", [False, True])
def test_causal_conv_with_state_silu_and_bias(with_past: bool) -> None:
    inputs = {"x": _rand(2, 3, 5), "w": _rand(3, 1, 4), "b": _rand(3)}
    if with_past:
        inputs["past"] = _rand(2, 3, 3)
    node = helper.make_node("CausalConvWithState", list(inputs), ["y", "state"], activation="silu")
    y, state = check_node(node, inputs, opset=27)
    padded = np.concatenate([inputs.get("past", np.zeros((2, 3, 3), np.float32)), inputs["x"]], 2)
    np.testing.assert_array_equal(state, padded[:, :, -3:])  # the last k - 1 steps, exactly
    assert y.shape == (2, 3, 5)


def test_causal_conv_with_state_on_c() -> None:
    inputs = {"x": _rand(1, 2, 6), "w": _rand(2, 1, 3), "b": _rand(2), "past": _rand(1, 2, 2)}
    node = helper.make_node("CausalConvWithState", list(inputs), ["y", "state"])
    check_node(node, inputs, opset=27, target="c")


@pytest.mark.parametrize("rule", ["linear", "gated", "delta", "gated_delta"])
def test_linear_attention_rules_with_gqa_and_past(rule: str) -> None:
    b, t, hq, hkv, dk, dv = 2, 3, 4, 2, 3, 2
    inputs = {
        "q": _rand(b, t, hq * dk),
        "k": _rand(b, t, hkv * dk),
        "v": _rand(b, t, hkv * dv),
        "past": _rand(b, hkv, dk, dv),
    }
    names = ["q", "k", "v", "past"]
    if rule in ("gated", "gated_delta"):
        inputs["decay"] = -np.abs(_rand(b, t, hkv * dk))  # per key dim
        names.append("decay")
    else:
        names.append("")
    if rule in ("delta", "gated_delta"):
        inputs["beta"] = RNG.uniform(0, 1, (b, t, 1)).astype(np.float32)
        names.append("beta")
    node = helper.make_node(
        "LinearAttention",
        names,
        ["y", "state"],
        q_num_heads=hq,
        kv_num_heads=hkv,
        update_rule=rule,
    )
    check_node(node, inputs, opset=27, rtol=1e-5, atol=1e-5)


def test_linear_attention_on_c() -> None:
    inputs = {"q": _rand(1, 2, 4), "k": _rand(1, 2, 4), "v": _rand(1, 2, 4)}
    node = helper.make_node(
        "LinearAttention",
        list(inputs),
        ["y", "state"],
        q_num_heads=2,
        kv_num_heads=2,
        update_rule="linear",
        scale=0.5,
    )
    check_node(node, inputs, opset=27, target="c", rtol=1e-5, atol=1e-5)


def test_linear_attention_refuses_a_missing_decay() -> None:
    inputs = {"q": _rand(1, 2, 4), "k": _rand(1, 2, 4), "v": _rand(1, 2, 4)}
    node = helper.make_node(
        "LinearAttention", list(inputs), ["y"], q_num_heads=2, kv_num_heads=2, name="la"
    )
    with pytest.raises(OnnxImportError, match=r"node 'la' \(LinearAttention\): .*needs decay"):
        from_onnx(node_model(node, inputs, opset=27))
