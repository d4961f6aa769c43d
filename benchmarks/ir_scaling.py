"""How parse, print, verify, evaluate and the Python builder scale with graph size.

Builds a generated module of N relay ops through the Python builder, then
times each step and prints µs per op; linear behaviour shows as a flat
µs/op column across sizes. Run: `python benchmarks/ir_scaling.py [--sizes 1000 10000]`.

Then issue 19's measure: a module of `--opt-ops` ops (50,000) written to a file and run
through `xrelay-opt` as a subprocess, parse + verify + print and `-p cse`, wall time,
median of `--opt-runs` runs, each next to its target, with the CPU time beside it (on a
loaded machine wall time includes waiting for a core). `--opt-only` skips the table.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

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


OPT_TARGETS: dict[str, tuple[list[str], float]] = {
    "parse + verify + print": ([], 3.0),
    "-p cse": (["-p", "cse"], 4.0),
}
"""Issue 19's targets: wall seconds of `xrelay-opt` on the 50k-op module."""


def opt_wall(n_ops: int, runs: int) -> None:
    """Print the median wall time of `xrelay-opt` runs on an N-op module, with targets.

    The runs of the two measures interleave, so load from other processes falls on both.
    """
    opt = str(Path(sys.executable).with_name("xrelay-opt"))
    walls: dict[str, list[float]] = {name: [] for name in OPT_TARGETS}
    cpus: dict[str, list[float]] = {name: [] for name in OPT_TARGETS}
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "big.mlir"
        source.write_text(str(build(n_ops)))
        for _ in range(runs):
            for name, (flags, _) in OPT_TARGETS.items():
                cpu = _children_cpu()
                start = time.perf_counter()
                subprocess.run(
                    [opt, str(source), *flags, "-o", str(Path(tmp) / "out.mlir")], check=True
                )
                walls[name].append(time.perf_counter() - start)
                cpus[name].append(_children_cpu() - cpu)
    print(f"\n`xrelay-opt` on {n_ops:,} ops (median of {runs}; CPU = user + sys):\n")
    print("| command | wall (s) | CPU (s) | target, wall (s) | |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name, (_, target) in OPT_TARGETS.items():
        wall = statistics.median(walls[name])
        cpu = statistics.median(cpus[name])
        verdict = "met" if wall <= target else "not met"
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {target:.1f} | {verdict} |")


def _children_cpu() -> float:
    """User + system seconds of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Print a markdown table of µs/op per step and size, then the xrelay-opt wall times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--opt-ops", type=int, default=50000)
    parser.add_argument("--opt-runs", type=int, default=3)
    parser.add_argument("--opt-only", action="store_true")
    args = parser.parse_args()
    if not args.opt_only:
        scaling_table(args.sizes, args.repeat)
    opt_wall(args.opt_ops, args.opt_runs)


def scaling_table(sizes: list[int], repeat_small: int) -> None:
    """The in-process table: µs/op of each step at each size."""
    steps = ["build (builder)", "print", "parse", "verify", "evaluate"]
    rows: dict[str, list[float]] = {s: [] for s in steps}
    for n in sizes:
        repeat = repeat_small if n <= 10000 else 1
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

    print("| step | " + " | ".join(f"{n:,} ops (µs/op)" for n in sizes) + " |")
    print("| --- | " + " | ".join("---:" for _ in sizes) + " |")
    for step in steps:
        print(f"| {step} | " + " | ".join(f"{v:.1f}" for v in rows[step]) + " |")


if __name__ == "__main__":
    main()
