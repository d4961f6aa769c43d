"""Inference latency of xrelay's targets against onnxruntime and numpy, side by side (issue 7).

    python benchmarks/inference.py [--quick] [--sizes 224 32] [--models tinyres mlp]
        [--threads 1 2] [--rounds N] [--runners c accel dnnl onnxruntime numpy]
        [--one-process] [--no-profile]

Models (`inference_models.py`), every runner built from the same numpy weights: tinyres
at 1x3xSxS for each `--sizes` S, and a dense-heavy MLP (1x1024 -> 4096 -> 4096
-> 1000). Runners: xrelay `c` (`target="c"`), `accel` (`["accel", "c"]`),
`dnnl` (`["dnnl", "c"]`; `n/a (reason)` while `xrelay.build` refuses the
target), `onnxruntime` (an ONNX model written with `onnx.helper`) and `numpy`
(im2col + matmul). onnx, onnxruntime and threadpoolctl come with
`pip install -e '.[bench]'`; without onnxruntime that runner is skipped with a note.

Every xrelay library is built once per case and thread count (`num_threads`)
in an empty cache, so the C compiler really runs. Timing, with `OMP_NUM_THREADS`
set before any library loads and `HOME` a temporary folder (onnxruntime's
telemetry); each output is first checked against a float64 numpy forward pass:

- 1 thread (and every thread count with `--one-process`): one process per
  thread count (`inference_runners.worker`) times the runners interleaved:
  `--rounds` round-robin rounds, each turn one untimed call and up to 20 timed
  ones. On one thread no runtime keeps idle threads that could disturb the next.
- more threads: one process per runner (`inference_processes.py`), the parent
  asking each in turn for a batch of timed calls, `--rounds` rounds, waiting
  after each batch until that process's threads are quiet: onnxruntime's and
  libgomp's idle threads spin for milliseconds after a run, and in one process
  they would take a CPU from whichever runner is timed next.

Then, per model and thread count, the fastest xrelay target is built again with
the option `profile` and run in its own process (apart from the timed runs, so
the timers do not touch the table) for its per-kernel time (`--no-profile`
skips it). The exit status is 1 if any output disagrees.

Prints Markdown: median latency with GFLOP/s (conv and dense MACs x 2) and the
ratio to onnxruntime's latency; the build time of each library split into
passes, C emission and the C compiler; the FLOPs per op; the per-kernel time.
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

import numpy as np
from inference_models import (
    MLP_DIMS,
    TINYRES_FLOPS,
    flop_breakdown,
    onnx_model,
    relay_model,
    weights_of,
)
from inference_processes import profile_in_process, time_in_processes
from inference_report import (
    XRELAY_TARGETS,
    KernelProfile,
    Results,
    print_builds,
    print_flops,
    print_kernels,
    print_latency,
)
from inference_runners import worker

import xrelay
from xrelay import IRModule

RUNNERS = (*XRELAY_TARGETS, "onnxruntime", "numpy")
INSTALL_HINT = "pip install -e '.[bench]'"
PROFILE_SECONDS = 0.5
"""How long the profiling build runs, about (at least 5 runs, 2 with --quick)."""


def build_xrelay(
    mod: IRModule, runner: str, threads: list[int], tmp: Path
) -> tuple[dict[str, str], dict[str, float]] | str:
    """The library's path per thread count and its build timings, or why the target is n/a."""
    paths: dict[str, str] = {}
    timings: dict[str, float] = {}
    for n in threads:
        options = {"cache_dir": tempfile.mkdtemp(dir=tmp), "num_threads": n}  # a real compile
        try:
            lib = xrelay.build(mod, target=XRELAY_TARGETS[runner], options=options)
        except ValueError as error:
            if "unsupported target" not in str(error):
                raise
            return str(error).split(" (")[0]
        timings = timings or lib.timings
        paths[str(n)] = str(lib.path)
    return paths, timings


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
    parser.add_argument("--sizes", type=int, nargs="+", default=[224, 32])
    parser.add_argument(
        "--models", nargs="+", choices=["tinyres", "mlp"], default=["tinyres", "mlp"]
    )
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=None, help="default 30, 3 with --quick")
    parser.add_argument("--runners", nargs="+", choices=RUNNERS, default=list(RUNNERS))
    parser.add_argument("--quick", action="store_true", help="few rounds: a smoke run")
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="time every thread count with all runners in one process, interleaved "
        "(the default for 1 thread; more threads default to one process per runner)",
    )
    parser.add_argument(
        "--no-profile", action="store_true", help="skip the per-kernel time of the fastest target"
    )
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    return parser.parse_args()


