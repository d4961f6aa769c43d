"""The families of `inference_families.py` written with `onnx.helper` for onnxruntime.

Opset 17 (`LayerNormalization`; `Clip` takes its bounds as inputs), the same numpy weights
as initializers, input `x`, output `y`: the same graph node for node as the relay builder.
"""

from __future__ import annotations

import importlib
from typing import Any, cast

import numpy as np
from inference_families import (
    FAMILY_SHAPES,
    HEADS,
    HIDDEN,
    MLP_LAYERS,
    MOBILENET_BLOCKS,
    RESNET_BLOCKS,
    SEQ,
    VGG_STAGES,
    Weights,
)


class _Nodes:
    """Nodes and extra initializers of one graph; `node` returns a fresh output name."""

    def __init__(self, p: Weights) -> None:
        self.p = p
        self.nodes: list[tuple[str, list[str], str, dict[str, Any]]] = []
        self.extra: dict[str, Any] = {}
        self.count = 0

    def node(self, op: str, inputs: list[str], out: str = "", **attrs: Any) -> str:
        self.count += 1
        out = out or f"t{self.count}"
        self.nodes.append((op, inputs, out, attrs))
        return out

    def const(self, name: str, value: Any) -> str:
        self.extra[name] = np.asarray(value, dtype=np.float32)
        return name

    def shape(self, name: str, dims: tuple[int, ...]) -> str:
        self.extra[name] = np.asarray(dims, dtype=np.int64)
        return name

    def conv(self, x: str, name: str, stride: int = 1, groups: int = 1) -> str:
        k = self.p[name].shape[2]
        pads = [k // 2] * 4
        return self.node(
            "Conv", [x, name, f"{name}.b"], strides=[stride, stride], pads=pads, group=groups
        )

    def dense(self, x: str, name: str) -> str:
        return self.node("Gemm", [x, name, f"{name}.b"], transB=1)

    def relu6(self, x: str) -> str:
        return self.node("Clip", [x, self.const("zero", 0.0), self.const("six", 6.0)])


def _mobilenet(g: _Nodes) -> str:
    y = "x"
    for b, (_, stride, residual) in enumerate(MOBILENET_BLOCKS):
        mid = g.p[f"b{b}.dw"].shape[0]
        h = g.relu6(g.conv(y, f"b{b}.expand"))
        h = g.relu6(g.conv(h, f"b{b}.dw", stride=stride, groups=mid))
        h = g.conv(h, f"b{b}.project")
        y = g.node("Add", [h, y]) if residual else h
    return y


def _resnet(g: _Nodes) -> str:
    y = "x"
    for b in range(RESNET_BLOCKS):
        h = g.node("Relu", [g.conv(y, f"b{b}.reduce")])
        h = g.node("Relu", [g.conv(h, f"b{b}.conv")])
        y = g.node("Relu", [g.node("Add", [g.conv(h, f"b{b}.expand"), y])])
    return y


def _vgg(g: _Nodes) -> str:
    y = "x"
    for s, stage in enumerate(VGG_STAGES):
        for i in range(len(stage)):
            y = g.node("Relu", [g.conv(y, f"s{s}.c{i}")])
        y = g.node("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2])
    return y


def _transformer(g: _Nodes) -> str:
    head = HIDDEN // HEADS
    split_shape = g.shape("split_shape", (SEQ, HEADS, head))
    merge_shape = g.shape("merge_shape", (SEQ, HIDDEN))

    def split(y: str) -> str:
        return g.node("Transpose", [g.node("Reshape", [y, split_shape])], perm=[1, 0, 2])

    q, k, v = (split(g.dense("x", name)) for name in ("q", "k", "v"))
    kt = g.node("Transpose", [k], perm=[0, 2, 1])
    scores = g.node("Mul", [g.node("MatMul", [q, kt]), g.const("scale", head**-0.5)])
    attention = g.node("Softmax", [scores], axis=-1)
    context = g.node("Transpose", [g.node("MatMul", [attention, v])], perm=[1, 0, 2])
    context = g.node("Reshape", [context, merge_shape])
    y = g.node("Add", [g.dense(context, "o"), "x"])
    y = g.node("LayerNormalization", [y, "ln1.g", "ln1.b"], axis=-1, epsilon=1e-5)
    inner = g.dense(y, "ffn1")
    erf = g.node("Erf", [g.node("Mul", [inner, g.const("root_half", 2**-0.5)])])
    half = g.node("Mul", [inner, g.const("half", 0.5)])
    gelu = g.node("Mul", [half, g.node("Add", [erf, g.const("one", 1.0)])])
    y = g.node("Add", [g.dense(gelu, "ffn2"), y])
    return g.node("LayerNormalization", [y, "ln2.g", "ln2.b"], axis=-1, epsilon=1e-5)


def _mlp(g: _Nodes) -> str:
    y = "x"
    layers = len(MLP_LAYERS) - 1
    for i in range(layers):
        y = g.dense(y, f"fc{i}")
        y = g.node("Relu", [y]) if i < layers - 1 else y
    return y


_BODIES = {
    "mobilenet": _mobilenet,
    "resnet": _resnet,
    "vgg": _vgg,
    "transformer": _transformer,
    "mlp": _mlp,
}


def family_onnx(name: str, p: Weights) -> bytes:
    """Family `name` over the weights `p` as a serialized ONNX model (opset 17)."""
    onnx: Any = importlib.import_module("onnx")
    helper, f32 = onnx.helper, onnx.TensorProto.FLOAT
    g = _Nodes(p)
    last = _BODIES[name](g)
    op, inputs, _, attrs = g.nodes[-1]
    assert g.nodes[-1][2] == last
    g.nodes[-1] = (op, inputs, "y", attrs)
    inits = {**p, **g.extra}
    graph = helper.make_graph(
        [helper.make_node(op, ins, [out], **attrs) for op, ins, out, attrs in g.nodes],
        name,
        [helper.make_tensor_value_info("x", f32, list(FAMILY_SHAPES[name][0]))],
        [helper.make_tensor_value_info("y", f32, list(FAMILY_SHAPES[name][1]))],
        [onnx.numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    proto.ir_version = 8  # what opset 17 needs; older onnxruntimes refuse newer IR versions
    onnx.checker.check_model(proto)
    return cast(bytes, proto.SerializeToString())
