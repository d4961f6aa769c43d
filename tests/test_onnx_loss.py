"""ONNX NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, against ONNX's reference."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_node, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(12)


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss_nd_with_ignore_index(reduction: str, weighted: bool) -> None:
    x = RNG.standard_normal((3, 5, 2, 4)).astype(np.float32)
    target = RNG.integers(0, 5, (3, 2, 4)).astype(np.int64)
    target[0, 0, 0] = 2  # ignored: loss 0, weight 0
    inputs = {"x": x, "t": target}
    if weighted:
        inputs["w"] = RNG.uniform(0.5, 2.0, 5).astype(np.float32)
    node = helper.make_node(
        "NegativeLogLikelihoodLoss", list(inputs), ["loss"], reduction=reduction, ignore_index=2
    )
    loss = check_node(node, inputs, opset=22)[0]
    if reduction == "none":
        assert loss[0, 0, 0] == 0
        if not weighted:  # the gather is exact: -x at the target class
            kept = target != 2
            n, h, w = np.nonzero(kept)
            np.testing.assert_array_equal(loss[kept], -x[n, target[kept], h, w])


def test_nll_loss_out_of_range_ignore_index_is_never_gathered() -> None:
    inputs = {
        "x": RNG.standard_normal((4, 3)).astype(np.float64),
        "t": np.array([0, -5, 2, 1], np.int32),
        "w": np.array([1.0, 2.0, 3.0], np.float64),
    }
    node = helper.make_node("NegativeLogLikelihoodLoss", list(inputs), ["loss"], ignore_index=-5)
    check_node(node, inputs, opset=13)


@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_softmax_cross_entropy_with_log_prob_on_c(reduction: str) -> None:
    inputs = {
        "x": RNG.standard_normal((2, 4, 3)).astype(np.float32),
        "t": RNG.integers(0, 4, (2, 3)).astype(np.int64),
        "w": RNG.uniform(0.5, 2.0, 4).astype(np.float32),
    }
    node = helper.make_node(
        "SoftmaxCrossEntropyLoss", list(inputs), ["loss", "log_prob"], reduction=reduction
    )
    check_node(node, inputs, opset=13, target="c", rtol=1e-5, atol=1e-6)


def test_loss_refuses_a_float_target() -> None:
    inputs = {"x": np.zeros((2, 3), np.float32), "t": np.zeros((2,), np.float32)}
    node = helper.make_node("NegativeLogLikelihoodLoss", list(inputs), ["loss"], name="nll")
    with pytest.raises(OnnxImportError, match=r"node 'nll' \(NegativeLogLikelihoodLoss\): target"):
        from_onnx(node_model(node, inputs, opset=13))
