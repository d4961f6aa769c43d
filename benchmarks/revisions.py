"""xrelay's compile pipeline at a git revision against the working tree, paired.

    python benchmarks/revisions.py [BASE] [--size 10000] [--pairs 3] [--starts 0]

BASE (a commit, default `HEAD`) is exported with `git archive` into a temporary
directory laid out as the installed package (`xrelay/` with `dialects/`, `passes/`,
`codegen/`, `tools/` inside) and imported from there through `PYTHONPATH`, which
comes before the editable install's finder; the working tree is what this venv's
`python` imports. Both run this checkout's benchmark code (`pass_scaling.py`'s chain
graph, `optimize_profile.py`'s timing) at the same time, each pinned to its own CPU,
then with the CPUs swapped, as `interpreters.py` pairs two interpreters: this VM's
speed drifts by tens of percent within minutes, and two runs sharing those minutes
share the drift. A = BASE, B = the working tree; prints each pair's µs/op (the
median of 3 `optimize` runs at opt level 3, CPU time, no transactions) and the median
B / A. `--starts N` also pairs N `xrelay-opt` starts on an empty module.

`--instructions` counts instead of timing: each side runs `optimize` once and three
times in a process under valgrind's cachegrind (`--cache-sim=no`, `PYTHONHASHSEED=0`),
and the difference over two runs, per op, is what one `optimize` executes. The count
does not drift with the VM (reruns agree within about 1%), so it tells changes of a few
percent apart that the paired times cannot; it counts work, not cache misses.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from interpreters import paired_table

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FOLDERS = ("dialects", "passes", "codegen", "tools")
"""The top-level folders pyproject.toml maps to `xrelay.<folder>`."""


def export(revision: str, into: Path) -> Path:
    """`revision`'s sources under `into`, in the installed layout; the directory to put on
    `PYTHONPATH`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "xrelay", *FOLDERS],
        check=True,
        capture_output=True,
    ).stdout
    source = into / "source"
    source.mkdir()
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    package = into / "root" / "xrelay"
    package.parent.mkdir(parents=True)
    (source / "xrelay").rename(package)
    for folder in FOLDERS:
        (source / folder).rename(package / folder)
    return package.parent


def imported_from(env: dict[str, str]) -> Path:
    """Where `xrelay.passes` is imported from in `env` (run outside any checkout)."""
    out = subprocess.run(
        [sys.executable, "-c", "import xrelay.passes as p; print(p.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
    ).stdout
    return Path(out.strip()).resolve().parent


def instructions(env: dict[str, str], size: int, runs: int) -> int:
    """Instructions a process running `optimize` `runs` times on `size` ops executes."""
    argv = [
        *("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"),
        *(sys.executable, str(Path(__file__).resolve()), "--runs", str(size), str(runs)),
    ]
    env = dict(env, PYTHONHASHSEED="0")
    result = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=HERE, check=False)
    if result.returncode != 0:
        raise SystemExit(f"valgrind failed:\n{result.stderr[-2000:]}")
    refs = [line for line in result.stderr.splitlines() if "I" in line and "refs:" in line]
    return int(refs[-1].split()[-1].replace(",", ""))


def per_op_instructions(envs: tuple[dict[str, str], dict[str, str]], size: int) -> list[float]:
    """Instructions per op of one `optimize`, for each environment (two CPUs at once)."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = {(side, runs): pool.submit(instructions, env, size, runs)
                for side, env in enumerate(envs) for runs in (1, 3)}  # fmt: skip
        return [(jobs[side, 3].result() - jobs[side, 1].result()) / 2 / size for side in (0, 1)]


def main() -> None:
    """Print the paired tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("base", nargs="?", default="HEAD")
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--pairs", type=int, default=3, help="pairs per CPU assignment")
    parser.add_argument("--starts", type=int, default=0)
    parser.add_argument("--instructions", action="store_true", help="count, under cachegrind")
    parser.add_argument("--runs", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.runs:  # the process cachegrind counts
        size, runs = args.runs
        sys.path.insert(0, str(HERE))
        from optimize_profile import run_once
        from pass_scaling import chain_graph

        base = chain_graph(size)
        for _ in range(runs):
            run_once(base, False, [])
        return
    cpus = sorted(os.sched_getaffinity(0))[:2]
    if len(cpus) < 2:
        raise SystemExit("needs two CPUs (the pair runs at the same time)")
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.base],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        exported = export(args.base, Path(tmp))
        base_env = dict(os.environ, PYTHONPATH=str(exported))
        own_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        envs = (base_env, own_env)
        if not imported_from(base_env).is_relative_to(exported.resolve()):
            raise SystemExit(f"{args.base} is not what PYTHONPATH={exported} imports")
        if imported_from(own_env) != ROOT / "passes":
            raise SystemExit(f"this python does not import xrelay from {ROOT}")
        print(f"A = {args.base} ({commit})\nB = the working tree of {ROOT}")
        if args.instructions:
            a, b = per_op_instructions(envs, args.size)
            print(f"\ninstructions per op of `optimize` at {args.size:,} ops:")
            print(
                f"| A | B | B / A |\n| ---: | ---: | ---: |\n| {a:,.0f} | {b:,.0f} | {b / a:.4f} |"
            )
            return
        kinds = [("optimize", args.size, f"µs/op at {args.size:,} ops")]
        if args.starts:
            kinds.append(("startup", args.starts, "s per xrelay-opt start"))
        pythons = (sys.executable, sys.executable)
        for kind, count, unit in kinds:
            paired_table(pythons, (cpus[0], cpus[1]), kind, count, unit, args.pairs, envs)


if __name__ == "__main__":
    main()
