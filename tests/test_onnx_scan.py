"""ONNX CumSum, CumProd, and Shape, Size, Range of values not folded at import, against onnx's
reference evaluator."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import xrelay
from tests.testlib.onnx_reference import check_node, node_model
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(15)


@pytest.mark.parametrize("op", ["CumSum", "CumProd"])
@pytest.mark.parametrize("exclusive", [0, 1])
@pytest.mark.parametrize("reverse", [0, 1])
@pytest.mark.parametrize("axis", [0, -1])
def test_scans(op: str, exclusive: int, reverse: int, axis: int) -> None:
    node = helper.make_node(op, ["x", "axis"], ["y"], exclusive=exclusive, reverse=reverse)
    x = RNG.integers(-3, 4, (3, 4)).astype(np.int32)
    check_node(node, {"x": x}, {"axis": np.array(axis, np.int64)}, opset=26)


def test_scan_on_target_c() -> None:
    node = helper.make_node("CumSum", ["x", "axis"], ["y"], exclusive=1, reverse=1)
    x = RNG.standard_normal((2, 5)).astype(np.float32)
    check_node(node, {"x": x}, {"axis": np.array(1, np.int32)}, target="c", optimize=False)


def test_scan_needs_a_known_axis() -> None:
    node = helper.make_node("CumSum", ["x", "axis"], ["y"], name="cs")
    inputs = {"x": np.ones(3, np.float32), "axis": np.array(0, np.int64)}
    with pytest.raises(OnnxImportError, match=r"node 'cs' \(CumSum\): the axis"):
        from_onnx(node_model(node, inputs))


def _dynamic_model(node: onnx.NodeProto, out_elem: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, "m"])
    y = helper.make_tensor_value_info("y", out_elem, None)
    graph = helper.make_graph([node], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


@pytest.mark.parametrize(("start", "end"), [(None, None), (1, None), (-2, -1), (0, 1)])
def test_shape_of_a_dynamic_input(start: int | None, end: int | None) -> None:
    attrs = {k: v for k, v in (("start", start), ("end", end)) if v is not None}
    model = _dynamic_model(helper.make_node("Shape", ["x"], ["y"], **attrs), TensorProto.INT64)
    mod, _ = from_onnx(model)
    x = np.zeros((2, 3, 5), np.float32)
    got = np.asarray(xrelay.evaluate(mod, x))
    want = np.array([2, 3, 5], np.int64)[slice(start, end)]
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def test_size_of_a_dynamic_input() -> None:
    model = _dynamic_model(helper.make_node("Size", ["x"], ["y"]), TensorProto.INT64)
    mod, _ = from_onnx(model)
    assert "relay.ndarray_size" in mod.astext()
    got = np.asarray(xrelay.evaluate(mod, np.zeros((2, 3, 4), np.float32)))
    assert (got.dtype, got.shape) == (np.int64, ())
    assert int(got) == 24


def test_long_range_becomes_arange() -> None:
    node = helper.make_node("Range", ["a", "b", "c"], ["y"])
    consts = {
        "a": np.array(3, np.int64),
        "b": np.array(200003, np.int64),
        "c": np.array(2, np.int64),
    }
    model = node_model(node, {}, consts, opset=11)
    mod, _ = from_onnx(model)
    assert "relay.arange" in mod.astext()
    got = np.asarray(xrelay.evaluate(mod))
    np.testing.assert_array_equal(got, np.arange(3, 200003, 2, dtype=np.int64))


def test_range_of_one_element_tensors_as_onnx_reference() -> None:
    # AffineGrid's expanded function feeds Range a (1,)-shaped limit
    node = helper.make_node("Range", ["a", "b", "c"], ["y"])
    consts = {
        "a": np.array(1.0, np.float32),
        "b": np.array([4.0], np.float32),
        "c": np.array(1.5, np.float32),
    }
    mod, _ = from_onnx(node_model(node, {}, consts, opset=11))
    np.testing.assert_array_equal(xrelay.evaluate(mod), np.array([1.0, 2.5], np.float32))
    consts["b"] = np.array([4.0, 5.0], np.float32)
    with pytest.raises(OnnxImportError, match=r"the limit has 2 elements; needs a scalar"):
        from_onnx(node_model(node, {}, consts, opset=11))