def make_case(
    model: str, size: int, runners: list[str], threads: list[int], tmp: Path, use_ort: bool
) -> tuple[dict[str, Any], IRModule, list[tuple[str, str, dict[str, float]]], dict[str, list[int]]]:
    """Build every runner of one case: its spec, module, build timings and FLOP rows."""
    title = f"tinyres {size}" if model == "tinyres" else "mlp"
    print(f"building {title}", file=sys.stderr, flush=True)
    mod = relay_model(model, size)
    breakdown = flop_breakdown(mod)
    flops = sum(row[1] for row in breakdown.values())
    if model == "tinyres" and flops != TINYRES_FLOPS.get(size, flops):
        raise SystemExit(f"tinyres {size}: counted {flops} FLOPs, want {TINYRES_FLOPS[size]}")
    shape = (1, 3, size, size) if model == "tinyres" else (1, MLP_DIMS[0])
    x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    np.save(tmp / f"{title}.npy", x)
    case: dict[str, Any] = {
        "title": title, "model": model, "size": size, "flops": flops, "libs": {}, "na": {},
        "input": str(tmp / f"{title}.npy"), "onnx": None, "numpy": "numpy" in runners,
        "out_shape": [1, 10 if model == "tinyres" else MLP_DIMS[-1]],
    }  # fmt: skip
    builds: list[tuple[str, str, dict[str, float]]] = []
    for runner in (r for r in runners if r in XRELAY_TARGETS):
        built = build_xrelay(mod, runner, threads, tmp)
        if isinstance(built, str):
            case["na"][runner] = built
        else:
            case["libs"][runner] = built[0]
            builds.append((title, runner, built[1]))
    if use_ort:
        case["onnx"] = str(tmp / f"{title}.onnx")
        Path(case["onnx"]).write_bytes(onnx_model(model, size, weights_of(model, size)))
    return case, mod, builds, breakdown


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


def profile_fastest(
    cases: list[dict[str, Any]],
    mods: dict[str, IRModule],
    results: Results,
    tmp: Path,
    blas_env: bool,
    quick: bool,
) -> list[KernelProfile]:
    """Per case and thread count: build the fastest xrelay target with `profile` and run it
    in a process of its own."""
    profiles: list[KernelProfile] = []
    for case in cases:
        for n, result in results.items():
            per_case = result["cases"][case["title"]]
            timed = {r: per_case[r]["median"] for r in case["libs"] if "median" in per_case[r]}
            if not timed:
                continue
            best = min(timed, key=lambda r: timed[r])
            print(f"profiling {case['title']}, {best}, {n} thread(s)", file=sys.stderr, flush=True)
            options = {"cache_dir": tmp / "profile-cache", "num_threads": n, "profile": True}
            lib = xrelay.build(mods[case["title"]], XRELAY_TARGETS[best], options=options)
            runs = 2 if quick else max(5, min(1000, round(PROFILE_SECONDS / timed[best])))
            alone = {**case, "libs": {best: {str(n): str(lib.path)}}, "onnx": None, "numpy": False}
            checked, entries = profile_in_process(alone, best, n, runs, tmp, blas_env)
            profiles.append(
                KernelProfile(case["title"], n, best, runs, timed[best], entries, checked)
            )
    return profiles


def main() -> None:
    """Build every runner, check and time them, profile the fastest, print the tables."""
    args = parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]), args.worker[2])
        return
    rounds = args.rounds or (3 if args.quick else 30)
    notes: list[str] = []
    runners = [r for r in RUNNERS if r in args.runners]
    use_ort = "onnxruntime" in runners
    if use_ort and not all(importlib.util.find_spec(m) for m in ("onnx", "onnxruntime")):
        notes.append(f"onnxruntime: n/a (onnx or onnxruntime is not installed: {INSTALL_HINT})")
        print(f"note: {notes[-1]}", file=sys.stderr)
        runners.remove("onnxruntime")
        use_ort = False
    blas_env = "numpy" in runners and not importlib.util.find_spec("threadpoolctl")
    if blas_env:
        notes.append(f"numpy's threads set by environment: no threadpoolctl ({INSTALL_HINT})")
    cases: list[dict[str, Any]] = []
    mods: dict[str, IRModule] = {}
    builds: list[tuple[str, str, dict[str, float]]] = []
    flop_rows: list[tuple[str, dict[str, list[int]]]] = []
    with tempfile.TemporaryDirectory(prefix="xrelay-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for model in args.models:
            for size in args.sizes if model == "tinyres" else [0]:
                case, mod, built, rows = make_case(model, size, runners, args.threads, tmp, use_ort)
                cases.append(case)
                mods[case["title"]] = mod
                builds += built
                flop_rows.append((case["title"], rows))
        spec = tmp / "spec.json"
        spec.write_text(json.dumps({"cases": cases, "rounds": rounds, "quick": args.quick}))
        print(f"timing: {rounds} rounds per thread count", file=sys.stderr)
        busy = cpu_busy()
        if busy > 0.1:
            notes.append(
                f"the CPUs were {busy:.0%} busy with other work just before timing: "
                "it skews the times, at 2 threads most"
            )
        results = time_all(spec, args.threads, tmp, blas_env, args.one_process)
        failed = [
            f"{title}, {runner} at {n} thread(s): max diff {e['diff']:.3g} > {e['allowed']:.3g}"
            for n, result in results.items()
            for title, per_case in result["cases"].items()
            for runner, e in per_case.items()
            if not e["ok"]
        ]
        if failed:  # nothing was timed
            raise SystemExit(
                "OUTPUTS DISAGREE with the float64 reference:\n  " + "\n  ".join(failed)
            )
        profiles = (
            []
            if args.no_profile
            else profile_fastest(cases, mods, results, tmp, blas_env, args.quick)
        )
    print_latency(cases, results, args.threads, runners, notes)
    print_builds(builds)
    print_flops(flop_rows)
    print_kernels(profiles)
    if any(not p.agreement["ok"] for p in profiles):
        raise SystemExit("OUTPUTS DISAGREE: a profiling build's output (see above)")


if __name__ == "__main__":
    main()
