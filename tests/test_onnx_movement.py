"""ONNX Tile, Trilu, DepthToSpace, SpaceToDepth, Expand and Pad (modes) converters against
onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from tests.testlib.onnx_reference import check_node, node_model
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(15)


def _data(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("reps", [[1, 1], [2, 3], [3, 0]])
def test_tile(reps: list[int]) -> None:
    node = helper.make_node("Tile", ["x", "reps"], ["y"])
    check_node(node, {"x": _data(2, 3)}, {"reps": np.array(reps, np.int64)})


@pytest.mark.parametrize("upper", [0, 1])
@pytest.mark.parametrize("k", [None, -1, 0, 2, 7])
def test_trilu_with_and_without_k(upper: int, k: int | None) -> None:
    inputs = ["x"] if k is None else ["x", "k"]
    node = helper.make_node("Trilu", inputs, ["y"], upper=upper)
    consts = {} if k is None else {"k": np.array(k, np.int64)}
    check_node(node, {"x": _data(2, 3, 5)}, consts, opset=14)


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space_modes(mode: str) -> None:
    node = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode=mode)
    check_node(node, {"x": _data(1, 8, 2, 3)})


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_space_to_depth_modes(mode: str) -> None:
    node = helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2, mode=mode)
    check_node(node, {"x": _data(1, 2, 4, 6)}, opset=28)


@pytest.mark.parametrize(
    ("in_shape", "shape"), [((3, 1), [2, 1, 6]), ((1, 4), [3, 1]), ((2, 3), [3]), ((3,), [1])]
)
def test_expand_is_a_two_way_broadcast(in_shape: tuple[int, ...], shape: list[int]) -> None:
    node = helper.make_node("Expand", ["x", "shape"], ["y"])
    check_node(node, {"x": _data(*in_shape)}, {"shape": np.array(shape, np.int64)})


def test_expand_uses_broadcast_to_for_any_dtype() -> None:
    node = helper.make_node("Expand", ["x", "shape"], ["y"])
    model = node_model(node, {"x": np.array([True, False])}, {"shape": np.array([3, 1], np.int64)})
    text = from_onnx(model)[0].astext()
    assert "relay.broadcast_to" in text
    assert "relay.where" not in text
    check_node(node, {"x": np.array([1, 2], np.uint8)}, {"shape": np.array([3, 1], np.int64)})


def test_expand_refuses_shapes_that_do_not_broadcast() -> None:
    node = helper.make_node("Expand", ["x", "shape"], ["y"], name="ex")
    model = node_model(node, {"x": _data(3)}, {"shape": np.array([2], np.int64)})
    with pytest.raises(OnnxImportError, match=r"node 'ex' \(Expand\): shape \[2\] does not"):
        from_onnx(model)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
@pytest.mark.parametrize("pads", [[1, 2, 2, 0], [0, 3, 1, 2]])
def test_pad_modes(mode: str, pads: list[int]) -> None:
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)
    check_node(node, {"x": _data(3, 4)}, {"pads": np.array(pads, np.int64)})


def test_pad_axes_input_with_edge_mode() -> None:
    node = helper.make_node("Pad", ["x", "pads", "", "axes"], ["y"], mode="edge")
    consts = {"pads": np.array([2, 1], np.int64), "axes": np.array([-1], np.int64)}
    check_node(node, {"x": _data(2, 3)}, consts)


def test_pad_refuses_negative_pads_outside_constant_mode() -> None:
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap", name="p")
    model = node_model(node, {"x": _data(3, 4)}, {"pads": np.array([1, 0, -1, 0], np.int64)})
    with pytest.raises(OnnxImportError, match=r"node 'p' \(Pad\): negative pads are"):
        from_onnx(model)


def test_movement_on_target_c() -> None:
    pad = helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")
    check_node(
        pad,
        {"x": _data(3, 4)},
        {"pads": np.array([1, 2, 2, 3], np.int64)},
        target="c",
        optimize=False,
    )
    trilu = helper.make_node("Trilu", ["x", "k"], ["y"], upper=0)
    check_node(
        trilu,
        {"x": _data(4, 3)},
        {"k": np.array(1, np.int64)},
        opset=14,
        target="c",
        optimize=False,
    )
    s2d = helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2, mode="CRD")
    check_node(s2d, {"x": _data(1, 2, 4, 2)}, opset=28, target="c", optimize=False)


def test_refusals_name_the_node() -> None:
    tile = helper.make_node("Tile", ["x", "reps"], ["y"], name="t")
    model = node_model(tile, {"x": _data(2, 3)}, {"reps": np.array([2], np.int64)})
    with pytest.raises(OnnxImportError, match=r"node 't' \(Tile\): 1 repeats for rank 2"):
        from_onnx(model)
    s2d = helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2, mode="CRD", name="s")
    with pytest.raises(OnnxImportError, match=r"node 's' \(SpaceToDepth\): H and W must be"):
        from_onnx(node_model(s2d, {"x": _data(1, 1, 3, 4)}, opset=28))
