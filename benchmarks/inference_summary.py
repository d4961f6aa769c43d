"""Issue 16's requirements as `inference.py` checks them: the best xrelay target per model,
the "Must show" lines (latency ratios, build times), and which models to profile."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from inference_report import Results, label
from xdsl.dialects.builtin import ModuleOp

HOST_MOST = 2.0
"""Host `c` alone: at most this ratio to onnxruntime on every model at 1 thread."""
BEST_MOST = 1.0
"""The best xrelay target: at most this ratio on every model, at every thread count."""
COLD_MOST, CACHED_MOST = 30.0, 0.5
"""Seconds a cold build (empty cache) and a cached one (same module, same cache) may take."""


@dataclass
class BuildTime:
    """One model's build for one target: `passes`, `emit`, `compile` and wall `total` seconds
    of the cold build and of the cached one."""

    title: str
    runner: str
    cold: dict[str, float]
    cached: dict[str, float]
    host: str = ""
    """The relay ops a BYOC target left to host C (`host_ops`)."""


@dataclass
class Built:
    """An xrelay runner's library per thread count (str) and its build times."""

    paths: dict[str, str]
    times: BuildTime


def host_ops(module: ModuleOp) -> str:
    """The relay ops of a lowered module outside its BYOC functions, counted by name."""
    ops: Counter[str] = Counter()
    for function in module.ops:
        if "Compiler" in function.attributes:
            continue
        for op in function.walk():
            if op.name.startswith("relay.") and op.name != "relay.constant":
                ops[op.name.removeprefix("relay.").removeprefix("nn.")] += 1
    return ", ".join(f"{name} x{n}" for name, n in sorted(ops.items())) or "none"


def medians(results: Results, n: int, title: str) -> dict[str, float]:
    """runner -> median seconds of a case at `n` threads (timed runners only)."""
    per_case: dict[str, Any] = results[n]["cases"].get(title, {})
    return {r: float(e["median"]) for r, e in per_case.items() if "median" in e}


def xrelay_runners(case: dict[str, Any]) -> list[str]:
    """The xrelay runners built for a case."""
    return list(case["libs"])


def best_of(case: dict[str, Any], timed: dict[str, float]) -> str | None:
    """The fastest timed xrelay runner of a case."""
    mine = [r for r in xrelay_runners(case) if r in timed]
    return min(mine, key=lambda r: timed[r]) if mine else None


def badness(case: dict[str, Any], timed: dict[str, float], runner: str) -> float:
    """How far `runner` is from onnxruntime (its ratio), or its seconds per GFLOP without
    onnxruntime: the larger, the worse."""
    if "onnxruntime" in timed:
        return timed[runner] / timed["onnxruntime"]
    return timed[runner] / max(case["flops"], 1) * 1e9


def profile_picks(cases: list[dict[str, Any]], results: Results) -> list[tuple[str, str, str]]:
    """(why, title, runner) to profile at the first thread count: the model whose best xrelay
    target is furthest from onnxruntime, and the one where host `c` is (once if the same)."""
    n = min(results)
    worst: dict[str, tuple[float, str, str]] = {}
    for case in cases:
        timed = medians(results, n, case["title"])
        best = best_of(case, timed)
        if best is None:
            continue
        picks = {"worst model for the best xrelay target": best}
        if "c" in timed:
            picks["worst model for host c"] = "c"
        for why, runner in picks.items():
            score = badness(case, timed, runner)
            if why not in worst or score > worst[why][0]:
                worst[why] = (score, case["title"], runner)
    chosen: list[tuple[str, str, str]] = []
    for why, (_, title, runner) in worst.items():
        same = [i for i, c in enumerate(chosen) if c[1:] == (title, runner)]
        if same:
            chosen[same[0]] = (f"{chosen[same[0]][0]}; {why}", title, runner)
        else:
            chosen.append((why, title, runner))
    return chosen


def _verdict(misses: list[str], checked: int) -> str:
    if not checked:
        return "n/a (nothing timed against onnxruntime)"
    if not misses:
        return f"met ({checked} models)"
    return f"NOT MET on {len(misses)} of {checked}: " + ", ".join(misses)


def print_requirements(
    cases: list[dict[str, Any]], results: Results, threads: list[int], use_ort: bool
) -> None:
    """Issue 16's "Must show" latency lines: met / not met, and where not."""
    print("\nMust show (issue 16):")
    if not use_ort:
        print("- latency ratios: n/a (no onnxruntime: the ratios need it)")
        return
    n1 = min(threads)
    misses: list[str] = []
    checked = 0
    for case in cases:
        timed = medians(results, n1, case["title"])
        if "c" in timed and "onnxruntime" in timed:
            checked += 1
            ratio = timed["c"] / timed["onnxruntime"]
            if ratio > HOST_MOST:
                misses.append(f"{case['title']} {ratio:.2f}x")
    verdict = _verdict(misses, checked)
    print(f"- host `c` <= {HOST_MOST}x onnxruntime at {n1} thread{'s' * (n1 > 1)}: {verdict}")
    for n in threads:
        misses, checked = [], 0
        for case in cases:
            timed = medians(results, n, case["title"])
            best = best_of(case, timed)
            if best is None or "onnxruntime" not in timed:
                continue
            checked += 1
            ratio = timed[best] / timed["onnxruntime"]
            if ratio > BEST_MOST:
                misses.append(f"{case['title']} {ratio:.2f}x ({best})")
        verdict = _verdict(misses, checked)
        print(f"- best xrelay <= {BEST_MOST}x onnxruntime at {n} thread{'s' * (n > 1)}: {verdict}")


def print_builds(builds: list[BuildTime]) -> None:
    """Cold and cached build time of every xrelay library, split into its steps, and whether
    they meet the requirement."""
    if not builds:
        return
    print(
        "\nBuild time (first thread count; cold: an empty cache, the C compiler runs; cached: "
        "the same module built again with the same cache), passes / C emission / C compiler:"
    )
    print("\n| model | target | cold: passes | emit | compile | total | cached: total (compile) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for b in builds:
        steps = [b.cold.get(k, 0.0) for k in ("passes", "emit", "compile")]
        times = " | ".join(f"{s * 1e3:.0f} ms" for s in [*steps, b.cold["total"]])
        again = f"{b.cached['total'] * 1e3:.0f} ms ({b.cached.get('compile', 0.0) * 1e3:.0f} ms)"
        print(f"| {b.title} | {label(b.runner)} | {times} | {again} |")
    for what, key, most in (("cold", "cold", COLD_MOST), ("cached", "cached", CACHED_MOST)):
        worst = max(builds, key=lambda b: getattr(b, key)["total"])
        seconds = getattr(worst, key)["total"]
        over = [b for b in builds if getattr(b, key)["total"] > most]
        where = ", ".join(
            f"{b.title} {label(b.runner)} {getattr(b, key)['total']:.2f} s" for b in over
        )
        verdict = f"NOT MET: {where}" if over else "met"
        print(
            f"- {what} build <= {most} s: {verdict} (slowest: {worst.title} "
            f"{label(worst.runner)}, {seconds:.2f} s)"
        )
    byoc = [b for b in builds if b.host]
    if byoc:
        print("\n| model | target | relay ops left to host C |")
        print("| --- | --- | --- |")
        for b in byoc:
            print(f"| {b.title} | {label(b.runner)} | {b.host} |")
