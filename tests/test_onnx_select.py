"""NonZero, Compress, CenterCropPad, ReverseSequence, Det and BitCast against onnx.reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper
from testlib.onnx_reference import check_both, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7


def test_nonzero_of_a_known_tensor_folds(cache: Path) -> None:
    node = helper.make_node("NonZero", ["x"], ["y"])
    check_both(node, {}, {"x": np.array([[1, 0, 3], [0, 0, 5]], np.int32)}, cache, opset=13)


@pytest.mark.parametrize("axis", [None, 1, -1])
def test_compress_with_a_known_condition_is_a_take(axis: int | None, cache: Path) -> None:
    kwargs = {} if axis is None else {"axis": axis}
    node = helper.make_node("Compress", ["x", "c"], ["y"], **kwargs)
    size = 24 if axis is None else X.shape[axis]
    condition = np.array([i % 3 != 1 for i in range(size - 1)])  # shorter than the axis
    check_both(node, {"x": X}, {"c": condition}, cache, opset=11)


@pytest.mark.parametrize(
    ("shape", "axes"), [([1, 5, 3], None), ([7, 1], [-1, 0]), ([2, 2], [2, 0])]
)
def test_center_crop_pad(shape: list[int], axes: list[int] | None, cache: Path) -> None:
    kwargs = {} if axes is None else {"axes": axes}
    node = helper.make_node("CenterCropPad", ["x", "s"], ["y"], **kwargs)
    check_both(node, {"x": X}, {"s": np.array(shape, np.int64)}, cache, opset=18)


@pytest.mark.parametrize(("batch_axis", "time_axis"), [(0, 1), (1, 0)])
def test_reverse_sequence(batch_axis: int, time_axis: int, cache: Path) -> None:
    x = np.arange(20, dtype=np.int64).reshape(4, 5) if batch_axis == 1 else X[0].T.copy()
    batch = x.shape[batch_axis]
    lengths = np.array([x.shape[time_axis], 0, 1, 2, 3][:batch], np.int64)
    node = helper.make_node(
        "ReverseSequence", ["x", "n"], ["y"], batch_axis=batch_axis, time_axis=time_axis
    )
    check_both(node, {"x": x}, {"n": lengths}, cache, opset=10)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_det_small_matrices(n: int, cache: Path) -> None:
    x = np.random.default_rng(n).standard_normal((2, n, n)).astype(np.float32)
    check_both(helper.make_node("Det", ["x"], ["y"]), {"x": x}, {}, cache, opset=11, rtol=1e-5)


def test_bitcast_folds_a_known_value_and_refuses_a_runtime_one(cache: Path) -> None:
    node = helper.make_node("BitCast", ["x"], ["y"], to=TensorProto.INT32, name="bc")
    x = np.array([1.0, -2.5, np.inf], np.float32)
    check_both(node, {}, {"x": x}, cache, opset=26)
    with pytest.raises(OnnxImportError, match=r"'bc' \(BitCast\): BitCast of a value unknown"):
        from_onnx(node_model(node, {"x": x}, {}, 26))


def test_refusals_name_the_node() -> None:
    node = helper.make_node("Det", ["x"], ["y"], name="d")
    with pytest.raises(OnnxImportError, match=r"'d' \(Det\): Det is supported for n <= 3"):
        from_onnx(node_model(node, {"x": np.zeros((4, 4), np.float32)}, {}, 11))
    node = helper.make_node("Compress", ["x", "c"], ["y"], name="c", axis=0)
    with pytest.raises(OnnxImportError, match=r"'c' \(Compress\): the condition"):
        from_onnx(node_model(node, {"x": X, "c": np.array([True, False])}, {}, 11))
