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
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from interpreters import paired_table

ROOT = Path(__file__).resolve().parent.parent
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


def main() -> None:
    """Print the paired tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("base", nargs="?", default="HEAD")
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--pairs", type=int, default=3, help="pairs per CPU assignment")
    parser.add_argument("--starts", type=int, default=0)
    args = parser.parse_args()
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
        kinds = [("optimize", args.size, f"µs/op at {args.size:,} ops")]
        if args.starts:
            kinds.append(("startup", args.starts, "s per xrelay-opt start"))
        pythons = (sys.executable, sys.executable)
        for kind, count, unit in kinds:
            paired_table(pythons, (cpus[0], cpus[1]), kind, count, unit, args.pairs, envs)


if __name__ == "__main__":
    main()
