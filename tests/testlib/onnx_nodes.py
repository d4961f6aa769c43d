"""One ONNX node run by xrelay and by ONNX's ReferenceEvaluator, outputs compared."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import xrelay
from xrelay.relay.frontend import from_onnx

Array = npt.NDArray[Any]


def node_model(node: onnx.NodeProto, inputs: Mapping[str, Array], opset: int) -> onnx.ModelProto:
    """A model of `node` alone: `inputs` (in order) as graph inputs, its outputs untyped."""
    graph = helper.make_graph(
        [node],
        "g",
        [
            helper.make_tensor_value_info(
                name, helper.np_dtype_to_tensor_dtype(value.dtype), value.shape
            )
            for name, value in inputs.items()
        ],
        [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in node.output if o],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def check_node(
    node: onnx.NodeProto,
    inputs: Mapping[str, Array],
    opset: int,
    target: str | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> Sequence[Array]:
    """Run `node` on xrelay (the interpreter, or `target` built) and on ONNX's reference.

    Asserts every output matches (dtype, shape and values) and returns xrelay's.
    """
    model = node_model(node, inputs, opset)
    expected = ReferenceEvaluator(model).run(None, dict(inputs))
    mod, params = from_onnx(model)
    assert params == {}
    args = list(inputs.values())
    got: Any = (
        xrelay.evaluate(mod, *args) if target is None else xrelay.build(mod, target=target)(*args)
    )
    outputs: list[Array] = list(got) if isinstance(got, tuple | list) else [got]
    assert len(outputs) == len(expected)
    for out, ref in zip(outputs, expected, strict=True):
        ref_array = np.asarray(ref)
        assert out.dtype == ref_array.dtype
        assert out.shape == ref_array.shape
        np.testing.assert_allclose(out, ref_array, rtol=rtol, atol=atol)
    return outputs
