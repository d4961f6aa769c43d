"""xrelay's compile pipeline and `xrelay-opt`'s start-up under two Python interpreters, paired.

    python benchmarks/interpreters.py PYTHON_A PYTHON_B [--size 10000] [--pairs 3]
        [--starts 20]

PYTHON_A and PYTHON_B are the `python` of two venvs with xrelay installed (`scripts/setup`
makes `.venv` with a distribution's `/usr/bin/python3` when it can; a venv made from
pyenv's build is the usual other one). Every measurement runs A and B at the same time,
each pinned to its own CPU, then again with the CPUs swapped: this VM's speed drifts by
tens of percent within minutes, and two runs that share those minutes share the drift.
Measured:

- `optimize`: `optimize` at opt level 3 on `pass_scaling.py`'s chain of `--size` ops (no
  transactions, no instruments; the median of 3 runs, CPU time), as `optimize_profile.py`
  times it;
- start-up: the wall time of `--starts` runs of `xrelay-opt` (its console script's code,
  under that interpreter) on an empty module, one after the other (mostly imports: xDSL,
  the relay dialect, numpy).

Prints each pair's times and B / A, and the median ratio over the pairs. Nothing is
asserted; `scripts/setup`'s choice of interpreter cites these ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOL = "import sys; from xrelay.tools.opt import main; sys.exit(main())"
"""`xrelay-opt`'s console script (the `[project.scripts]` entry `xrelay.tools.opt:main`)."""


def child(kind: str, count: int) -> float:
    """In the pinned child: µs per op of `optimize` (`kind == "optimize"`, `count` ops) or
    seconds per `xrelay-opt` start (`kind == "startup"`, `count` starts)."""
    if kind == "optimize":
        sys.path.insert(0, str(HERE))
        from optimize_profile import run_once
        from pass_scaling import chain_graph

        base = chain_graph(count)
        return statistics.median(run_once(base, False, []) for _ in range(3)) * 1e6 / count
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.mlir"
        empty.write_text("builtin.module {}\n")
        # What the venv's `xrelay-opt` script runs, under this interpreter whatever the
        # script's first line names (a moved venv's scripts name the old path).
        argv = [sys.executable, "-c", TOOL, str(empty)]
        start = time.perf_counter()
        for _ in range(count):
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        return (time.perf_counter() - start) / count


def pair(
    pythons: tuple[str, str],
    cpus: tuple[int, int],
    kind: str,
    count: int,
    envs: tuple[dict[str, str] | None, dict[str, str] | None] = (None, None),
) -> list[float]:
    """Run the child measurement under both interpreters at once, each on its CPU (and in
    its environment, if given)."""
    script = str(Path(__file__).resolve())
    procs = [
        subprocess.Popen(
            [python, script, "--child", kind, str(count), str(cpu)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=HERE,
        )
        for python, cpu, env in zip(pythons, cpus, envs, strict=True)
    ]
    outs = [proc.communicate()[0] for proc in procs]
    if any(proc.returncode for proc in procs):
        raise SystemExit(f"a child failed: {[proc.returncode for proc in procs]}")
    return [float(out.strip().splitlines()[-1]) for out in outs]


def paired_table(
    pythons: tuple[str, str],
    cpus: tuple[int, int],
    kind: str,
    count: int,
    unit: str,
    pairs: int,
    envs: tuple[dict[str, str] | None, dict[str, str] | None] = (None, None),
) -> None:
    """Print `2 * pairs` paired measurements (the CPUs swapped every other one) and the
    median B / A."""
    ratios: list[float] = []
    print(f"\n{kind} ({unit}):\n| A's CPU | A | B | B / A |\n| ---: | ---: | ---: | ---: |")
    for i in range(2 * pairs):
        order = (cpus[0], cpus[1]) if i % 2 == 0 else (cpus[1], cpus[0])
        a, b = pair(pythons, order, kind, count, envs)
        ratios.append(b / a)
        print(f"| {order[0]} | {a:.3g} | {b:.3g} | {b / a:.3f} |", flush=True)
    print(f"median B / A: {statistics.median(ratios):.3f}")


def main() -> None:
    """Print both tables (or, as a child, one measurement)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("pythons", nargs="*")
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--pairs", type=int, default=3, help="pairs per CPU assignment")
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, count, cpu = args.child
        os.sched_setaffinity(0, {int(cpu)})
        print(child(kind, int(count)))
        return
    if len(args.pythons) != 2:
        parser.error("give two interpreters: PYTHON_A PYTHON_B")
    pythons = (args.pythons[0], args.pythons[1])
    cpus = sorted(os.sched_getaffinity(0))[:2]
    if len(cpus) < 2:
        raise SystemExit("needs two CPUs (the pair runs at the same time)")
    print(f"A = {pythons[0]}\nB = {pythons[1]}")
    for kind, count, unit in (
        ("optimize", args.size, f"µs/op at {args.size:,} ops"),
        ("startup", args.starts, "s per xrelay-opt start"),
    ):
        paired_table(pythons, (cpus[0], cpus[1]), kind, count, unit, args.pairs)


if __name__ == "__main__":
    main()
