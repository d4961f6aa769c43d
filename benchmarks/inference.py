"""Inference latency of xrelay's targets against onnxruntime and numpy, side by side (issue 7).

    python benchmarks/inference.py [--quick] [--sizes 224 32] [--models tinyres mlp]
        [--threads 1 2] [--rounds N] [--runners c accel dnnl onnxruntime numpy]

Models (`inference_models.py`), every runner built from the same numpy weights: tinyres
at 1x3xSxS for each `--sizes` S, and a dense-heavy MLP (1x1024 -> 4096 -> 4096
-> 1000). Runners: xrelay `c` (`target="c"`), `accel` (`["accel", "c"]`),
`dnnl` (`["dnnl", "c"]`; `n/a (reason)` while `xrelay.build` refuses the
target), `onnxruntime` (an ONNX model written with `onnx.helper`) and `numpy`
(im2col + matmul). onnx, onnxruntime and threadpoolctl come with
`pip install -e '.[bench]'`; without onnxruntime that runner is skipped with a note.

Every xrelay library is built once per case in an empty cache (so the C
compiler really runs; one per thread count if `xrelay.build` has a
`num_threads` option). Each thread count then runs in its own process
(`inference_runners.py`; `OMP_NUM_THREADS` set before any library loads, `HOME` a
temporary folder for onnxruntime's telemetry), which checks every output
against a float64 numpy forward pass, warms up, and times the runners
interleaved: `--rounds` round-robin rounds, each turn one untimed call and up
to 20 timed ones. The exit status is 1 if any output disagrees.

Prints Markdown: median latency with GFLOP/s (conv and dense MACs x 2) and the
ratio to onnxruntime's latency; the build time of each library split into
passes, C emission and the C compiler; the FLOPs per op and the fastest xrelay
target of each model. Per-kernel timing is a TODO line until xrelay.build has
a profiling option.
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
from inference_runners import RTOL, worker
from xrelay.codegen.c import pipeline

import xrelay
from xrelay import IRModule

XRELAY_TARGETS = {"c": ["c"], "accel": ["accel", "c"], "dnnl": ["dnnl", "c"]}
"""The xrelay runners: `xrelay.build` targets by runner name."""
RUNNERS = (*XRELAY_TARGETS, "onnxruntime", "numpy")
INSTALL_HINT = "pip install -e '.[bench]'"
Results = dict[int, dict[str, Any]]
"""Per thread count: the worker's JSON (`cases`: title -> runner -> diff, ok, median, samples)."""


def build_xrelay(
    mod: IRModule, runner: str, threads: list[int], tmp: Path
) -> tuple[dict[str, str], dict[str, float]] | str:
    """The library's path per thread count and its build timings, or why the target is n/a."""
    known: list[str] = list(pipeline.OPTIONS)
    per_thread = "num_threads" in known
    paths: dict[str, str] = {}
    timings: dict[str, float] = {}
    for n in threads if per_thread else threads[:1]:
        options: dict[str, Any] = {"cache_dir": tempfile.mkdtemp(dir=tmp)}  # empty: a real compile
        if per_thread:
            options["num_threads"] = n
        try:
            lib = xrelay.build(mod, target=XRELAY_TARGETS[runner], options=options)
        except ValueError as error:
            if "unsupported target" not in str(error):
                raise
            return str(error).split(" (")[0]
        timings = timings or lib.timings
        paths[str(n)] = str(lib.path)
    return {str(n): paths.get(str(n), paths[str(threads[0])]) for n in threads}, timings


def fmt_time(seconds: float) -> str:
    """Milliseconds to three significant digits."""
    ms = seconds * 1e3
    return f"{ms:.3f} ms" if ms < 1 else f"{ms:.3g} ms" if ms < 100 else f"{ms:.0f} ms"


def cell(entry: dict[str, Any] | None, flops: int, ort: dict[str, Any] | None) -> str:
    """`5.97 ms, 104 GFLOP/s, 0.80x` (the last: latency over onnxruntime's)."""
    if entry is None or "median" not in entry:
        return "—"
    median = entry["median"]
    ratio = f", {median / ort['median']:.2f}x" if ort and "median" in ort else ""
    return f"{fmt_time(median)}, {flops / median / 1e9:.3g} GFLOP/s{ratio}"


def label(runner: str) -> str:
    """The runner as the table names it."""
    return f"xrelay `{json.dumps(XRELAY_TARGETS[runner])}`" if runner in XRELAY_TARGETS else runner


def run_worker(spec: Path, threads: int, tmp: Path, blas_env: bool) -> dict[str, Any]:
    """Check and time every case in a fresh process at `threads` threads."""
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "HOME": str(tmp)}
    if blas_env:  # no threadpoolctl: OpenBLAS / MKL read these when numpy loads
        env.update(OPENBLAS_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    out = tmp / f"result-{threads}.json"
    argv = [
        sys.executable,
        str(Path(__file__)),
        "--worker",
        str(spec),
        str(threads),
        str(out),
    ]
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[224, 32])
    parser.add_argument(
        "--models", nargs="+", choices=["tinyres", "mlp"], default=["tinyres", "mlp"]
    )
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=None, help="default 30, 3 with --quick")
    parser.add_argument("--runners", nargs="+", choices=RUNNERS, default=list(RUNNERS))
    parser.add_argument("--quick", action="store_true", help="few rounds: a smoke run")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    return parser.parse_args()


