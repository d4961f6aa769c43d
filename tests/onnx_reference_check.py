"""Run a one-node ONNX model on xrelay (interpreter and `c`) and compare with onnx.reference.

Shared by the converter tests (`tests/test_onnx_<family>.py`): `check` builds
the model with `onnx.helper`, initializers frozen as constants, and asserts
every output equal in dtype, shape and value (or close, with `rtol`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import xrelay
from xrelay.relay.frontend import from_onnx

Array = np.ndarray[Any, Any]


def cache_fixture(name: str) -> Any:
    """A module-scoped build cache fixture."""

    @pytest.fixture(scope="module")
    def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return tmp_path_factory.mktemp(name)

    return cache


def check(
    node: onnx.NodeProto,
    inputs: dict[str, Array],
    consts: dict[str, Array],
    cache: Path,
    opset: int = 21,
    rtol: float = 0.0,
) -> None:
    """`node` with graph inputs `inputs` and initializers `consts`, as ONNX's reference."""
    ref_model = model_of(node, inputs, consts, opset)
    want = ReferenceEvaluator(ref_model).run(None, inputs)
    mod, params = from_onnx(ref_model, freeze_params=True)
    assert params == {}
    got_i = xrelay.evaluate(mod, *inputs.values())
    got_c = xrelay.build(mod, target="c", options={"cache_dir": cache})(*inputs.values())
    for got in (got_i, got_c):
        got_list = list(got) if isinstance(got, tuple | list) else [got]
        assert len(got_list) == len(want)
        for g, w in zip(got_list, want, strict=True):
            g = np.asarray(g)
            assert g.dtype == w.dtype
            if rtol:
                np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)
            else:
                np.testing.assert_array_equal(g, w)


def model_of(
    node: onnx.NodeProto, inputs: dict[str, Array], consts: dict[str, Array], opset: int
) -> onnx.ModelProto:
    def info(name: str, value: Array) -> onnx.ValueInfoProto:
        elem = helper.np_dtype_to_tensor_dtype(value.dtype)
        return helper.make_tensor_value_info(name, elem, list(value.shape))

    inits = [numpy_helper.from_array(v, k) for k, v in consts.items()]
    outputs = [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in node.output]
    graph = helper.make_graph([node], "g", [info(k, v) for k, v in inputs.items()], outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
