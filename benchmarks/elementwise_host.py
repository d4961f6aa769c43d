"""The host `"c"` target's elementwise loops (issue 16: the odd-width cliff).

    python benchmarks/elementwise_host.py [--rounds 50]

Builds, on target `"c"` only, chains of elementwise ops that no producer's epilogue
takes (their input is the model's input): a bias broadcast over NCHW's channel axis
then relu at odd and even widths (SqueezeNet's 1x64x109x109, a 7x7 map), a row
broadcast on the last axis, one on a middle axis, a batch-2 scale-and-shift, a
dense-like bias, and an odd, tiny tensor. Prints each chain's median time over
`--rounds` interleaved runs (through the raw C ABI: `inference_runners.XrelayModel`)
and its bandwidth (bytes of the input read and the output written), after checking
its output against numpy. Not a test: nothing is asserted on times.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from inference_runners import XrelayModel

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(16)
Chain = tuple[tuple[int, ...], tuple[int, ...], bool]
"""A chain: the input's shape, the broadcast operand's shape, whether a relu follows."""

CHAINS: dict[str, Chain] = {
    "bias_relu 1x64x109x109": ((1, 64, 109, 109), (64, 1, 1), True),
    "bias_relu 1x64x110x110": ((1, 64, 110, 110), (64, 1, 1), True),
    "bias_relu 1x512x7x7": ((1, 512, 7, 7), (512, 1, 1), True),
    "row_add 1x64x109x109 + 109": ((1, 64, 109, 109), (109,), False),
    "mid_add 1x64x109x109 + 109x1": ((1, 64, 109, 109), (109, 1), True),
    "mid_add 1x64x56x11 + 56x1": ((1, 64, 56, 11), (56, 1), True),
    "mid_add 1x512x7x7 + 7x1": ((1, 512, 7, 7), (7, 1), True),
    "scale 2x96x55x55 * 1x96x1x1": ((2, 96, 55, 55), (1, 96, 1, 1), False),
    "bias_relu 64x1000 + 1000": ((64, 1000), (1000,), True),
    "bias_relu 3x13 + 3x1": ((3, 13), (3, 1), True),
}


def chain(
    shape: tuple[int, ...], other: tuple[int, ...], relu: bool
) -> tuple[IRModule, Array, Array]:
    """`relu(x * x + b)` (or without relu), `b` a constant of shape `other`: the module, a
    random input and the float64 forward pass on it."""
    x = relay.var("x", shape=shape, dtype="float32")
    b = RNG.standard_normal(other).astype("float32")
    y: relay.Expr = relay.add(relay.multiply(x, x), relay.const(b))
    if relu:
        y = relay.nn.relu(y)
    data = RNG.standard_normal(shape).astype("float32")
    want = data.astype(np.float64) ** 2 + b
    return IRModule.from_expr(relay.Function([x], y)), data, np.maximum(want, 0) if relu else want


def main() -> None:
    """Build every chain, check it, time them interleaved, print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    runners: dict[str, Callable[[], None]] = {}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (shape, other, relu) in CHAINS.items():
            mod, data, want = chain(shape, other, relu)
            lib = xrelay.build(mod, target="c")
            path = str(Path(tmp) / f"{len(runners)}.so")
            lib.export_library(path)
            model = XrelayModel(path, data)
            model()
            np.testing.assert_allclose(model.out, want, rtol=1e-5, atol=1e-6, err_msg=name)
            runners[name] = model
            sizes[name] = 2 * data.nbytes
        times: dict[str, list[float]] = {name: [] for name in runners}
        for _ in range(args.rounds):
            for name, run in runners.items():
                start = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - start)
    print(f"{'chain':34} {'median us':>10} {'GB/s':>7}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:34} {median * 1e6:10.1f} {sizes[name] / median / 1e9:7.1f}")


if __name__ == "__main__":
    main()
