"""How parse, print, verify, evaluate and the Python builder scale with graph size.

Builds a generated module of N relay ops through the Python builder, then
times each step and prints µs per op; linear behaviour shows as a flat
µs/op column across sizes. Run: `python benchmarks/ir_scaling.py [--sizes 1000 10000]`.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import numpy as np
from xrelay.dialects.diagnostics import verify_located
from xrelay.dialects.interpreter import evaluate_module
from xrelay.dialects.parser import parse_module

from xrelay import IRModule, relay


def build(n_ops: int) -> IRModule:
    """A chain of N ops cycling through add, multiply, relu and tanh on 4x4 tensors."""
    x = relay.var("x", shape=(4, 4))
    c = relay.const(np.full((4, 4), 0.5, "float32"))
    y: relay.Expr = x
    for i in range(n_ops - 1):
        kind = i % 4
        if kind == 0:
            y = relay.add(y, x)
        elif kind == 1:
            y = relay.multiply(y, c)
        elif kind == 2:
            y = relay.nn.relu(y)
        else:
            y = relay.tanh(y)
    return IRModule.from_expr(relay.Function([x], y))


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Print a markdown table of µs/op per step and size."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    steps = ["build (builder)", "print", "parse", "verify", "evaluate"]
    rows: dict[str, list[float]] = {s: [] for s in steps}
    for n in args.sizes:
        repeat = args.repeat if n <= 10000 else 1
        mod = build(n)
        text = str(mod)
        module = parse_module(text)
        data = np.ones((4, 4), "float32")
        times = {
            "build (builder)": timed(lambda n=n: build(n), repeat),
            "print": timed(lambda mod=mod: str(mod), repeat),
            "parse": timed(lambda text=text: parse_module(text), repeat),
            "verify": timed(lambda module=module: verify_located(module), repeat),
            "evaluate": timed(
                lambda module=module, data=data: evaluate_module(module, [data]), repeat
            ),
        }
        for step in steps:
            rows[step].append(times[step] * 1e6 / n)

    print("| step | " + " | ".join(f"{n:,} ops (µs/op)" for n in args.sizes) + " |")
    print("| --- | " + " | ".join("---:" for _ in args.sizes) + " |")
    for step in steps:
        print(f"| {step} | " + " | ".join(f"{v:.1f}" for v in rows[step]) + " |")


if __name__ == "__main__":
    main()
