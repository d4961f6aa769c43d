"""Where `optimize` at opt level 3 spends its time on `pass_scaling.py`'s chain graph.

Runs `optimize` (no transactions unless `--transactional`) on `chain_graph(N)`
with a pass instrument that charges each pass its CPU time (`time.process_time`,
so other processes on a loaded machine count less), and prints µs per op of
every pass, nested passes indented (FoldScaleAxis's three), the median of
`--repeat` runs. A pass that runs twice (SimplifyExpr, FoldConstant) gets one
row per run. `--cprofile K` also prints the K functions of most own time and
of most cumulative time of one more run under cProfile (slower: the profiler
roughly doubles the time). Run:
`python benchmarks/optimize_profile.py --size 10000 [--cprofile 40]`.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import sys
import time
from pathlib import Path

from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.parser import make_context
from xrelay.passes.instrument import PassInstrument
from xrelay.passes.pass_context import PassInfo

from xrelay import transform

sys.path.insert(0, str(Path(__file__).parent))
from pass_scaling import chain_graph


class PassTimes(PassInstrument):
    """CPU seconds of each pass run, keyed by (nesting depth, run index, pass name)."""

    def __init__(self) -> None:
        self.started: list[tuple[int, float]] = []
        self.times: dict[tuple[int, int, str], float] = {}
        self.runs = 0

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.runs += 1
        self.started.append((self.runs, time.process_time()))

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        index, start = self.started.pop()
        self.times[len(self.started), index, info.name] = time.process_time() - start


def run_once(base: IRModule, transactional: bool, instruments: list[PassInstrument]) -> float:
    """CPU seconds of one `optimize` at opt level 3 on a clone of `base`."""
    config: dict[str, object] = {} if transactional else {"transform.transactional": False}
    mod = base.clone()
    gc.collect()
    with transform.PassContext(opt_level=3, config=config, instruments=instruments) as pctx:
        pctx.xdsl_context = make_context()
        start = time.process_time()
        transform.Sequential([transform.get_pass("optimize")])(mod)
        return time.process_time() - start


def main() -> None:
    """Print the per-pass table (and the cProfile tables if asked)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--transactional", action="store_true")
    parser.add_argument("--cprofile", type=int, default=0, metavar="K")
    args = parser.parse_args()
    n: int = args.size
    base = chain_graph(n)
    runs: list[tuple[float, PassTimes]] = []
    for _ in range(args.repeat):
        timer = PassTimes()
        runs.append((run_once(base, args.transactional, [timer]), timer))
    totals = [total for total, _ in runs]
    median = statistics.median(totals)
    print(f"optimize at opt 3, {n:,} ops: {median * 1e6 / n:.1f} µs/op (median of {len(runs)})")
    print("| pass | µs/op |")
    print("| --- | ---: |")
    for key in sorted(runs[0][1].times, key=lambda k: k[1]):
        depth, _, name = key
        values = [timer.times[key] for _, timer in runs if key in timer.times]
        print(f"| {'  ' * depth}{name} | {statistics.median(values) * 1e6 / n:.1f} |")
    if args.cprofile:
        profile = cProfile.Profile()
        profile.enable()
        run_once(base, args.transactional, [])
        profile.disable()
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(args.cprofile)
        stats.sort_stats("cumtime").print_stats(args.cprofile)


if __name__ == "__main__":
    main()
