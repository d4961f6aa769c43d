"""Inference latency of xrelay's targets against onnxruntime on every model family (issue 16).

    python benchmarks/inference.py [--quick] [--models tinyres mobilenet ...] [--sizes 224 32]
        [--threads 1 2] [--rounds N] [--budget SECONDS]
        [--runners c accel dnnl onnxruntime numpy] [--one-process] [--no-profile]

Models (`inference_cases.py`; all but `mlp-4096` by default): tinyres at 1x3xSxS for each
`--sizes` S (default 224 and 32; 32 with `--quick`, which also times 1 thread only
unless `--threads` says otherwise); issue 16's families built with the
xrelay builder (`inference_families.py`: `mobilenet`, `resnet`, `vgg`, `transformer`,
`mlp`) and written with `onnx.helper` from the same numpy weights for onnxruntime; ONNX's
light models (`light-resnet50`, `light-densenet121`, `light-inception_v1`,
`light-squeezenet`, `light-shufflenet`: the same `.onnx` file for both, `from_onnx` for
xrelay); issue 7's 1x1024 -> 4096 -> 4096 -> 1000 MLP (`mlp-4096`). Runners: xrelay `c`
(`target="c"`), `accel` (`["accel", "c"]`), `dnnl` (`["dnnl", "c"]`; `n/a (reason)`
while `xrelay.build` refuses the target), `onnxruntime` and `numpy` (im2col + matmul;
tinyres and mlp-4096 only). onnx, onnxruntime and threadpoolctl come with
`pip install -e '.[bench]'`; without onnxruntime that runner is skipped with a note and
xrelay's runners still run (no ratios then).

Every xrelay library is built once per case and thread count (`num_threads`) in an
empty cache, so the C compiler really runs (the cold build), and the first is built
again with the same cache (the cached build). Every output is checked against the
case's float64 reference (`inference_cases.py`: max |output - reference| <= 1e-4 x max
|reference|); a case with a disagreeing output is not timed. Timing, with
`OMP_NUM_THREADS` set before any library loads and `HOME` a temporary folder
(onnxruntime's telemetry):

- 1 thread (and every thread count with `--one-process`): one process per
  thread count (`inference_runners.worker`) times the runners interleaved:
  `--rounds` round-robin rounds, each turn (for runners under 20 ms) one untimed call
  and up to 20 timed ones.
- more threads: one process per runner (`inference_processes.py`), the parent
  asking each in turn for a batch of timed calls, `--rounds` rounds, waiting
  after each batch until that process's threads are quiet: onnxruntime's and
  libgomp's idle threads spin for milliseconds after a run, and in one process
  they would take a CPU from whichever runner is timed next.

Either way a case gets fewer rounds (at least 5, 2 with `--quick`) when its rounds would
take longer than `--budget` seconds (default 20, 4 with `--quick`): host `c` can be
hundreds of times slower than the others.

Then the model whose best xrelay target is furthest from onnxruntime, and the one where
host `c` is, are built again with the option `profile` and run in their own process at
the first thread count, for their per-kernel time (`--no-profile` skips it).

Prints Markdown: median latency with GFLOP/s (conv, dense, matmul and batch_matmul MACs
x 2) and the ratio to onnxruntime's latency, the best xrelay target per model; issue 16's
"Must show" lines (host `c` <= 2x onnxruntime at 1 thread, best <= 1x at every thread
count; cold build <= 30 s, cached <= 0.5 s), met or not and where; the build times split
into passes, C emission and the C compiler; the FLOPs per op; the per-kernel time; the
run's wall time. The exit status is 1 if any output disagrees (listed at the end).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from inference_cases import DEFAULT_MODELS, MODELS, Case, load_case, spec_entry
from inference_processes import profile_in_process, time_in_processes
from inference_report import (
    XRELAY_TARGETS,
    KernelProfile,
    Results,
    print_flops,
    print_kernels,
    print_latency,
)
from inference_runners import worker
from inference_summary import (
    BuildTime,
    Built,
    host_ops,
    print_builds,
    print_requirements,
    profile_picks,
)

import xrelay

RUNNERS = (*XRELAY_TARGETS, "onnxruntime", "numpy")
INSTALL_HINT = "pip install -e '.[bench]'"
PROFILE_SECONDS = 0.5
"""How long the profiling build runs, about (at least 5 runs, 2 with --quick)."""


def build_xrelay(case: Case, runner: str, threads: list[int], tmp: Path) -> Built | str:
    """The library's path per thread count and its build times, or why the target is n/a.

    Each thread count is built in an empty cache (a cold build: the C compiler runs); the
    first is then built again with the same module, options and cache (a cached build)."""
    paths: dict[str, str] = {}
    cold: dict[str, float] = {}
    cached: dict[str, float] = {}
    host = ""
    for n in threads:
        options = {"cache_dir": tempfile.mkdtemp(dir=tmp), "num_threads": n}
        try:
            start = time.perf_counter()
            lib = xrelay.build(case.mod, XRELAY_TARGETS[runner], case.params, options)
            wall = time.perf_counter() - start
        except ValueError as error:
            if "unsupported target" not in str(error):
                raise
            return str(error).split(" (")[0]
        if not cold:
            cold = {**lib.timings, "total": wall}
            start = time.perf_counter()
            again = xrelay.build(case.mod, XRELAY_TARGETS[runner], case.params, options)
            cached = {**again.timings, "total": time.perf_counter() - start}
            host = host_ops(lib.module.module) if runner != "c" else ""
        paths[str(n)] = str(lib.path)
    return Built(paths, BuildTime(case.title, runner, cold, cached, host))


def run_worker(spec: Path, threads: int, tmp: Path, blas_env: bool) -> dict[str, Any]:
    """Check and time every case in a fresh process at `threads` threads."""
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "HOME": str(tmp)}
    if blas_env:  # no threadpoolctl: OpenBLAS / MKL read these when numpy loads
        env.update(OPENBLAS_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    out = tmp / f"result-{threads}.json"
    argv = [sys.executable, str(Path(__file__)), "--worker", str(spec), str(threads), str(out)]
    status = subprocess.run(argv, env=env, check=False).returncode
    if status != 0:
        raise SystemExit(f"the timing process for {threads} thread(s) failed (exit {status})")
    return json.loads(out.read_text())


def cpu_busy(seconds: float = 1.0) -> float:
    """The fraction of all CPUs' time spent busy (not idle) over `seconds`; 0 off Linux."""

    def sample() -> tuple[int, int]:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # total, idle + iowait

    try:
        total0, idle0 = sample()
        time.sleep(seconds)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return 0.0
    return 1 - (idle1 - idle0) / max(total1 - total0, 1)


