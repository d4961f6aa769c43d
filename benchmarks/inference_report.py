"""The Markdown tables `inference.py` prints: latency, FLOPs, per-kernel time (the build
times and the requirement lines: `inference_summary.py`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inference_runners import RTOL
from xrelay.codegen.runtime.profile import ProfileEntry, ordered

XRELAY_TARGETS = {"c": ["c"], "accel": ["accel", "c"], "dnnl": ["dnnl", "c"]}
"""The xrelay runners: `xrelay.build` targets by runner name."""

Results = dict[int, dict[str, Any]]
"""Per thread count: the timing's JSON (`cases`: title -> runner -> diff, ok, median, samples;
`versions`; `mode`)."""


@dataclass
class KernelProfile:
    """The per-kernel time of one case's fastest xrelay target at one thread count."""

    title: str
    threads: int
    runner: str
    runs: int
    timed: float
    """The runner's median in the latency table (seconds)."""
    entries: list[ProfileEntry]
    """Calls and seconds of each entry per run: medians over the runs."""
    agreement: dict[str, Any]
    """The profiling build's output against the reference (`inference_runners.agreement`)."""
    why: str = ""
    """Why this model and target were profiled."""


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


def best_cell(case: dict[str, Any], per_case: dict[str, Any]) -> str:
    """`accel, 0.80x` (or `accel, 5.97 ms` without onnxruntime): the fastest xrelay target."""
    timed = {r: per_case[r]["median"] for r in case["libs"] if "median" in per_case.get(r, {})}
    if not timed:
        return "—"
    best = min(timed, key=lambda r: timed[r])
    ort = per_case.get("onnxruntime", {})
    if "median" in ort:
        return f"{best}, {timed[best] / ort['median']:.2f}x"
    return f"{best}, {fmt_time(timed[best])}"


def label(runner: str) -> str:
    """The runner as the table names it."""
    return f"xrelay `{json.dumps(XRELAY_TARGETS[runner])}`" if runner in XRELAY_TARGETS else runner


def print_latency(
    cases: list[dict[str, Any]],
    results: Results,
    threads: list[int],
    runners: list[str],
    notes: list[str],
) -> None:
    """The latency table, how it was timed, then each runner's largest difference."""
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
                if not any(runner in p for p in per):
                    continue  # not a runner of this model (numpy, or onnxruntime without onnx)
                cells = [cell(p.get(runner), case["flops"], p.get("onnxruntime")) for p in per]
                worst = max(p[runner]["diff"] for p in per if runner in p)
                diffs.append(f"{case['title']} {runner} {worst:.2g}")
            print(f"| {model} | {label(runner)} | " + " | ".join(cells) + " |")
            model = case["title"]
        if case["libs"]:
            best = [best_cell(case, results[n]["cases"][case["title"]]) for n in threads]
            print(f"| {model} | best xrelay | " + " | ".join(best) + " |")
    first = results[threads[0]]
    samples = {
        e.get("samples", 0)
        for r in results.values()
        for c in r["cases"].values()
        for e in c.values()
    }
    versions = ", ".join(f"{k} {v}" for k, v in first["versions"].items())
    modes = "; ".join(f"{n} thread{'s' * (n > 1)}: {results[n]['mode']}" for n in threads)
    print(
        f"\nMedians of {min(samples, default=0)} to {max(samples, default=0)} calls per runner "
        f"({modes}); GFLOP/s counts conv, dense, matmul and batch_matmul MACs x 2; the ratio "
        f"is the latency over onnxruntime's (< 1 is faster); 'best xrelay' is the fastest "
        f"xrelay target. {versions}."
    )
    print(
        f"Max |output - float64 reference| (need <= {RTOL} x max |reference|): "
        + "; ".join(diffs)
        + "."
    )
    for note in notes:
        print(f"Note: {note}.")


def print_flops(flop_rows: list[tuple[str, dict[str, list[int]]]]) -> None:
    """Where the FLOPs are."""
    print("\n| model | op | calls | MFLOP | share |")
    print("| --- | --- | --- | --- | --- |")
    for title, rows in flop_rows:
        total = sum(row[1] for row in rows.values()) or 1
        for op, (calls, flops) in sorted(rows.items(), key=lambda item: -item[1][1]):
            share = f"{100 * flops / total:.1f}%" if flops else "—"
            print(f"| {title} | {op} | {calls} | {flops / 1e6:.1f} | {share} |")


def print_kernels(profiles: list[KernelProfile]) -> None:
    """Per case and thread count, the time of each kernel of the fastest xrelay target."""
    if not profiles:
        return
    print(
        "\nPer-kernel time of the worst models (below): a "
        "profiling build (option `profile`: a timer around every call of `main` and every "
        "kernel of a partition), run in a process of its own after the timing above; medians "
        "over the runs. Kernels are listed under the call that runs them, longest first."
    )
    for p in profiles:
        total = p.entries[0].seconds if p.entries else 0.0
        agrees = "" if p.agreement["ok"] else f"; OUTPUT DISAGREES ({p.agreement['diff']:.3g})"
        print(f"\n{p.why}:" if p.why else "")
        print(
            f"{p.title}, {p.threads} thread{'s' * (p.threads > 1)}: {label(p.runner)}, "
            f"median of {p.runs} runs: {fmt_time(total)} per run with timers "
            f"({fmt_time(p.timed)} timed){agrees}"
        )
        print("\n| kernel | µs per run | % of run |")
        print("| --- | --- | --- |")
        names = {e.index: e.name for e in p.entries}
        for depth, entry in ordered(p.entries):
            name = entry.name
            owner = names.get(entry.parent) if entry.parent is not None else None
            if owner is not None and name.startswith(f"{owner}/"):
                name = name[len(owner) + 1 :]  # under its function's call: the op alone
            share = f"{100 * entry.seconds / total:.1f}%" if total else "—"
            calls = f" (x{entry.calls})" if entry.calls != 1 else ""
            print(f"| {'· ' * depth}{name}{calls} | {entry.seconds * 1e6:.1f} | {share} |")
