"""ONNX GatherElements, GatherND, ScatterElements/Scatter, ScatterND and OneHot converters
against onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from tests.testlib.onnx_reference import check_node, node_model
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(15)


def _data(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_elements_with_negative_indices(axis: int) -> None:
    node = helper.make_node("GatherElements", ["x", "i"], ["y"], axis=axis)
    indices = np.array([[0, -1, 2], [-3, 1, 0], [2, 2, -2]], np.int64)
    check_node(node, {"x": _data(3, 3), "i": indices})


@pytest.mark.parametrize(
    ("data_shape", "indices", "batch_dims"),
    [
        ((2, 2), [[0, 0], [1, 1]], 0),
        ((2, 2), [[1], [0]], 0),
        ((2, 2, 2), [[[0, 1]], [[1, 0]]], 0),
        ((2, 2, 2), [[1], [0]], 1),
        ((2, 3, 4), [[[1, -1]], [[0, 2]]], 1),
    ],
)
def test_gather_nd_moves_the_index_tuple_first(
    data_shape: tuple[int, ...], indices: list[object], batch_dims: int
) -> None:
    node = helper.make_node("GatherND", ["x", "i"], ["y"], batch_dims=batch_dims)
    check_node(node, {"x": _data(*data_shape), "i": np.array(indices, np.int64)})


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "min", "max"])
def test_scatter_elements_reductions(reduction: str) -> None:
    node = helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], axis=1, reduction=reduction)
    indices = np.array([[1, 3], [0, -1], [2, 2]], np.int64)
    check_node(node, {"x": _data(3, 4), "i": indices, "u": _data(3, 2)})


def test_old_scatter_is_scatter_elements() -> None:
    node = helper.make_node("Scatter", ["x", "i", "u"], ["y"], axis=0)
    indices = np.array([[1, 0, 2], [0, 2, 1]], np.int64)
    same = helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], axis=0)
    inputs = {"x": _data(3, 3), "i": indices, "u": _data(2, 3)}
    check_node(node, inputs, opset=10, reference=same)


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max"])
def test_scatter_nd_slices_and_elements(reduction: str) -> None:
    node = helper.make_node("ScatterND", ["x", "i", "u"], ["y"], reduction=reduction)
    slices = np.array([[0], [2]], np.int64)
    check_node(node, {"x": _data(4, 3), "i": slices, "u": _data(2, 3)})
    elements = np.array([[[0, 1], [3, 2]], [[1, 0], [2, -1]]], np.int64)
    check_node(node, {"x": _data(4, 3), "i": elements, "u": _data(2, 2)})


@pytest.mark.parametrize("axis", [-1, 0, 1])
@pytest.mark.parametrize("index_dtype", [np.int64, np.int32, np.float32])
def test_one_hot_negative_indices_count_from_the_end(axis: int, index_dtype: type) -> None:
    node = helper.make_node("OneHot", ["i", "depth", "values"], ["y"], axis=axis)
    indices = np.array([[0, -1], [3, -4]], index_dtype)
    consts = {"depth": np.array(5, np.int64), "values": np.array([2.0, 7.0], np.float64)}
    check_node(node, {"i": indices}, consts)


def test_one_hot_out_of_range_is_all_off() -> None:
    node = helper.make_node("OneHot", ["i", "depth", "values"], ["y"])
    consts = {"depth": np.array(3.0, np.float32), "values": np.array([0, 1], np.int32)}
    check_node(node, {"i": np.array([4, -4, 1], np.int64)}, consts)


def test_indexing_on_target_c() -> None:
    gather = helper.make_node("GatherND", ["x", "i"], ["y"], batch_dims=1)
    check_node(
        gather,
        {"x": _data(2, 3, 4), "i": np.array([[2], [0]], np.int64)},
        target="c",
        optimize=False,
    )
    scatter = helper.make_node("ScatterND", ["x", "i", "u"], ["y"], reduction="add")
    inputs = {"x": _data(4, 3), "i": np.array([[1], [1]], np.int64), "u": _data(2, 3)}
    check_node(scatter, inputs, target="c", optimize=False)


def test_one_hot_needs_a_known_depth() -> None:
    node = helper.make_node("OneHot", ["i", "depth", "values"], ["y"], name="oh")
    inputs = {"i": np.array([1], np.int64), "depth": np.array(3, np.int64)}
    model = node_model(node, inputs, {"values": np.array([0, 1], np.float32)})
    with pytest.raises(OnnxImportError, match=r"node 'oh' \(OneHot\): the depth"):
        from_onnx(model)