def parse_args() -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n")[0],
        epilog="Timing, profiling and output: see the docstring of benchmarks/inference.py.",
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=None, help="tinyres's sizes")
    parser.add_argument("--models", nargs="+", choices=MODELS, default=list(DEFAULT_MODELS))
    parser.add_argument(
        "--threads", type=int, nargs="+", default=None, help="default 1 2; 1 with --quick"
    )
    parser.add_argument("--rounds", type=int, default=None, help="default 30, 3 with --quick")
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="seconds of timing per model and thread count, about (rounds are cut to fit; "
        "default 20, 4 with --quick)",
    )
    parser.add_argument("--runners", nargs="+", choices=RUNNERS, default=list(RUNNERS))
    parser.add_argument("--quick", action="store_true", help="few rounds: a smoke run")
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="time every thread count with all runners in one process, interleaved "
        "(the default for 1 thread; more threads default to one process per runner)",
    )
    parser.add_argument("--no-profile", action="store_true", help="skip the per-kernel profiles")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    return parser.parse_args()


def make_case(
    case: Case, runners: list[str], threads: list[int], tmp: Path
) -> tuple[dict[str, Any], list[BuildTime]]:
    """Build every xrelay runner of one case: its spec entry and build times."""
    entry = spec_entry(case, tmp)
    entry["numpy"] = case.numpy and "numpy" in runners
    if "onnxruntime" not in runners:
        entry["onnx"] = None
    builds: list[BuildTime] = []
    for runner in (r for r in runners if r in XRELAY_TARGETS):
        print(f"building {case.title} for {runner}", file=sys.stderr, flush=True)
        built = build_xrelay(case, runner, threads, tmp)
        if isinstance(built, str):
            entry["na"][runner] = built
        else:
            entry["libs"][runner] = built.paths
            builds.append(built.times)
    return entry, builds


def time_all(
    spec: Path, threads: list[int], tmp: Path, blas_env: bool, one_process: bool
) -> Results:
    """Every case timed at each thread count (the module docstring says how)."""
    results: Results = {}
    content = json.loads(spec.read_text())
    for n in threads:
        if n == 1 or one_process:
            results[n] = {**run_worker(spec, n, tmp, blas_env), "mode": "one process, interleaved"}
        else:
            mode = "one process per runner, alternating batches"
            results[n] = {**time_in_processes(content, n, tmp, blas_env), "mode": mode}
    return results


def profile_cases(
    picks: list[tuple[str, str, str]],
    cases: dict[str, dict[str, Any]],
    loaded: dict[str, Case],
    results: Results,
    tmp: Path,
    blas_env: bool,
    quick: bool,
) -> list[KernelProfile]:
    """Build each picked (why, case, runner) with `profile` at the first thread count and run
    it in a process of its own."""
    profiles: list[KernelProfile] = []
    n = min(results)
    for why, title, runner in picks:
        case = cases[title]
        median = float(results[n]["cases"][title][runner]["median"])
        print(f"profiling {title}, {runner}, {n} thread(s)", file=sys.stderr, flush=True)
        options = {"cache_dir": tmp / "profile-cache", "num_threads": n, "profile": True}
        source = loaded[title]
        lib = xrelay.build(source.mod, XRELAY_TARGETS[runner], source.params, options)
        runs = 2 if quick else max(5, min(1000, round(PROFILE_SECONDS / median)))
        alone = {**case, "libs": {runner: {str(n): str(lib.path)}}, "onnx": None, "numpy": False}
        checked, entries = profile_in_process(alone, runner, n, runs, tmp, blas_env)
        profiles.append(KernelProfile(title, n, runner, runs, median, entries, checked, why))
    return profiles


