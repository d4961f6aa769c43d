"""Small ONNX models for the xrelay-translate lit tests, written with `onnx.helper`.

    python onnx_models.py NAME OUT.onnx     # NAME: fc, unsupported, custom_domain, truncated
    python onnx_models.py ones OUT.npy SHAPE  # an all-ones float32 input, SHAPE like 1x6
    python onnx_models.py light NAME OUT.onnx  # a copy of the onnx package's light_NAME.onnx
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _model(nodes: list[onnx.NodeProto], initializers: list[onnx.TensorProto]) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def fc() -> onnx.ModelProto:
    """y = relu(x @ W.T + b): W = arange(24) / 8 as 4x6 (a resource), b = ones (a splat)."""
    weight = numpy_helper.from_array(np.arange(24, dtype=np.float32).reshape(4, 6) / 8, "fc.weight")
    bias = numpy_helper.from_array(np.ones(4, np.float32), "fc.bias")
    nodes = [
        helper.make_node("Gemm", ["x", "fc.weight", "fc.bias"], ["h"], transB=1, name="fc"),
        helper.make_node("Relu", ["h"], ["y"], name="relu"),
    ]
    return _model(nodes, [weight, bias])


def unsupported() -> onnx.ModelProto:
    """Two nodes of an op type no importer knows, and one of another."""
    nodes = [
        helper.make_node("FrobnicateA", ["x"], ["a"], name="first"),
        helper.make_node("FrobnicateA", ["a"], ["b"], name="second"),
        helper.make_node("FrobnicateB", ["b"], ["y"], name="third"),
    ]
    return _model(nodes, [])


def custom_domain() -> onnx.ModelProto:
    """A node of a custom operator domain."""
    model = _model([helper.make_node("Relu", ["x"], ["y"], name="mine", domain="com.example")], [])
    model.opset_import.append(helper.make_opsetid("com.example", 1))
    return model


def main() -> None:
    name, out = sys.argv[1], sys.argv[2]
    if name == "ones":
        np.save(out, np.ones([int(d) for d in sys.argv[3].split("x")], np.float32))
        return
    if name == "light":
        light = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
        shutil.copy(light / f"light_{sys.argv[2]}.onnx", sys.argv[3])
        return
    if name == "truncated":
        with open(out, "wb") as stream:
            stream.write(fc().SerializeToString()[:40])
        return
    onnx.save({"fc": fc, "unsupported": unsupported, "custom_domain": custom_domain}[name](), out)


if __name__ == "__main__":
    main()
