"""ONNX DFT and STFT, decomposed onto matmul with constant cos/sin matrices, on the
interpreter and `c`, compared with onnx.reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_both, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx

RNG = np.random.default_rng(9)


@pytest.mark.parametrize(
    ("parts", "attrs", "length"),
    [
        (1, {}, None),
        (2, {}, None),
        (1, {"onesided": 1}, None),
        (2, {"inverse": 1}, None),
        (2, {"inverse": 1, "onesided": 1}, None),
        (1, {}, 6),
        (2, {"axis": 2}, 12),
    ],
)
def test_dft_v17(parts: int, attrs: dict[str, int], length: int | None, cache: Path) -> None:
    x = RNG.standard_normal((2, 8, 3, parts)).astype(np.float32)
    consts = {} if length is None else {"n": np.array(length, np.int64)}
    node = helper.make_node("DFT", ["x", "n" if length else ""], ["y"], **attrs)
    check_both(node, {"x": x}, consts, cache, opset=17, rtol=1e-4)


def test_dft_v20_axis_input_float64(cache: Path) -> None:
    x = RNG.standard_normal((3, 5, 2))
    node = helper.make_node("DFT", ["x", "", "axis"], ["y"], onesided=0)
    check_both(node, {"x": x}, {"axis": np.array(-2, np.int64)}, cache, opset=20, rtol=1e-10)


@pytest.mark.parametrize("window", [True, False])
def test_stft(window: bool, cache: Path) -> None:
    x = RNG.standard_normal((2, 20, 1)).astype(np.float32)
    consts = {"step": np.array(3, np.int64)}
    if window:
        consts["w"] = np.hanning(6).astype(np.float32)
    else:
        consts["len"] = np.array(6, np.int64)
    names = ["x", "step", "w" if window else "", "" if window else "len"]
    check_both(helper.make_node("STFT", names, ["y"]), {"x": x}, consts, cache, opset=17, rtol=1e-4)


def test_dft_refuses_the_complex_axis() -> None:
    node = helper.make_node("DFT", ["x"], ["y"], axis=2, name="d")
    x = np.zeros((1, 4, 2), np.float32)
    with pytest.raises(OnnxImportError, match=r"node 'd' \(DFT\): axis 2 is out of range"):
        from_onnx(node_model(node, {"x": x}, {}, 17))
