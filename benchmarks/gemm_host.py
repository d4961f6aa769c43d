"""The host `"c"` target's matrix products, before and after the shared GEMM (issue 16).

    python benchmarks/gemm_host.py [--rounds 30]

Builds, on target `"c"` only and run on 1 thread, the MLP 784-512-512-10 at
batch 64 (dense + bias + relu, whole model) and each matrix product of the
transformer encoder block (seq 128, hidden 256, 4 heads, FFN 1024: the
q/k/v/output projections, the attention's `q @ k.T` and `p @ v` as
`nn.batch_matmul`, the two FFN denses), each twice: with the shared float32
GEMM (`codegen/kernels/gemm.py`) and with the scalar double-accumulating loops
the host used before it (`kernels_gemm` told that no op is float32). Prints
the median time over `--rounds` runs (through the raw C ABI:
`inference_runners.XrelayModel`) and GFLOP/s (2 flops per multiply-add), and
checks both builds agree with numpy's float64 product within 1e-4 of the
output's largest magnitude. Not a test: nothing is asserted on times.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from inference_runners import XrelayModel
from xrelay.codegen.c import kernels_gemm

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(16)
Case = tuple[IRModule, Array, Callable[[Array], Array], float]
"""A case: its module, its input, its float64 forward pass, its flops."""


def weight(*shape: int) -> Array:
    """Random float32 weights, scaled by the fan-in."""
    return (RNG.standard_normal(shape) / np.sqrt(shape[-1])).astype("float32")


def mlp() -> Case:
    """MLP 784-512-512-10, batch 64, with biases and relus."""
    dims = (784, 512, 512, 10)
    x = relay.var("x", shape=(64, dims[0]), dtype="float32")
    layers = [(weight(o, i), weight(o)) for i, o in itertools.pairwise(dims)]
    h: relay.Expr = x
    for n, (w, b) in enumerate(layers):
        h = relay.nn.bias_add(relay.nn.dense(h, relay.const(w)), relay.const(b))
        h = relay.nn.relu(h) if n + 1 < len(layers) else h

    def forward(v: Array) -> Array:
        out = v.astype(np.float64)
        for n, (w, b) in enumerate(layers):
            out = out @ w.T.astype(np.float64) + b
            out = np.maximum(out, 0) if n + 1 < len(layers) else out
        return out

    flops = 2.0 * 64 * sum(i * o for i, o in itertools.pairwise(dims))
    data = RNG.standard_normal((64, dims[0])).astype("float32")
    return IRModule.from_expr(relay.Function([x], h)), data, forward, flops


def dense(rows: int, depth: int, units: int) -> Case:
    """One `nn.dense` of `rows x depth` data by constant `units x depth` weights."""
    w = weight(units, depth)
    x = relay.var("x", shape=(rows, depth), dtype="float32")
    mod = IRModule.from_expr(relay.Function([x], relay.nn.dense(x, relay.const(w))))
    data = RNG.standard_normal((rows, depth)).astype("float32")
    return mod, data, lambda v: v.astype(np.float64) @ w.T, 2.0 * rows * depth * units


def batch_matmul(batch: int, m: int, n: int, depth: int, transpose_b: bool) -> Case:
    """One `nn.batch_matmul` of `batch x m x depth` data by a constant second operand."""
    y = weight(batch, n, depth) if transpose_b else weight(batch, depth, n)
    x = relay.var("x", shape=(batch, m, depth), dtype="float32")
    out = relay.nn.batch_matmul(x, relay.const(y), transpose_b=transpose_b)
    mod = IRModule.from_expr(relay.Function([x], out))
    data = RNG.standard_normal((batch, m, depth)).astype("float32")
    y64 = np.swapaxes(y, -1, -2) if transpose_b else y
    return mod, data, lambda v: v.astype(np.float64) @ y64, 2.0 * batch * m * n * depth


CASES: dict[str, Callable[[], Case]] = {
    "mlp 784-512-512-10 b64": mlp,
    "dense batch 1 1024->4096": lambda: dense(1, 1024, 4096),
    "tf q/k/v/o dense 128x256x256": lambda: dense(128, 256, 256),
    "tf ffn1 dense 128x256->1024": lambda: dense(128, 256, 1024),
    "tf ffn2 dense 128x1024->256": lambda: dense(128, 1024, 256),
    "tf q@k.T batch_matmul 4x128x128x64": lambda: batch_matmul(4, 128, 128, 64, True),
    "tf p@v batch_matmul 4x128x64x128": lambda: batch_matmul(4, 128, 64, 128, False),
}


def median_seconds(model: XrelayModel, rounds: int) -> float:
    """The median of `rounds` runs, after one warm-up run."""
    model()
    times: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        model()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(name: str, scalar: bool, cache: Path, rounds: int) -> tuple[float, float]:
    """(seconds, error relative to the output's largest magnitude) of one build of a case."""
    mod, data, forward, _ = CASES[name]()
    original = kernels_gemm.float32
    if scalar:  # the loops the host printed before the shared GEMM
        kernels_gemm.float32 = lambda k: False
    try:
        lib = xrelay.build(mod, options={"cache_dir": cache})
    finally:
        kernels_gemm.float32 = original
    model = XrelayModel(str(lib.path), data)
    seconds = median_seconds(model, rounds)
    want = forward(data)
    error = float(np.max(np.abs(model.out - want))) / max(1.0, float(np.max(np.abs(want))))
    assert error <= 1e-4, (name, scalar, error)
    return seconds, error


def main() -> None:
    """Print the table: each case before and after."""
    parser = argparse.ArgumentParser(description="the host's matrix products before/after")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"{'case':38} {'before ms':>10} {'GFLOP/s':>8} {'after ms':>9} {'GFLOP/s':>8} {'err':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in CASES.items():
            flops = make()[3]
            before, _ = measure(name, True, Path(tmp), args.rounds)
            after, error = measure(name, False, Path(tmp), args.rounds)
            print(
                f"{name:38} {before * 1e3:10.3f} {flops / before / 1e9:8.1f} "
                f"{after * 1e3:9.3f} {flops / after / 1e9:8.1f} {error:8.1e}"
            )


if __name__ == "__main__":
    main()
