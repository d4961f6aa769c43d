"""Small ONNX models for converter tests, checked against `onnx.reference.ReferenceEvaluator`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import xrelay
from xrelay.relay.frontend import from_onnx

Array = np.ndarray[Any, Any]


def node_model(
    node: onnx.NodeProto,
    inputs: dict[str, Array],
    initializers: dict[str, Array] | None = None,
    opset: int = 18,
) -> onnx.ModelProto:
    """A one-node model: `inputs` are graph inputs (shapes and dtypes from the arrays),
    `initializers` constant inputs; the outputs' types are left to inference."""
    graph_inputs = [
        helper.make_tensor_value_info(
            name, helper.np_dtype_to_tensor_dtype(value.dtype), list(value.shape)
        )
        for name, value in inputs.items()
    ]
    inits = [numpy_helper.from_array(v, n) for n, v in (initializers or {}).items()]
    outputs = [helper.make_empty_tensor_value_info(name) for name in node.output if name]
    graph = helper.make_graph([node], "g", graph_inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def check_node(
    node: onnx.NodeProto,
    inputs: dict[str, Array],
    initializers: dict[str, Array] | None = None,
    opset: int = 18,
    target: str | None = None,
    reference: onnx.NodeProto | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    optimize: bool = True,
    freeze_params: bool = False,
    cache_dir: Path | None = None,
) -> list[Array]:
    """Import the one-node model, run it (interpreter, or `xrelay.build` for `target`,
    optimized or not) and assert every output equals the ONNX reference's (dtype, shape,
    values within `rtol`/`atol`) for `node`, or for `reference` (an equivalent node the
    reference evaluator implements); return them. `freeze_params` makes the initializers
    constants (converters that need their values at import)."""
    model = node_model(node, inputs, initializers, opset)
    oracle = model if reference is None else node_model(reference, inputs, initializers)
    want = [np.asarray(w) for w in ReferenceEvaluator(oracle).run(None, inputs)]
    mod, params = from_onnx(model, freeze_params=freeze_params)
    args = [*inputs.values(), *params.values()]
    if target is None:
        result = xrelay.evaluate(mod, *args)
    else:
        options = {"optimize": optimize, "cache_dir": cache_dir}
        result = xrelay.build(mod, target=target, options=options)(*args)
    got = [np.asarray(g) for g in (result if isinstance(result, tuple | list) else [result])]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
    return got


def check_both(
    node: onnx.NodeProto,
    inputs: dict[str, Array],
    consts: dict[str, Array],
    cache: Path,
    opset: int = 21,
    rtol: float = 0.0,
) -> None:
    """`check_node` on the interpreter and on target `c` (build cache `cache`), the
    initializers `consts` frozen; equal within `rtol` (relative and absolute; 0: exactly)."""
    for target in (None, "c"):
        check_node(
            node,
            inputs,
            consts,
            opset,
            target,
            rtol=rtol,
            atol=rtol,
            freeze_params=True,
            cache_dir=cache,
        )
