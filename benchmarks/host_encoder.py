"""The transformer encoder block on the host "c" target against onnxruntime, at 1 thread.

`dnnl_families.encoder_block` (seq 128, hidden 256, 4 heads, FFN 1024, erf GELU,
post-norm) built for `"c"`, and the same graph with the same weights as an ONNX
model (opset 17: MatMul, Softmax, LayerNormalization, Erf) in onnxruntime with one
thread. Prints the outputs' agreement, the medians of interleaved runs and their
ratio, and a profiling build's medians per fused function (softmax, layer_norm,
the dense with its fused erf GELU, the matrix products):

    OMP_NUM_THREADS=1 python benchmarks/host_encoder.py [--rounds 30] [--top 12]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import tempfile
import time
from typing import Any

import numpy as np
import onnx
from dnnl_families import encoder_block
from onnx import TensorProto, helper, numpy_helper

import xrelay

Array = np.ndarray[Any, Any]
ort: Any = importlib.import_module("onnxruntime")  # no type stubs

SEQ, HIDDEN, HEADS, FFN = 128, 256, 4, 1024


class Graph:
    """An ONNX graph drawn with `encoder_block`'s seeded weights, in its order."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.count = 0

    def name(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def const(self, value: Array | np.generic) -> str:
        name = self.name()
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(self, op: str, inputs: list[str], **attrs: Any) -> str:
        out = self.name()
        self.nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def weight(self, *shape: int) -> Array:
        return (self.rng.standard_normal(shape) * 0.1).astype("float32")

    def dense(self, y: str, units: int, depth: int) -> str:
        w, b = self.weight(units, depth), self.weight(units)
        return self.node("Add", [self.node("MatMul", [y, self.const(w.T.copy())]), self.const(b)])

    def split(self, y: str) -> str:
        shape = self.const(np.array([SEQ, HEADS, HIDDEN // HEADS], np.int64))
        return self.node("Transpose", [self.node("Reshape", [y, shape])], perm=[1, 0, 2])

    def norm(self, y: str) -> str:
        gamma = (1 + self.rng.standard_normal(HIDDEN) * 0.1).astype("float32")
        beta = self.weight(HIDDEN)
        inputs = [y, self.const(gamma), self.const(beta)]
        return self.node("LayerNormalization", inputs, axis=-1, epsilon=1e-5)


def onnx_encoder() -> bytes:
    """`encoder_block` as a serialized ONNX model."""
    g = Graph()
    x = "x"
    q, k, v = (g.split(g.dense(x, HIDDEN, HIDDEN)) for _ in range(3))
    scores = g.node("MatMul", [q, g.node("Transpose", [k], perm=[0, 2, 1])])
    scale = g.const(np.float32((HIDDEN // HEADS) ** -0.5))
    attention = g.node("Softmax", [g.node("Mul", [scores, scale])], axis=-1)
    context = g.node("Transpose", [g.node("MatMul", [attention, v])], perm=[1, 0, 2])
    context = g.node("Reshape", [context, g.const(np.array([SEQ, HIDDEN], np.int64))])
    y = g.norm(g.node("Add", [g.dense(context, HIDDEN, HIDDEN), x]))
    inner = g.dense(y, FFN, HIDDEN)
    erf = g.node("Erf", [g.node("Mul", [inner, g.const(np.float32(2**-0.5))])])
    half = g.node("Mul", [inner, g.const(np.float32(0.5))])
    gelu = g.node("Mul", [half, g.node("Add", [erf, g.const(np.float32(1.0))])])
    out = g.norm(g.node("Add", [g.dense(gelu, HIDDEN, FFN), y]))
    g.nodes[-1].output[0] = "y"
    del out
    graph = helper.make_graph(
        g.nodes,
        "encoder",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [SEQ, HIDDEN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [SEQ, HIDDEN])],
        g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def main() -> None:
    """Check, time interleaved, profile."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    x = np.random.default_rng(1).standard_normal((SEQ, HIDDEN)).astype("float32")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(onnx_encoder(), options, providers=["CPUExecutionProvider"])
    mod = encoder_block()
    with tempfile.TemporaryDirectory() as cache:
        opts = {"num_threads": 1, "cache_dir": cache}
        lib = xrelay.build(mod, "c", options=opts)
        profiled = xrelay.build(mod, "c", options={**opts, "profile": True})
        ours, theirs = np.asarray(lib(x)), np.asarray(session.run(None, {"x": x})[0])
        want = np.asarray(xrelay.evaluate(mod, x))
        scale = float(np.max(np.abs(want)))
        error, other = np.max(np.abs(ours - want)) / scale, np.max(np.abs(theirs - want)) / scale
        print(f"max |c - interpreter| / max|out|: {error:.1e}; onnxruntime's: {other:.1e}")
        calls = {"c": lambda: lib(x), "onnxruntime": lambda: session.run(None, {"x": x})}
        times: dict[str, list[float]] = {name: [] for name in calls}
        for call in calls.values():
            call()
        for _ in range(args.rounds):
            for name, call in calls.items():
                start = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - start)
        medians = {name: statistics.median(t) for name, t in times.items()}
        best = {name: min(t) for name, t in times.items()}
        for name, median in medians.items():
            print(f"{name}: {median * 1e3:.3f} ms median, {best[name] * 1e3:.3f} ms best of "
                  f"{args.rounds} (interleaved)")  # fmt: skip
        print(f"ratio c / onnxruntime: {medians['c'] / medians['onnxruntime']:.2f}x of medians, "
              f"{best['c'] / best['onnxruntime']:.2f}x of bests (a loaded machine preempts "
              "single runs: compare both)")  # fmt: skip
        runs: list[list[Any]] = []
        for _ in range(max(5, args.rounds // 3)):
            profiled.reset_profile()
            profiled(x)
            runs.append(profiled.profile())
        entries = [
            (statistics.median(run[e.index].seconds for run in runs), e.name) for e in runs[0]
        ]
        total = entries[0][0]
        print(f"profile (median per run, whole run {total * 1e3:.3f} ms):")
        kernels = sorted(entries[1:], reverse=True)
        for seconds, name in kernels[: args.top]:
            print(f"  {seconds * 1e6:9.1f} us  {100 * seconds / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
