"""The host GEMM's epilogue fusion and packed constant weights (issue 16), against onnxruntime.

    python benchmarks/gemm_epilogue.py [--rounds 30] [--targets c accel,c]

The MLP 784-512-512-10 at batch 64 (dense + bias + relu) and a transformer encoder block
(seq 128, hidden 256, 4 heads, FFN 1024, erf GELU, residuals, post layer norm; as
`dnnl_families.encoder_block`), built with the Python builder and as ONNX models from the
same weights. Each xrelay target is built three ways: `base` (no epilogue fusion, the
weights packed per call: main before this work), `fused` (epilogue fusion) and
`fused+packed` (and the constant weights packed once). Every runner is timed interleaved in
one process on 1 thread (warm-up, then `--rounds` rounds; medians), outputs checked against
the interpreter within 1e-4 of the largest magnitude; prints each median and its ratio to
onnxruntime. Not a test: nothing is asserted on times.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import numpy as np
from xrelay.codegen.c import epilogue, kernels_gemm

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Model = tuple[IRModule, bytes, Array]
"""A case: its relay module, the same model in ONNX, its input."""


def _weights(rng: np.random.Generator, *shape: int) -> Array:
    return (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype("float32")


def mlp() -> Model:
    """MLP 784-512-512-10, batch 64."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    dims = (784, 512, 512, 10)
    x = relay.var("x", shape=(64, dims[0]), dtype="float32")
    h: relay.Expr = x
    nodes: list[Any] = []
    inits: list[Any] = []
    name = "x"
    for n in range(3):
        w, b = _weights(rng, dims[n + 1], dims[n]), _weights(rng, dims[n + 1])
        h = relay.nn.bias_add(relay.nn.dense(h, relay.const(w)), relay.const(b))
        inits += [numpy_helper.from_array(w, f"w{n}"), numpy_helper.from_array(b, f"b{n}")]
        out = "y" if n == 2 else f"g{n}"
        nodes.append(helper.make_node("Gemm", [name, f"w{n}", f"b{n}"], [out], transB=1))
        if n < 2:
            h = relay.nn.relu(h)
            nodes.append(helper.make_node("Relu", [out], [f"r{n}"]))
            out = f"r{n}"
        name = out
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64, dims[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits,
    )
    onnx_bytes = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    data = rng.standard_normal((64, dims[0])).astype("float32")
    return IRModule.from_expr(relay.Function([x], h)), onnx_bytes.SerializeToString(), data


