"""What running a pass under the pass manager costs, against applying the xDSL pass directly.

For chains of N relay ops (the graph of `ir_scaling.py`), times xDSL's `cse`
applied directly, then through `Sequential([cse])` under a PassContext:
transactional (the default: a snapshot clone and a structural comparison per
pass), non-transactional (`transform.transactional=False`), and with the
`--time-passes` instrument; each called as TVM's API is, `new = seq(mod)`
(the input is left as it was: one copy of the module per top-level call, which
also serves as the transaction's snapshot) and in place (`seq.run_in_place(mod)`,
what `xrelay-opt` and `xrelay.build` use). Prints µs per op (flat across sizes
= linear).
Run: `python benchmarks/pass_manager_overhead.py [--sizes 1000 10000]`.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

from ir_scaling import build
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xrelay.dialects.parser import make_context

from xrelay import IRModule, transform
from xrelay.instrument import PassTimingInstrument


def timed(setup: Callable[[], IRModule], run: Callable[[IRModule], object], repeat: int) -> float:
    """Best wall time of `repeat` runs of `run` on a fresh module, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        mod = setup()
        gc.collect()
        start = time.perf_counter()
        run(mod)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Print a markdown table of µs/op per way of running the pass and size."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    ctx = make_context()
    cse = CommonSubexpressionElimination()

    def direct(mod: IRModule) -> None:
        cse.apply(ctx, mod.module)

    def managed(
        config: dict[str, object], timing: bool = False, in_place: bool = False
    ) -> Callable[[IRModule], object]:
        def run(mod: IRModule) -> object:
            instruments = [PassTimingInstrument()] if timing else []
            with transform.PassContext(instruments=instruments, config=config) as pctx:
                pctx.xdsl_context = ctx
                seq = transform.Sequential([cse])
                return seq.run_in_place(mod) if in_place else seq(mod)

        return run

    untransactional: dict[str, object] = {"transform.transactional": False}
    ways: dict[str, Callable[[IRModule], object]] = {
        "xDSL cse.apply": direct,
        "new = Sequential([cse])(mod), transactional": managed({}),
        "new = Sequential([cse])(mod), transactional=False": managed(untransactional),
        "new = Sequential([cse])(mod) + PassTimingInstrument": managed({}, timing=True),
        "Sequential([cse]).run_in_place(mod), transactional": managed({}, in_place=True),
        "Sequential([cse]).run_in_place(mod), transactional=False": managed(
            untransactional, in_place=True
        ),
    }
    rows: dict[str, list[float]] = {name: [] for name in ways}
    for n in args.sizes:
        for name, run in ways.items():
            rows[name].append(timed(lambda n=n: build(n), run, args.repeat) * 1e6 / n)

    print("| way | " + " | ".join(f"{n:,} ops (µs/op)" for n in args.sizes) + " |")
    print("| --- | " + " | ".join("---:" for _ in args.sizes) + " |")
    for name, values in rows.items():
        print(f"| {name} | " + " | ".join(f"{v:.1f}" for v in values) + " |")


if __name__ == "__main__":
    main()
