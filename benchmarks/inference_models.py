"""tinyres and the wide MLP of `inference.py`, each written four ways from the same numpy weights.

(Issue 16's families are in `inference_families.py`, the ONNX light models in
`inference_cases.py`.)

- tinyres (`examples/tinyres.py` itself for xrelay; weights drawn from
  `default_rng(0)` in that builder's order) and a dense-heavy MLP, `mlp-4096`
  (1x1024 -> 4096 -> 4096 -> 1000, bias and relu between, weights from
  `default_rng(1)`, built here with the xrelay builder);
- `numpy_forward`: im2col + matmul (float32: the numpy runner; float64: the
  reference every runner's output is checked against);
- `onnx_model`: the same graph written with `onnx.helper` (opset 17) for onnxruntime;
- `flop_breakdown`: 2 x MACs of every conv2d, dense, matmul and batch_matmul of a module.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import SSAValue

from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Weights = dict[str, Array]
ROOT = Path(__file__).resolve().parents[1]
MLP_DIMS = (1024, 4096, 4096, 1000)
TINYRES_FLOPS = {224: 623_386_624, 32: 12_722_176}
"""tinyres's FLOPs (perf-anchors.md) by input size: `flop_breakdown` must agree."""


def tinyres_weights(size: int) -> Weights:
    """tinyres's weights, drawn from default_rng(0) in `examples/tinyres.py`'s order."""
    rng = np.random.default_rng(0)
    p: Weights = {}

    def conv(name: str, cin: int, cout: int) -> None:
        p[f"{name}.w"] = (rng.standard_normal((cout, cin, 3, 3)) * 0.1).astype("float32")
        p[f"{name}.b"] = (rng.standard_normal(cout) * 0.1).astype("float32")

    conv("conv0", 3, 16)
    p["bn.gamma"] = rng.random(16).astype("float32") + 0.5
    p["bn.beta"] = rng.standard_normal(16).astype("float32") * 0.1
    p["bn.mean"] = rng.standard_normal(16).astype("float32") * 0.1
    p["bn.var"] = rng.random(16).astype("float32") + 0.5
    conv("conv1", 16, 16)
    conv("conv2", 16, 16)
    conv("conv3", 16, 32)
    features = 32 * (size // 4) ** 2
    p["dense.w"] = (rng.standard_normal((10, features)) * 0.05).astype("float32")
    p["dense.b"] = (rng.standard_normal(10) * 0.1).astype("float32")
    return p


def mlp_weights() -> Weights:
    """The MLP's dense weights (units x in, scaled by 1/sqrt(in)) and biases."""
    rng = np.random.default_rng(1)
    p: Weights = {}
    for i, (cin, cout) in enumerate(itertools.pairwise(MLP_DIMS)):
        w = rng.standard_normal((cout, cin), dtype=np.float32) * np.float32(1 / math.sqrt(cin))
        p[f"fc{i}.w"], p[f"fc{i}.b"] = w, rng.standard_normal(cout, dtype=np.float32) * 0.1
    return p


def weights_of(model: str, size: int) -> Weights:
    """The numpy weights of a case."""
    return tinyres_weights(size) if model == "tinyres" else mlp_weights()


def relay_model(model: str, size: int) -> IRModule:
    """tinyres from `examples/tinyres.py` itself, or the MLP with the xrelay builder."""
    if model == "tinyres":
        spec = importlib.util.spec_from_file_location("tinyres", ROOT / "examples" / "tinyres.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return cast(Callable[[int], IRModule], module.tinyres)(size)
    p = mlp_weights()
    x = relay.var("x", shape=(1, MLP_DIMS[0]))
    y: relay.Expr = x
    for i, units in enumerate(MLP_DIMS[1:]):
        dense = relay.nn.dense(y, relay.const(p[f"fc{i}.w"]), units=units)
        y = relay.nn.bias_add(dense, relay.const(p[f"fc{i}.b"]))
        y = relay.nn.relu(y) if i < len(MLP_DIMS) - 2 else y
    return IRModule.from_expr(relay.Function([x], y))


# --- numpy: the runner (float32) and the reference (float64) ------------------------------------


def numpy_params(model: str, p: Weights, dtype: type[np.floating[Any]]) -> Weights:
    """Weights for `numpy_forward`: batch norm folded into conv0, conv weights as matrices."""
    q = {k: v.astype(dtype) for k, v in p.items()}
    if model == "tinyres":
        scale = q["bn.gamma"] / np.sqrt(q["bn.var"] + dtype(1e-5))
        q["conv0.w"] = q["conv0.w"] * scale[:, None, None, None]
        q["conv0.b"] = (q["conv0.b"] - q["bn.mean"]) * scale + q["bn.beta"]
        for name in ("conv0", "conv1", "conv2", "conv3"):
            q[f"{name}.w"] = np.ascontiguousarray(q[f"{name}.w"].reshape(q[f"{name}.b"].size, -1))
    return q


def _conv3x3(x: Array, w: Array, b: Array) -> Array:
    """3x3 convolution, padding 1, of one CHW image: im2col, then one matmul."""
    c, h, wd = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    cols = np.empty((c, 3, 3, h, wd), x.dtype)
    for ky in range(3):
        for kx in range(3):
            cols[:, ky, kx] = padded[:, ky : ky + h, kx : kx + wd]
    y = w @ cols.reshape(c * 9, h * wd)
    y += b[:, None]
    return y.reshape(-1, h, wd)


def _pool(x: Array) -> Array:
    c, h, w = x.shape
    return x.reshape(c, h // 2, 2, w // 2, 2).max(axis=(2, 4))


def numpy_forward(model: str, q: Weights, x: Array) -> Array:
    """The model's forward pass on `numpy_params` (batch 1)."""
    if model == "mlp-4096":
        y = x
        for i in range(len(MLP_DIMS) - 1):
            y = y @ q[f"fc{i}.w"].T + q[f"fc{i}.b"]
            y = np.maximum(y, 0) if i < len(MLP_DIMS) - 2 else y
        return y
    y = np.maximum(_conv3x3(x[0], q["conv0.w"], q["conv0.b"]), 0)
    block = np.maximum(_conv3x3(y, q["conv1.w"], q["conv1.b"]), 0)
    y = _pool(np.maximum(_conv3x3(block, q["conv2.w"], q["conv2.b"]) + y, 0))
    y = _pool(np.maximum(_conv3x3(y, q["conv3.w"], q["conv3.b"]), 0)).reshape(1, -1)
    logits = y @ q["dense.w"].T + q["dense.b"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# --- onnx ---------------------------------------------------------------------------------------


def onnx_model(model: str, size: int, p: Weights) -> bytes:
    """The case as a serialized ONNX model (opset 17), weights as initializers."""
    onnx: Any = importlib.import_module("onnx")
    helper, f32 = onnx.helper, onnx.TensorProto.FLOAT
    nodes: list[tuple[str, list[str], str, dict[str, Any]]] = []
    if model == "mlp-4096":
        layers = len(MLP_DIMS) - 1
        for i in range(layers):
            out = "y" if i == layers - 1 else f"g{i}"
            nodes.append(("Gemm", [f"h{i}", f"fc{i}.w", f"fc{i}.b"], out, {"transB": 1}))
            if i < layers - 1:
                nodes.append(("Relu", [out], f"h{i + 1}", {}))
        shapes = [1, MLP_DIMS[0]], [1, MLP_DIMS[-1]]
        first = "h0"
    else:
        conv: dict[str, Any] = {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}
        pool: dict[str, Any] = {"kernel_shape": [2, 2], "strides": [2, 2]}
        bn = ["bn.gamma", "bn.beta", "bn.mean", "bn.var"]
        nodes += [
            ("Conv", ["x", "conv0.w", "conv0.b"], "c0", conv),
            ("BatchNormalization", ["c0", *bn], "n0", {"epsilon": 1e-5}),
            ("Relu", ["n0"], "r0", {}),
            ("Conv", ["r0", "conv1.w", "conv1.b"], "c1", conv),
            ("Relu", ["c1"], "r1", {}),
            ("Conv", ["r1", "conv2.w", "conv2.b"], "c2", conv),
            ("Add", ["c2", "r0"], "a2", {}),
            ("Relu", ["a2"], "r2", {}),
            ("MaxPool", ["r2"], "p2", pool),
            ("Conv", ["p2", "conv3.w", "conv3.b"], "c3", conv),
            ("Relu", ["c3"], "r3", {}),
            ("MaxPool", ["r3"], "p3", pool),
            ("Flatten", ["p3"], "f", {"axis": 1}),
            ("Gemm", ["f", "dense.w", "dense.b"], "g", {"transB": 1}),
            ("Softmax", ["g"], "y", {"axis": 1}),
        ]
        shapes, first = ([1, 3, size, size], [1, 10]), "x"
    graph = helper.make_graph(
        [helper.make_node(op, ins, [out], **attrs) for op, ins, out, attrs in nodes],
        model,
        [helper.make_tensor_value_info(first, f32, shapes[0])],
        [helper.make_tensor_value_info("y", f32, shapes[1])],
        [onnx.numpy_helper.from_array(v, name) for name, v in p.items()],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    proto.ir_version = 8  # what opset 17 needs; older onnxruntimes refuse newer IR versions
    onnx.checker.check_model(proto)
    return cast(bytes, proto.SerializeToString())


# --- FLOPs --------------------------------------------------------------------------------------


def _shape(value: SSAValue) -> tuple[int, ...]:
    type_ = value.type
    assert isinstance(type_, TensorType)
    return tuple(type_.get_shape())


def flop_breakdown(mod: IRModule) -> dict[str, list[int]]:
    """label -> [calls, FLOPs]: 2 x MACs of each conv2d (NCHW/OIHW), dense, matmul and
    batch_matmul, by shape;
    the other relay ops in one row `other: op xN, ...` with 0 FLOPs."""
    rows: dict[str, list[int]] = {}
    others: dict[str, int] = {}
    for op in mod.module.walk():
        if op.name in ("relay.nn.conv2d", "relay.nn.dense"):
            out, w = _shape(op.results[0]), _shape(op.operands[1])
            if op.name == "relay.nn.conv2d":
                cin = _shape(op.operands[0])[1]
                groups = f" /{cin // w[1]} groups" if cin != w[1] else ""
                label = f"conv2d {cin}→{w[0]}{groups} {w[2]}x{w[3]} @{out[2]}x{out[3]}"
            else:
                label = f"dense {w[1]}→{w[0]}"
            row = rows.setdefault(label, [0, 0])
            row[0], row[1] = row[0] + 1, row[1] + 2 * math.prod(out) * math.prod(w[1:])
        elif op.name in ("relay.nn.batch_matmul", "relay.matmul"):
            out, a = _shape(op.results[0]), _shape(op.operands[0])
            flag = op.properties.get("transpose_a")
            depth = a[-2] if isinstance(flag, IntegerAttr) and flag.value.data else a[-1]
            label = f"{op.name.removeprefix('relay.').removeprefix('nn.')} {a} → {out}"
            row = rows.setdefault(label, [0, 0])
            row[0], row[1] = row[0] + 1, row[1] + 2 * math.prod(out) * depth
        elif op.name.startswith("relay.") and op.name not in (
            "relay.constant",
            "relay.tuple_get_item",
        ):
            name = op.name.removeprefix("relay.").removeprefix("nn.")
            others[name] = others.get(name, 0) + 1
    if others:
        label = "other: " + ", ".join(f"{name} x{n}" for name, n in others.items())
        rows[label] = [sum(others.values()), 0]
    return rows