def make_case(
    model: str, size: int, runners: list[str], threads: list[int], tmp: Path, use_ort: bool
) -> tuple[dict[str, Any], list[tuple[str, str, dict[str, float]]], dict[str, list[int]]]:
    """Build every runner of one case: its spec for the workers, build timings, FLOP rows."""
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
    return case, builds, breakdown


def main() -> None:
    """Build every runner, time them in one process per thread count, print the tables."""
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
    builds: list[tuple[str, str, dict[str, float]]] = []
    flop_rows: list[tuple[str, dict[str, list[int]]]] = []
    with tempfile.TemporaryDirectory(prefix="xrelay-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for model in args.models:
            for size in args.sizes if model == "tinyres" else [0]:
                case, built, breakdown = make_case(model, size, runners, args.threads, tmp, use_ort)
                cases.append(case)
                builds += built
                flop_rows.append((case["title"], breakdown))
        spec = tmp / "spec.json"
        spec.write_text(json.dumps({"cases": cases, "rounds": rounds, "quick": args.quick}))
        print(f"timing: {rounds} interleaved rounds per thread count", file=sys.stderr)
        busy = cpu_busy()
        if busy > 0.1:
            notes.append(
                f"the CPUs were {busy:.0%} busy with other work just before timing: "
                "it skews the times, at 2 threads most"
            )
        results = {n: run_worker(spec, n, tmp, blas_env) for n in args.threads}
    failed = [
        f"{title}, {runner} at {n} thread(s): max diff {entry['diff']:.3g} > {entry['allowed']:.3g}"
        for n, result in results.items()
        for title, per_case in result["cases"].items()
        for runner, entry in per_case.items()
        if not entry["ok"]
    ]
    if failed:  # nothing was timed
        raise SystemExit("OUTPUTS DISAGREE with the float64 reference:\n  " + "\n  ".join(failed))
    print_latency(cases, results, args.threads, runners, notes)
    print_builds(builds)
    print_flops(flop_rows, cases, results, args.threads)
    print("\nper-kernel timing: TODO (needs a profiling build option in xrelay.build)")


def print_latency(
    cases: list[dict[str, Any]],
    results: Results,
    threads: list[int],
    runners: list[str],
    notes: list[str],
) -> None:
    """The latency table, then each runner's largest difference from the reference."""
    print("| model | runner | " + " | ".join(f"{n} thread{'s' * (n > 1)}" for n in threads) + " |")
    print("| --- | --- |" + " --- |" * len(threads))
    diffs: list[str] = []
    for case in cases:
        model = f"{case['title']} ({case['flops'] / 1e6:.1f} MFLOP)"
        for runner in runners:
            if runner in case["na"]:
                cells = [f"n/a ({case['na'][runner]})"] + ["n/a"] * (len(threads) - 1)
            else:
                per = [results[n]["cases"][case["title"]] for n in threads]
                cells = [cell(p.get(runner), case["flops"], p.get("onnxruntime")) for p in per]
                worst = max(p[runner]["diff"] for p in per)
                diffs.append(f"{case['title']} {runner} {worst:.2g}")
            print(f"| {model} | {label(runner)} | " + " | ".join(cells) + " |")
    first = results[threads[0]]
    samples = {e.get("samples", 0) for c in first["cases"].values() for e in c.values()}
    versions = ", ".join(f"{k} {v}" for k, v in first["versions"].items())
    dims = " → ".join(map(str, MLP_DIMS))
    print(
        f"\nMedians of {min(samples, default=0)} to {max(samples, default=0)} calls per runner, "
        "timed interleaved; GFLOP/s counts conv and dense MACs x 2; the ratio is the latency over "
        f"onnxruntime's (< 1 is faster). mlp: 1 x {dims}, dense + bias + relu. {versions}."
    )
    print(
        f"Max |output - float64 reference| (need <= {RTOL} x max |reference|): "
        + "; ".join(diffs)
        + "."
    )
    for note in notes:
        print(f"Note: {note}.")


def print_builds(builds: list[tuple[str, str, dict[str, float]]]) -> None:
    """Build time of every xrelay library, split into its steps."""
    if not builds:
        return
    print("\n| model | target | passes | C emission | C compiler | total |")
    print("| --- | --- | --- | --- | --- | --- |")
    for title, runner, t in builds:
        steps = [t.get(k, 0.0) for k in ("passes", "emit", "compile")]
        times = " | ".join(f"{s * 1e3:.0f} ms" for s in [*steps, sum(steps)])
        print(f"| {title} | {label(runner)} | {times} |")


def print_flops(
    flop_rows: list[tuple[str, dict[str, list[int]]]],
    cases: list[dict[str, Any]],
    results: Results,
    threads: list[int],
) -> None:
    """Where the FLOPs are, and the fastest xrelay target of each model."""
    print("\n| model | op | calls | MFLOP | share |")
    print("| --- | --- | --- | --- | --- |")
    for title, rows in flop_rows:
        total = sum(row[1] for row in rows.values()) or 1
        for op, (calls, flops) in sorted(rows.items(), key=lambda item: -item[1][1]):
            share = f"{100 * flops / total:.1f}%" if flops else "—"
            print(f"| {title} | {op} | {calls} | {flops / 1e6:.1f} | {share} |")
    for case in cases:
        per_case = results[threads[0]]["cases"][case["title"]]
        timed = {r: per_case[r]["median"] for r in case["libs"]}
        if timed:
            best = min(timed, key=lambda r: timed[r])
            print(
                f"fastest xrelay target, {case['title']} at {threads[0]} thread(s): "
                f"{label(best)} ({fmt_time(timed[best])})"
            )


if __name__ == "__main__":
    main()
