"""ONNX window and mel-filter generators fold at import; compared with onnx.reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper
from testlib.onnx_reference import check_both, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx


@pytest.mark.parametrize("op", ["HannWindow", "HammingWindow", "BlackmanWindow"])
@pytest.mark.parametrize("periodic", [0, 1])
def test_windows_fold_to_the_reference(op: str, periodic: int, cache: Path) -> None:
    node = helper.make_node(op, ["n"], ["y"], periodic=periodic)
    check_both(node, {}, {"n": np.array(10, np.int64)}, cache, opset=17, rtol=1e-6)


def test_window_output_datatype_and_folding(cache: Path) -> None:
    node = helper.make_node("HannWindow", ["n"], ["y"], output_datatype=TensorProto.DOUBLE)
    check_both(node, {}, {"n": np.array(7, np.int32)}, cache, opset=17, rtol=1e-12)
    mod, _ = from_onnx(node_model(node, {}, {"n": np.array(7, np.int32)}, 17))
    assert "relay.cos" not in str(mod)  # a constant, nothing computed at run


def test_mel_weight_matrix(cache: Path) -> None:
    node = helper.make_node("MelWeightMatrix", ["bins", "dft", "rate", "lo", "hi"], ["y"])
    consts = {
        "bins": np.array(8, np.int64),
        "dft": np.array(64, np.int64),
        "rate": np.array(8000, np.int64),
        "lo": np.array(0.0, np.float32),
        "hi": np.array(4000.0, np.float32),
    }
    check_both(node, {}, consts, cache, opset=17, rtol=1e-6)


def test_window_size_unknown_at_import_is_refused() -> None:
    node = helper.make_node("HannWindow", ["n"], ["y"], name="w")
    model = node_model(node, {"n": np.array(4, np.int64)}, {}, 17)
    with pytest.raises(OnnxImportError, match=r"'w' \(HannWindow\): the window size"):
        from_onnx(model)