def encoder(seq: int = 128, hidden: int = 256, heads: int = 4, ffn: int = 1024) -> Model:
    """The encoder block of `dnnl_families.encoder_block`, with its ONNX twin."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(1)
    head = hidden // heads
    x = relay.var("x", shape=(seq, hidden), dtype="float32")
    nodes: list[Any] = []
    inits: list[Any] = []

    def init(name: str, value: Array) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    def node(op: str, ins: list[str], **attrs: Any) -> str:
        out = f"t{len(nodes)}"
        nodes.append(helper.make_node(op, ins, [out], **attrs))
        return out

    def dense(y: tuple[relay.Expr, str], units: int, depth: int) -> tuple[relay.Expr, str]:
        w, b = _weights(rng, units, depth), _weights(rng, units)
        k = len(inits)
        onnx = node("Add", [node("MatMul", [y[1], init(f"w{k}", w.T.copy())]), init(f"b{k}", b)])
        return relay.nn.bias_add(relay.nn.dense(y[0], relay.const(w)), relay.const(b)), onnx

    def split(y: tuple[relay.Expr, str], perm: tuple[int, int, int]) -> tuple[relay.Expr, str]:
        shape = init(f"s{len(inits)}", np.array([seq, heads, head], np.int64))
        r = relay.transpose(relay.reshape(y[0], (seq, heads, head)), perm)
        return r, node("Transpose", [node("Reshape", [y[1], shape])], perm=list(perm))

    def norm(y: tuple[relay.Expr, str]) -> tuple[relay.Expr, str]:
        gamma = (1 + rng.standard_normal(hidden) * 0.1).astype("float32")
        beta = _weights(rng, hidden)
        k = len(inits)
        r = relay.nn.layer_norm(y[0], relay.const(gamma), relay.const(beta))
        onnx = node("LayerNormalization", [y[1], init(f"g{k}", gamma), init(f"e{k}", beta)])
        return r, onnx

    def add(a: tuple[relay.Expr, str], b: tuple[relay.Expr, str]) -> tuple[relay.Expr, str]:
        return relay.add(a[0], b[0]), node("Add", [a[1], b[1]])

    xs = (x, "x")
    q = split(dense(xs, hidden, hidden), (1, 0, 2))
    k_ = split(dense(xs, hidden, hidden), (1, 2, 0))  # k transposed for q @ k.T
    v = split(dense(xs, hidden, hidden), (1, 0, 2))
    scale = np.float32(head**-0.5)
    scores_r = relay.multiply(
        relay.nn.batch_matmul(q[0], relay.transpose(k_[0], (0, 2, 1))), relay.const(scale)
    )
    scores_o = node("Mul", [node("MatMul", [q[1], k_[1]]), init("scale", np.array(scale))])
    att_r = relay.nn.softmax(scores_r)
    att_o = node("Softmax", [scores_o], axis=-1)
    ctx_r = relay.nn.batch_matmul(att_r, relay.transpose(v[0], (0, 2, 1)))
    ctx_o = node("MatMul", [att_o, v[1]])
    ctx_r = relay.reshape(relay.transpose(ctx_r, (1, 0, 2)), (seq, hidden))
    flat = init("flat", np.array([seq, hidden], np.int64))
    ctx_o = node("Reshape", [node("Transpose", [ctx_o], perm=[1, 0, 2]), flat])
    y = norm(add(dense((ctx_r, ctx_o), hidden, hidden), xs))
    inner = dense(y, ffn, hidden)
    half, root, one = np.float32(0.5), np.float32(2**-0.5), np.float32(1.0)
    gelu_r = relay.multiply(
        relay.multiply(inner[0], relay.const(half)),
        relay.add(relay.erf(relay.multiply(inner[0], relay.const(root))), relay.const(one)),
    )
    h_o = node("Mul", [inner[1], init("half", np.array(half))])
    e_o = node("Erf", [node("Mul", [inner[1], init("root", np.array(root))])])
    gelu_o = node("Mul", [h_o, node("Add", [e_o, init("one", np.array(one))])])
    out = norm(add(dense((gelu_r, gelu_o), hidden, ffn), y))
    nodes[-1].output[0] = "y"
    graph = helper.make_graph(
        nodes,
        "encoder",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [seq, hidden])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    data = rng.standard_normal((seq, hidden)).astype("float32")
    return IRModule.from_expr(relay.Function([x], out[0])), model.SerializeToString(), data


@contextmanager
def variant(fuse: bool, pack: bool) -> Any:
    """Build with or without epilogue fusion and packed constant weights."""
    saved = dict(epilogue.EPILOGUE_PRODUCERS)
    if not fuse:
        for name in ("relay.nn.dense", "relay.matmul", "relay.nn.batch_matmul"):
            epilogue.EPILOGUE_PRODUCERS.pop(name, None)
    kernels_gemm.PACK_CONSTANT_WEIGHTS = pack
    try:
        yield
    finally:
        epilogue.EPILOGUE_PRODUCERS.clear()
        epilogue.EPILOGUE_PRODUCERS.update(saved)
        kernels_gemm.PACK_CONSTANT_WEIGHTS = True


VARIANTS = {"base": (False, False), "fused": (True, False), "fused+packed": (True, True)}


def runners(model: Model, targets: list[str]) -> dict[str, Callable[[], Any]]:
    """name -> a call running the model on its input (checked against the interpreter)."""
    mod, onnx_bytes, data = model
    want = np.asarray(xrelay.evaluate(mod, data))
    out: dict[str, Callable[[], Any]] = {}
    for target in targets:
        for label, (fuse, pack) in VARIANTS.items():
            with variant(fuse, pack):
                options = {"cache_dir": tempfile.mkdtemp(), "num_threads": 1}
                lib = xrelay.build(mod, target=target.split(","), options=options)
            got = np.asarray(lib(data))
            error = float(np.max(np.abs(got.astype(np.float64) - want)))
            assert error <= 1e-4 * max(1.0, float(np.max(np.abs(want)))), (target, label, error)
            out[f"{target} {label}"] = lambda lib=lib: lib(data)
    ort: Any = importlib.import_module("onnxruntime")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(onnx_bytes, options, providers=["CPUExecutionProvider"])
    got = session.run(None, {"x": data})[0]
    assert float(np.max(np.abs(got - want))) <= 1e-4 * max(1.0, float(np.max(np.abs(want))))
    out["onnxruntime"] = lambda: session.run(None, {"x": data})
    return out


def main() -> None:
    """Build, check, time and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--targets", nargs="+", default=["c", "accel,c"])
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    for name, make in (("MLP 784-512-512-10 b64", mlp), ("encoder block", encoder)):
        calls = runners(make(), args.targets)
        times: dict[str, list[float]] = {k: [] for k in calls}
        for call in calls.values():
            for _ in range(3):
                call()
        for _ in range(args.rounds):
            for key, call in calls.items():
                start = time.perf_counter()
                call()
                times[key].append(time.perf_counter() - start)
        base = statistics.median(times["onnxruntime"])
        print(f"{name}:")
        for key, values in times.items():
            median = statistics.median(values)
            print(f"  {key:24s} {median * 1e3:8.3f} ms  {median / base:6.2f}x onnxruntime")


if __name__ == "__main__":
    main()