def disagreements(results: Results) -> list[str]:
    """Every runner output that disagrees with the float64 reference, described."""
    return [
        f"{title}, {runner} at {n} thread(s): max diff {e['diff']:.3g} > {e['allowed']:.3g}"
        for n, result in results.items()
        for title, per_case in result["cases"].items()
        for runner, e in per_case.items()
        if not e["ok"]
    ]


def importable(name: str) -> bool:
    """Whether module `name` imports (a missing or broken install: no)."""
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def ort_available(runners: list[str], notes: list[str]) -> bool:
    """Whether onnx and onnxruntime can be imported; a note (and stderr line) if not."""
    if "onnxruntime" not in runners:
        return False
    if all(importable(m) for m in ("onnx", "onnxruntime")):
        return True
    notes.append(
        f"onnxruntime: n/a (onnx or onnxruntime is not installed: {INSTALL_HINT}); "
        "xrelay's runners ran without it, so there are no ratios"
    )
    print(f"note: {notes[-1]}", file=sys.stderr, flush=True)
    runners.remove("onnxruntime")
    return False


def without_onnx(models: list[str], notes: list[str]) -> list[str]:
    """`models` without the light models when onnx cannot be imported (a note if any)."""
    light = [m for m in models if m.startswith("light-")]
    if not light or importable("onnx"):
        return models
    notes.append(f"{', '.join(light)}: skipped (onnx is not installed: {INSTALL_HINT})")
    print(f"note: {notes[-1]}", file=sys.stderr, flush=True)
    return [m for m in models if m not in light]


def main() -> None:
    """Build every runner, check and time them, profile the worst, print the tables."""
    args = parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]), args.worker[2])
        return
    began = time.perf_counter()
    rounds = args.rounds or (3 if args.quick else 30)
    budget = args.budget or (4.0 if args.quick else 20.0)
    notes: list[str] = []
    runners = [r for r in RUNNERS if r in args.runners]
    use_ort = ort_available(runners, notes)
    models = without_onnx(args.models, notes)
    blas_env = "numpy" in runners and not importlib.util.find_spec("threadpoolctl")
    if blas_env:
        notes.append(f"numpy's threads set by environment: no threadpoolctl ({INSTALL_HINT})")
    sizes = args.sizes or ([32] if args.quick else [224, 32])
    threads: list[int] = args.threads or ([1] if args.quick else [1, 2])
    cases: dict[str, dict[str, Any]] = {}
    loaded: dict[str, Case] = {}
    builds: list[BuildTime] = []
    with tempfile.TemporaryDirectory(prefix="xrelay-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for model in models:
            for size in sizes if model == "tinyres" else [0]:
                print(f"loading {model}", file=sys.stderr, flush=True)
                case = load_case(model, size, use_ort)
                entry, built = make_case(case, runners, threads, tmp)
                cases[case.title], loaded[case.title] = entry, case
                builds += built
        spec = tmp / "spec.json"
        content = {"cases": list(cases.values()), "rounds": rounds, "quick": args.quick}
        spec.write_text(json.dumps({**content, "budget": budget}))
        print(f"timing: at most {rounds} rounds per thread count", file=sys.stderr)
        busy = cpu_busy()
        if busy > 0.1:
            notes.append(
                f"the CPUs were {busy:.0%} busy with other work just before timing: "
                "it skews the times, at 2 threads most"
            )
        results = time_all(spec, threads, tmp, blas_env, args.one_process)
        failed = disagreements(results)
        picks = [] if args.no_profile else profile_picks(list(cases.values()), results)
        profiles = profile_cases(picks, cases, loaded, results, tmp, blas_env, args.quick)
    entries = list(cases.values())
    print_latency(entries, results, threads, runners, notes)
    print_requirements(entries, results, threads, use_ort)
    print_builds(builds)
    print_flops([(c.title, c.flops) for c in loaded.values()])
    print_kernels(profiles)
    print(f"\nThe whole run took {time.perf_counter() - began:.0f} s.")
    failed += [
        f"{p.title}, profiling build of {p.runner}: max diff {p.agreement['diff']:.3g}"
        for p in profiles
        if not p.agreement["ok"]
    ]
    if failed:
        print("\nOUTPUTS DISAGREE with the float64 reference:\n  " + "\n  ".join(failed))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
