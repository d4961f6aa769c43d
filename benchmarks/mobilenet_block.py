"""MobileNetV2-style blocks at 112x112: xrelay's targets against onnxruntime, 1 thread.

Two inverted-residual blocks built with the Python builder: 16 channels expanded
6x by a 1x1 conv (bias, ReLU6 as `clip(0, 6)`), a 3x3 depthwise conv (bias, ReLU6)
of stride 1, a 1x1 projection back to 16 (bias) and the residual add; then the
same with a stride-2 depthwise conv projecting to 24, no residual. The same
weights go into an ONNX model for onnxruntime when `onnx` and `onnxruntime` are
installed (`pip install .[bench]`). Every runner is timed interleaved in one
process, one thread each (`num_threads=1`, `intra_op_num_threads=1`), median
of `--rounds` (and the minimum: the machine may be shared); outputs are checked
against the interpreter first.

    python benchmarks/mobilenet_block.py [--targets accel,c c] [--rounds 30]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

import xrelay
from xrelay import IRModule, relay

Array = npt.NDArray[np.float32]
SIZE, CIN, EXPAND = 112, 16, 6
BLOCKS = ((1, 16, True), (2, 24, False))
"""(depthwise stride, output channels, residual) of each block."""


def weights(seed: int = 0) -> dict[str, Array]:
    """He-scaled random weights and small biases of the two blocks, by name."""
    rng = np.random.default_rng(seed)
    out: dict[str, Array] = {}
    cin = CIN
    for b, (_, cout, _) in enumerate(BLOCKS):
        mid = cin * EXPAND
        for name, shape in (
            (f"e{b}", (mid, cin, 1, 1)),
            (f"d{b}", (mid, 1, 3, 3)),
            (f"p{b}", (cout, mid, 1, 1)),
        ):
            fan_in = shape[1] * shape[2] * shape[3]
            out[name] = (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
            out[f"{name}_b"] = (rng.standard_normal(shape[0]) * 0.1).astype(np.float32)
        cin = cout
    return out


def flops() -> int:
    """Multiply-adds x 2 of the convolutions."""
    total, cin, size = 0, CIN, SIZE
    for stride, cout, _ in BLOCKS:
        mid, out = cin * EXPAND, size // stride
        total += size * size * mid * cin + out * out * mid * 9 + out * out * cout * mid
        cin, size = cout, out
    return 2 * total


def relay_model(p: dict[str, Array]) -> IRModule:
    """The blocks as a relay function of `x: (1, 16, 112, 112)`."""
    x = relay.var("x", shape=(1, CIN, SIZE, SIZE), dtype="float32")
    y: relay.Expr = x
    for b, (stride, _, residual) in enumerate(BLOCKS):
        mid = p[f"e{b}"].shape[0]

        def conv(v: relay.Expr, name: str, **kwargs: Any) -> relay.Expr:
            out = relay.nn.conv2d(v, relay.const(p[name]), **kwargs)
            return relay.nn.bias_add(out, relay.const(p[f"{name}_b"]))

        h = relay.clip(conv(y, f"e{b}"), 0.0, 6.0)
        h = conv(h, f"d{b}", strides=(stride, stride), padding=(1, 1), groups=mid)
        h = conv(relay.clip(h, 0.0, 6.0), f"p{b}")
        y = relay.add(h, y) if residual else h
    return IRModule.from_expr(relay.Function([x], y))


def onnx_model(p: dict[str, Array]) -> bytes:
    """The same blocks as an ONNX model (opset 13: Clip takes its bounds as inputs)."""
    from onnx import TensorProto, helper, numpy_helper

    nodes: list[Any] = []
    inits = [numpy_helper.from_array(v, k) for k, v in p.items()]
    for name, bound in (("zero", 0.0), ("six", 6.0)):
        inits.append(numpy_helper.from_array(np.full((), bound, np.float32), name))
    y = "x"
    for b, (stride, _, residual) in enumerate(BLOCKS):
        mid = p[f"e{b}"].shape[0]
        nodes.append(helper.make_node("Conv", [y, f"e{b}", f"e{b}_b"], [f"e{b}o"]))
        nodes.append(helper.make_node("Clip", [f"e{b}o", "zero", "six"], [f"e{b}r"]))
        nodes.append(
            helper.make_node(
                "Conv",
                [f"e{b}r", f"d{b}", f"d{b}_b"],
                [f"d{b}o"],
                group=mid,
                strides=[stride, stride],
                pads=[1, 1, 1, 1],
            )
        )
        nodes.append(helper.make_node("Clip", [f"d{b}o", "zero", "six"], [f"d{b}r"]))
        last = b == len(BLOCKS) - 1
        out = f"p{b}o" if residual or not last else "y"
        nodes.append(helper.make_node("Conv", [f"d{b}r", f"p{b}", f"p{b}_b"], [out]))
        if residual:
            y = "y" if last else f"s{b}"
            nodes.append(helper.make_node("Add", [out, "x" if b == 0 else f"s{b - 1}"], [y]))
        else:
            y = out
    graph = helper.make_graph(
        nodes,
        "mobilenet_blocks",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, CIN, SIZE, SIZE])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    return model.SerializeToString()


def runners(targets: list[str], p: dict[str, Array], x: Array) -> dict[str, Callable[[], Any]]:
    """name -> a call computing the blocks on `x`, one thread each."""
    mod = relay_model(p)
    out: dict[str, Callable[[], Any]] = {}
    for target in targets:
        options = {"cache_dir": tempfile.mkdtemp(), "num_threads": 1}
        start = time.perf_counter()
        lib = xrelay.build(mod, target=target.split(","), options=options)
        print(f"built {target} in {time.perf_counter() - start:.1f} s")
        out[target] = lambda lib=lib: lib(x)
    if importlib.util.find_spec("onnxruntime") and importlib.util.find_spec("onnx"):
        ort: Any = importlib.import_module("onnxruntime")
        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = 1, 1
        session: Any = ort.InferenceSession(
            onnx_model(p), options, providers=["CPUExecutionProvider"]
        )
        out[f"onnxruntime {ort.__version__}"] = lambda: session.run(None, {"x": x})[0]
    return out


def main() -> None:
    """Build, check, time and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--targets", nargs="+", default=["accel,c"])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    p = weights()
    x = np.random.default_rng(1).uniform(-1, 1, (1, CIN, SIZE, SIZE)).astype(np.float32)
    calls = runners(args.targets, p, x)
    want = np.asarray(xrelay.evaluate(relay_model(p), x))
    for name, call in calls.items():
        got = call()
        error = float(np.max(np.abs(got - want)) / max(1.0, float(np.max(np.abs(want)))))
        print(f"{name}: max error {error:.1e} (relative to the output's magnitude)")
        assert error < 1e-4, name
        for _ in range(3):
            call()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(args.rounds):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    ort = next((statistics.median(t) for n, t in times.items() if n.startswith("onnx")), None)
    print(f"MobileNetV2-style blocks, {SIZE}x{SIZE}, 1 thread, {flops() / 1e9:.3f} GFLOP")
    for name, t in times.items():
        median = statistics.median(t)
        ratio = f", {median / ort:.2f}x onnxruntime" if ort else ""
        rate = f"{flops() / median / 1e9:6.1f} GFLOP/s"
        print(f"  {name:24s} {median * 1e3:8.3f} ms (min {min(t) * 1e3:.3f})  {rate}{ratio}")


if __name__ == "__main__":
    main()
