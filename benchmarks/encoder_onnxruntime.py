"""The transformer encoder block of issue 16 on xrelay's targets against onnxruntime, 1 thread.

Seq 128, hidden 256, 4 heads, FFN 1024, GELU by erf (as PyTorch exports it), post-norm; the
same seeded weights for the relay module (the Python builder) and the ONNX model
(`onnx.helper`, opset 17). Each runner is checked against the float64 interpreter, then
timed interleaved in one process (`--rounds` rounds of `--calls` calls each); medians:

    OMP_NUM_THREADS=1 python benchmarks/encoder_onnxruntime.py [--targets dnnl,c accel,c]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
SEQ, HIDDEN, HEADS, FFN = 128, 256, 4, 1024
HEAD = HIDDEN // HEADS


def weights() -> dict[str, Array]:
    """The seeded weights by name (`w_*` as relay's dense takes them: units x depth)."""
    rng = np.random.default_rng(0)

    def w(*shape: int, scale: float = 0.1) -> Array:
        return (rng.standard_normal(shape) * scale).astype("float32")

    p: dict[str, Array] = {}
    for name, (units, depth) in {
        "q": (HIDDEN, HIDDEN), "k": (HIDDEN, HIDDEN), "v": (HIDDEN, HIDDEN),
        "o": (HIDDEN, HIDDEN), "f1": (FFN, HIDDEN), "f2": (HIDDEN, FFN),
    }.items():  # fmt: skip
        p[f"w_{name}"], p[f"b_{name}"] = w(units, depth), w(units)
    for norm in ("n1", "n2"):
        p[f"g_{norm}"], p[f"beta_{norm}"] = 1 + w(HIDDEN), w(HIDDEN)
    return p


def relay_model(p: dict[str, Array]) -> IRModule:
    """The block with the Python builder."""
    x = relay.var("x", shape=(SEQ, HIDDEN))

    def dense(y: relay.Expr, name: str) -> relay.Expr:
        out = relay.nn.dense(y, relay.const(p[f"w_{name}"]))
        return relay.nn.bias_add(out, relay.const(p[f"b_{name}"]))

    def split(y: relay.Expr) -> relay.Expr:
        return relay.transpose(relay.reshape(y, (SEQ, HEADS, HEAD)), (1, 0, 2))

    def norm(y: relay.Expr, name: str) -> relay.Expr:
        return relay.nn.layer_norm(y, relay.const(p[f"g_{name}"]), relay.const(p[f"beta_{name}"]))

    q, k, v = (split(dense(x, n)) for n in "qkv")
    scores = relay.multiply(relay.nn.batch_matmul(q, k), relay.const(np.float32(HEAD**-0.5)))
    context = relay.nn.batch_matmul(relay.nn.softmax(scores), relay.transpose(v, (0, 2, 1)))
    context = relay.reshape(relay.transpose(context, (1, 0, 2)), (SEQ, HIDDEN))
    y = norm(relay.add(dense(context, "o"), x), "n1")
    inner = dense(y, "f1")
    one_plus = relay.add(
        relay.erf(relay.divide(inner, relay.const(np.float32(2**0.5)))),
        relay.const(np.float32(1.0)),
    )
    gelu = relay.multiply(relay.multiply(inner, one_plus), relay.const(np.float32(0.5)))
    return IRModule.from_expr(relay.Function([x], norm(relay.add(dense(gelu, "f2"), y), "n2")))


def onnx_model(p: dict[str, Array]) -> bytes:
    """The same block as an ONNX model (weights transposed for MatMul)."""
    from onnx import TensorProto, helper, numpy_helper

    nodes: list[Any] = []
    inits = [
        numpy_helper.from_array(v.T.copy() if k.startswith("w_") else v, k) for k, v in p.items()
    ]
    consts = {
        "shape3": np.array([SEQ, HEADS, HEAD], np.int64),
        "shape2": np.array([SEQ, HIDDEN], np.int64),
        "scale": np.array(HEAD**-0.5, np.float32),
        "root2": np.array(2**0.5, np.float32),
        "one": np.array(1.0, np.float32),
        "half": np.array(0.5, np.float32),
    }
    inits += [numpy_helper.from_array(v, k) for k, v in consts.items()]

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def dense(y: str, name: str) -> str:
        return node(
            "Add", [node("MatMul", [y, f"w_{name}"], f"mm_{name}"), f"b_{name}"], f"d_{name}"
        )

    def split(y: str, name: str) -> str:
        shaped = node("Reshape", [y, "shape3"], f"r_{name}")
        return node("Transpose", [shaped], f"t_{name}", perm=[1, 0, 2])

    def norm(y: str, name: str) -> str:
        return node("LayerNormalization", [y, f"g_{name}", f"beta_{name}"], f"ln_{name}", axis=-1)

    q, k, v = (split(dense("x", n), n) for n in "qkv")
    kt = node("Transpose", [k], "kt", perm=[0, 2, 1])
    scores = node("Mul", [node("MatMul", [q, kt], "qk"), "scale"], "scores")
    context = node("MatMul", [node("Softmax", [scores], "attn", axis=-1), v], "ctx")
    context = node(
        "Reshape", [node("Transpose", [context], "ctx_t", perm=[1, 0, 2]), "shape2"], "c2"
    )
    y = norm(node("Add", [dense(context, "o"), "x"], "res1"), "n1")
    inner = dense(y, "f1")
    erf = node("Erf", [node("Div", [inner, "root2"], "scaled")], "erf")
    gelu = node(
        "Mul", [node("Mul", [inner, node("Add", [erf, "one"], "onep")], "xg"), "half"], "gelu"
    )
    out = norm(node("Add", [dense(gelu, "f2"), y], "res2"), "n2")
    graph = helper.make_graph(
        nodes,
        "encoder",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [SEQ, HIDDEN])],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, [SEQ, HIDDEN])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString()


def main() -> None:
    """Build, check and time every runner."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--targets", nargs="+", default=["dnnl,c"])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=5)
    args = parser.parse_args()
    ort: Any = importlib.import_module("onnxruntime")

    p = weights()
    mod = relay_model(p)
    x = np.random.default_rng(1).standard_normal((SEQ, HIDDEN)).astype("float32")
    want = np.asarray(xrelay.evaluate(mod, x))
    runners: dict[str, Callable[[], Any]] = {}
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session: Any = ort.InferenceSession(onnx_model(p), options, providers=["CPUExecutionProvider"])
    runners["onnxruntime"] = lambda: session.run(None, {"x": x})[0]
    with tempfile.TemporaryDirectory() as cache:
        for spec in args.targets:
            target = spec.split(",")
            lib = xrelay.build(mod, target, options={"num_threads": 1, "cache_dir": cache})
            runners[spec] = lambda lib=lib: lib(x)
        times: dict[str, list[float]] = {name: [] for name in runners}
        for name, run in runners.items():
            got = np.asarray(run())
            error = float(np.max(np.abs(got - want)) / max(1.0, float(np.max(np.abs(want)))))
            print(f"{name}: max scaled error {error:.1e}")
        for _ in range(args.rounds):
            for name, run in runners.items():
                run()
                for _ in range(args.calls):
                    start = time.perf_counter()
                    run()
                    times[name].append(time.perf_counter() - start)
    base = statistics.median(times["onnxruntime"])
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '')}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name}: {median * 1e3:.3f} ms median, {median / base:.2f}x onnxruntime")


if __name__ == "__main__":
    main()
