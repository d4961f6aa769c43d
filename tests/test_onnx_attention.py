"""ONNX Attention (opsets 23-25) on relay ops, against ONNX's ReferenceEvaluator."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_node, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(15)


def _rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def test_3d_gqa_with_past_causal_and_all_outputs() -> None:
    inputs = {
        "Q": _rand(2, 3, 4 * 8),
        "K": _rand(2, 3, 2 * 8),
        "V": _rand(2, 3, 2 * 6),
        "mask": _rand(3, 5),  # 5 of the 2 + 3 keys: padded with -inf
        "past_key": _rand(2, 2, 2, 8),
        "past_value": _rand(2, 2, 2, 6),
    }
    node = helper.make_node(
        "Attention",
        list(inputs),
        ["Y", "present_key", "present_value", "qk"],
        q_num_heads=4,
        kv_num_heads=2,
        is_causal=1,
        softcap=2.0,
        qk_matmul_output_mode=2,
    )
    outputs = check_node(node, inputs, opset=23)
    assert outputs[0].shape == (2, 3, 4 * 6)
    assert outputs[1].shape == (2, 2, 5, 8)


@pytest.mark.parametrize("mode", [0, 1, 3])
def test_4d_bool_mask_fully_masked_row_is_zero(mode: int) -> None:
    mask = np.ones((3, 4), np.bool_)
    mask[1] = False  # query 1 attends no key: its output row is 0, not NaN
    inputs = {"Q": _rand(1, 2, 3, 8), "K": _rand(1, 2, 4, 8), "V": _rand(1, 2, 4, 8), "m": mask}
    node = helper.make_node(
        "Attention", list(inputs), ["Y", "", "", "qk"], scale=0.5, qk_matmul_output_mode=mode
    )
    y = check_node(node, inputs, opset=24)[0]
    assert not np.isnan(y).any()
    np.testing.assert_array_equal(y[:, :, 1], 0)


def test_nonpad_kv_seqlen_and_sliding_window_on_c() -> None:
    inputs = {
        "Q": _rand(2, 2, 3, 4),
        "K": _rand(2, 2, 6, 4),
        "V": _rand(2, 2, 6, 4),
        "nonpad": np.array([6, 4], np.int64),
    }
    node = helper.make_node(
        "Attention",
        ["Q", "K", "V", "", "", "", "nonpad"],
        ["Y"],
        is_causal=1,
        left_window_size=2,
        right_window_size=0,
    )
    check_node(node, inputs, opset=25, target="c", rtol=1e-4, atol=1e-5)


def test_softmax_precision_float64() -> None:
    inputs = {"Q": _rand(1, 1, 2, 4), "K": _rand(1, 1, 3, 4), "V": _rand(1, 1, 3, 4)}
    node = helper.make_node(
        "Attention",
        list(inputs),
        ["Y", "", "", "qk"],
        softmax_precision=11,
        qk_matmul_output_mode=3,
    )
    check_node(node, inputs, opset=23)


def test_refuses_heads_that_do_not_group() -> None:
    inputs = {"Q": _rand(1, 3, 2, 4), "K": _rand(1, 2, 2, 4), "V": _rand(1, 2, 2, 4)}
    node = helper.make_node("Attention", list(inputs), ["Y"], name="att")

    with pytest.raises(OnnxImportError, match=r"node 'att' \(Attention\): 3 query heads"):
        from_onnx(node_model(node, inputs, opset=23))
