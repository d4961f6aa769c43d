"""Single kernels against onnxruntime: the depthwise convs, pools and 1x1 convs of issue 16.

    OMP_NUM_THREADS=1 python benchmarks/kernels_ort.py [--cases NAME ...] [--runs 300]
        [--threads 1]

Each case is one op (with bias and relu for the convs) on random float32 data, built for
`accel`, `dnnl` and host `c` (`num_threads` from `--threads`, a profiling build) and written
for onnxruntime (as many intra-op threads) from the same weights. An NHWC case (`-nhwc`)
is the same op on NHWC data for xrelay (onnxruntime gets it NCHW): what dnnl's partitions
hold, since dnnl's prelude makes activations NHWC. Prints each target's kernel time (the profile's
mean over the timed runs, so no Python call overhead) and onnxruntime's time per call
(median, Python overhead included: a few µs), with every output checked against
onnxruntime's. Rerun at another revision (`git checkout`) to compare kernels: the numbers
quoted for issue 16's seventh session (depthwise 272x14x14, SqueezeNet's and ShuffleNet's
max pools, the 512 -> 1000 1x1 conv) come from this script, before and after each change.
Not a test: nothing is asserted on times.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Case:
    """One op: `kind` conv (groups, kernel, stride, pad) or max_pool (kernel, stride, pad)."""

    kind: str
    shape: tuple[int, int, int, int]
    out_channels: int = 0
    groups: int = 1
    kernel: int = 3
    stride: int = 1
    pad: int = 1
    layout: str = "NCHW"


CASES = {
    "depthwise-272x14": Case("conv", (1, 272, 14, 14), 272, 272),
    "depthwise-136x28": Case("conv", (1, 136, 28, 28), 136, 136),
    "depthwise-960x7": Case("conv", (1, 960, 7, 7), 960, 960),
    "depthwise-32x112": Case("conv", (1, 32, 112, 112), 32, 32),
    "depthwise-96x112-s2": Case("conv", (1, 96, 112, 112), 96, 96, stride=2),
    "maxpool-squeezenet": Case("max_pool", (1, 64, 111, 111), stride=2, pad=0),
    "maxpool-shufflenet": Case("max_pool", (1, 24, 112, 112), stride=2, pad=1),
    "maxpool-squeezenet-nhwc": Case("max_pool", (1, 64, 111, 111), stride=2, pad=0, layout="NHWC"),
    "conv-first-squeezenet-nhwc": Case(
        "conv", (1, 3, 224, 224), 64, stride=2, pad=0, layout="NHWC"
    ),
    "conv1x1-512-1000": Case("conv", (1, 512, 13, 13), 1000, kernel=1, pad=0),
    "conv1x1-1024-256": Case("conv", (1, 1024, 14, 14), 256, kernel=1, pad=0),
    "gconv1x1-544-g4": Case("conv", (1, 544, 7, 7), 544, 4, kernel=1, pad=0),
}


def models(case: Case, rng: np.random.Generator) -> tuple[IRModule, bytes, Array]:
    """The xrelay module, the ONNX model and the input of `case`."""
    n, c, h, w = case.shape
    nhwc = case.layout == "NHWC"
    x = relay.var("x", shape=(n, h, w, c) if nhwc else case.shape)
    k, s, p = case.kernel, case.stride, case.pad
    inits: list[onnx.TensorProto] = []
    if case.kind == "conv":
        o = case.out_channels
        weight = (rng.standard_normal((o, c // case.groups, k, k)) * 0.1).astype("float32")
        bias = rng.standard_normal(o).astype("float32")
        if nhwc:  # dnnl's layouts: NHWC activations, HWIO weights
            conv = relay.nn.conv2d(x, relay.const(weight.transpose(2, 3, 1, 0).copy()),
                                   strides=(s, s), padding=(p, p), groups=case.groups,
                                   data_layout="NHWC", kernel_layout="HWIO")  # fmt: skip
        else:
            conv = relay.nn.conv2d(x, relay.const(weight), strides=(s, s), padding=(p, p),
                                   groups=case.groups)  # fmt: skip
        y = relay.nn.relu(relay.nn.bias_add(conv, relay.const(bias), axis=3 if nhwc else 1))
        nodes = [
            helper.make_node(
                "Conv", ["x", "w", "b"], ["c"], strides=[s, s], pads=[p] * 4, group=case.groups
            ),
            helper.make_node("Relu", ["c"], ["y"]),
        ]
        inits = [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")]
    else:
        y = relay.nn.max_pool2d(
            x, pool_size=(k, k), strides=(s, s), padding=(p, p), layout=case.layout
        )
        nodes = [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[k, k], strides=[s, s],
                                  pads=[p] * 4)]  # fmt: skip
    graph = helper.make_graph(
        nodes,
        "kernel",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits,
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    data = rng.standard_normal(case.shape).astype("float32")
    return IRModule.from_expr(relay.Function([x], y)), proto.SerializeToString(), data


def nchw(array: Array, case: Case) -> Array:
    """An xrelay array of `case` (NHWC for an NHWC case) as NCHW, onnxruntime's layout."""
    return array.transpose(0, 3, 1, 2) if case.layout == "NHWC" else array


def kernel_time(lib: Any, data: Array, runs: int) -> float:
    """Mean µs per run of the library's kernels (its profile: the calls inside `main`)."""
    for _ in range(20):
        lib(data)
    lib.reset_profile()
    for _ in range(runs):
        lib(data)
    kernels = [e for e in lib.profile() if e.parent is not None and "#" in e.name]
    entries = kernels or [e for e in lib.profile() if e.parent is not None]
    return sum(e.seconds for e in entries) / runs * 1e6


def call_time(run: Callable[[], object], runs: int) -> float:
    """Median µs per call."""
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    """Time every chosen case and print the table."""
    parser = argparse.ArgumentParser(description="single kernels against onnxruntime")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(16)
    print(f"{args.threads} thread(s)")
    print("| case | accel kernel (µs) | dnnl kernel (µs) | c kernel (µs) | onnxruntime call (µs) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    options = {"num_threads": args.threads, "profile": True}
    for name in args.cases:
        case = CASES[name]
        mod, proto, data = models(case, rng)
        ort: Any = importlib.import_module("onnxruntime")  # untyped
        settings = ort.SessionOptions()
        settings.intra_op_num_threads, settings.inter_op_num_threads = args.threads, 1
        session = ort.InferenceSession(proto, settings, providers=["CPUExecutionProvider"])
        want: Array = session.run(None, {"x": data})[0]
        given = data.transpose(0, 2, 3, 1).copy() if case.layout == "NHWC" else data
        times: list[str] = []
        for target in (["accel", "c"], ["dnnl", "c"], "c"):
            lib = xrelay.build(mod, target=target, options=options)
            got = lib(given)
            assert isinstance(got, np.ndarray)  # one output
            np.testing.assert_allclose(nchw(got, case), want, rtol=1e-3, atol=1e-3)
            times.append(f"{kernel_time(lib, given, args.runs):.1f}")
        run: Callable[[], object] = lambda s=session, d=data: s.run(None, {"x": d})  # noqa: E731
        ort_us = call_time(run, args.runs)
        print(f"| {name} | {' | '.join(times)} | {ort_us:.1f} |", flush=True)


if __name__ == "__main__":
    main()
