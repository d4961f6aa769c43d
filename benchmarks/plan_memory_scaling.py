"""How `plan-memory` scales: µs per op on chains, residual chains and DenseNet-like graphs.

- chain: the chain of `ir_scaling.py` (each value read by the next op only);
- residual: `y = add(tanh(y), y)` repeated (each value read two ops later);
- late reads: `pass_scaling.py`'s chain (about one value in 30 is computed
  early and read late, so it is live across most of the graph: the pairs
  best-fit must respect grow quadratically, the sweep placement does not);
- densenet L: L layers, each reducing the concatenation of all earlier
  outputs, so every output stays live to the end (about L²/2 pairs live at
  once: the conflicts best-fit must respect).

Prints a markdown table of the pass's time (best of `--repeat`, garbage
collector paused, as the pass manager does) with the arena it plans against
the bytes of all intermediates. Run: `python benchmarks/plan_memory_scaling.py`.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

from ir_scaling import build
from pass_scaling import chain_graph
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr
from xrelay.passes.plan_memory import PlanMemoryPass

from xrelay import IRModule, relay


def residual(n_ops: int) -> IRModule:
    """`y = add(tanh(y), y)`, n_ops/2 times, on 16-element tensors."""
    x = relay.var("x", shape=(16,))
    y: relay.Expr = x
    for _ in range(n_ops // 2):
        y = relay.add(relay.tanh(y), y)
    return IRModule.from_expr(relay.Function([x], y))


def densenet(layers: int) -> IRModule:
    """Each layer: tanh(sum(concatenate(all earlier outputs))); the result concatenates all."""
    x = relay.var("x", shape=(1, 4))
    feats: list[relay.Expr] = [x]
    for _ in range(layers):
        joined = relay.concatenate(feats, axis=1) if len(feats) > 1 else x
        feats.append(relay.tanh(relay.sum(joined, axis=1, keepdims=True)))
    return IRModule.from_expr(relay.Function([x], relay.concatenate(feats, axis=1)))


def timed(setup: Callable[[], IRModule], repeat: int) -> tuple[float, IRModule]:
    """Best time of `repeat` runs of the pass on fresh modules; the last module planned."""
    best, mod = float("inf"), setup()
    for _ in range(repeat):
        mod = setup()
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            PlanMemoryPass().apply(Context(), mod.module)
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best, mod


def arena_of(mod: IRModule) -> int:
    """The module's planned arena bytes."""
    attr = mod.module.attributes["xrelay.arena_size"]
    assert isinstance(attr, IntegerAttr)
    return int(attr.value.data)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--layers", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cases: list[tuple[str, Callable[[], IRModule]]] = []
    for n in args.sizes:
        cases.append((f"chain {n}", lambda n=n: build(n)))
        cases.append((f"residual {n}", lambda n=n: residual(n)))
        cases.append((f"late reads {n}", lambda n=n: chain_graph(n)))
    for layers in args.layers:
        cases.append((f"densenet L={layers}", lambda layers=layers: densenet(layers)))
    print("| graph | ops | ms | µs/op | arena bytes |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, setup in cases:
        seconds, mod = timed(setup, args.repeat)
        ops = sum(1 for _ in mod.module.walk()) - 3  # module, function, return
        per_op = seconds / ops * 1e6
        print(f"| {name} | {ops} | {seconds * 1e3:.0f} | {per_op:.1f} | {arena_of(mod)} |")


if __name__ == "__main__":
    main()
