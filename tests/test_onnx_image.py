"""ONNX GridSample (onto relay.image.grid_sample) and AffineGrid (a base grid times theta),
on the interpreter and `c`, compared with onnx.reference; refusals name the node."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator
from testlib.onnx_reference import check_both, node_model

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(5)


@pytest.mark.parametrize(
    ("opset", "mode", "padding"),
    [
        (16, "nearest", "zeros"),
        (20, "nearest", "reflection"),
        (20, "cubic", "reflection"),
        (20, "linear", "border"),
    ],
)
def test_grid_sample(opset: int, mode: str, padding: str, cache: Path) -> None:
    x = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)
    grid = RNG.uniform(-1.3, 1.3, (1, 3, 6, 2)).astype(np.float32)
    node = helper.make_node(
        "GridSample", ["x", "g"], ["y"], mode=mode, padding_mode=padding, align_corners=1
    )
    check_both(node, {"x": x, "g": grid}, {}, cache, opset=opset, rtol=1e-5)


@pytest.mark.parametrize(("old", "new"), [("bilinear", "linear"), ("bicubic", "cubic")])
def test_grid_sample_opset16_mode_names(old: str, new: str) -> None:
    """Opset 16's `bilinear`/`bicubic` are opset 20's `linear`/`cubic` (onnx.reference
    knows only the new names)."""
    x = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)
    grid = RNG.uniform(-1.3, 1.3, (1, 3, 6, 2)).astype(np.float32)
    inputs = {"x": x, "g": grid}
    want = ReferenceEvaluator(helper.make_node("GridSample", ["x", "g"], ["y"], mode=new))
    mod, _ = from_onnx(
        node_model(helper.make_node("GridSample", ["x", "g"], ["y"], mode=old), inputs, {}, 16)
    )
    got = xrelay.evaluate(mod, x, grid)
    np.testing.assert_allclose(got, want.run(None, inputs)[0], rtol=1e-5, atol=1e-5)


def test_grid_sample_volumetric(cache: Path) -> None:
    x = RNG.standard_normal((1, 2, 3, 4, 2)).astype(np.float32)
    grid = RNG.uniform(-1.2, 1.2, (1, 2, 2, 3, 3)).astype(np.float32)
    node = helper.make_node("GridSample", ["x", "g"], ["y"], mode="linear")
    check_both(node, {"x": x, "g": grid}, {}, cache, opset=20, rtol=1e-5)


@pytest.mark.parametrize("align", [0, 1])
@pytest.mark.parametrize("size", [[2, 3, 4, 5], [1, 1, 2, 3, 4]])
def test_affine_grid(align: int, size: list[int], cache: Path) -> None:
    rank = len(size) - 2
    theta = RNG.standard_normal((size[0], rank, rank + 1)).astype(np.float32)
    node = helper.make_node("AffineGrid", ["theta", "size"], ["y"], align_corners=align)
    check_both(
        node, {"theta": theta}, {"size": np.array(size, np.int64)}, cache, opset=20, rtol=1e-5
    )


def test_refusals_name_the_node() -> None:
    x = np.zeros((1, 2, 4), np.float32)
    node = helper.make_node("GridSample", ["x", "g"], ["y"], name="gs")
    with pytest.raises(OnnxImportError, match=r"node 'gs' \(GridSample\): only 4-D and 5-D"):
        from_onnx(node_model(node, {"x": x, "g": np.zeros((1, 3, 1), np.float32)}, {}, 20))
    theta = np.zeros((1, 2, 2), np.float32)
    node = helper.make_node("AffineGrid", ["t", "s"], ["y"], name="ag")
    with pytest.raises(OnnxImportError, match=r"node 'ag' \(AffineGrid\): theta must be"):
        from_onnx(node_model(node, {"t": theta}, {"s": np.array([1, 1, 2, 2], np.int64)}, 20))
