"""ONNX TopK and Einsum converters against onnx's reference evaluator; NonMaxSuppression is
refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from tests.testlib.onnx_reference import check_node, node_model
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(15)


@pytest.mark.parametrize("largest", [0, 1])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_topk_with_ties_keeps_index_order(largest: int, axis: int) -> None:
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=axis, largest=largest)
    x = RNG.integers(0, 3, (3, 4)).astype(np.float32)
    check_node(node, {"x": x}, {"k": np.array([2], np.int64)})


def test_topk_with_k_zero_is_empty() -> None:
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=0)
    x = RNG.standard_normal((3, 2)).astype(np.float32)
    values, indices = check_node(node, {"x": x}, {"k": np.array([0], np.int64)})
    assert values.shape == indices.shape == (0, 2)


def test_topk_v1_takes_k_as_attribute() -> None:
    node = helper.make_node("TopK", ["x"], ["v", "i"], k=3)
    check_node(node, {"x": RNG.standard_normal((2, 5)).astype(np.float32)}, opset=9)


@pytest.mark.parametrize(
    ("equation", "shapes"),
    [
        ("ij,jk->ik", [(2, 3), (3, 4)]),
        ("bij, bjk -> bik", [(2, 2, 3), (2, 3, 2)]),
        ("ii->i", [(3, 3)]),
        ("ij->", [(2, 3)]),
        ("i,i", [(4,), (4,)]),
        ("...ij->...ji", [(2, 1, 3)]),
    ],
)
def test_einsum(equation: str, shapes: list[tuple[int, ...]]) -> None:
    names = [f"x{n}" for n in range(len(shapes))]
    node = helper.make_node("Einsum", names, ["y"], equation=equation)
    inputs = {
        n: RNG.standard_normal(s).astype(np.float64) for n, s in zip(names, shapes, strict=True)
    }
    check_node(node, inputs, opset=12)


def test_algorithm_on_target_c() -> None:
    topk = helper.make_node("TopK", ["x", "k"], ["v", "i"], largest=0)
    x = RNG.standard_normal((3, 5)).astype(np.float32)
    check_node(topk, {"x": x}, {"k": np.array([2], np.int64)}, target="c", optimize=False)
    einsum = helper.make_node("Einsum", ["a", "b"], ["y"], equation="ij,kj->ik")
    inputs = {"a": x, "b": RNG.standard_normal((4, 5)).astype(np.float32)}
    check_node(einsum, inputs, opset=12, target="c", optimize=False)


def test_topk_refuses_k_above_the_axis() -> None:
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], name="tk")
    model = node_model(node, {"x": np.ones((2, 3), np.float32)}, {"k": np.array([4], np.int64)})
    with pytest.raises(OnnxImportError, match=r"node 'tk' \(TopK\): k 4 exceeds"):
        from_onnx(model)


def test_non_max_suppression_is_unsupported_by_name() -> None:
    node = helper.make_node("NonMaxSuppression", ["b", "s"], ["sel"], name="nms")
    inputs = {"b": np.zeros((1, 2, 4), np.float32), "s": np.zeros((1, 1, 2), np.float32)}
    with pytest.raises(OnnxImportError, match=r"unsupported op NonMaxSuppression.*'nms'"):
        from_onnx(node_model(node, inputs, opset=11))
