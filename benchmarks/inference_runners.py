"""The timing processes of `inference.py`, started with `OMP_NUM_THREADS` set.

Runners: xrelay libraries through the raw C ABI on preallocated buffers,
onnxruntime with `intra_op_num_threads` and an IOBinding, numpy under
`threadpool_limits` when threadpoolctl is installed (`make_runners`). Two kinds
of process:

- one process per thread count (`worker`: `python benchmarks/inference.py
  --worker SPEC THREADS OUT`) loads every runner of every case in SPEC, checks
  each output against the float64 reference (`inference_cases.py`), and, when all agree,
  times the runners interleaved; it writes per-runner max differences and
  medians to OUT as JSON;
- one process per runner (`serve`, a `multiprocessing` spawn target driven by
  `inference_processes.py`) loads one runner of one case, sends its output
  once, then answers requests: warm up, time a batch, profile.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import importlib.util
import json
import statistics
import sys
import time
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np
from inference_models import Array, numpy_forward, numpy_params, weights_of
from xrelay.codegen.runtime.loader import Library
from xrelay.codegen.runtime.profile import ProfileEntry

RTOL = 1e-4
"""An output agrees when max |output - reference| <= RTOL * max |reference| (issue 16)."""
WARM_MOST = 0.5
"""Warm-up stops after this many seconds (see `warm_up`)."""
UNTIMED_UNDER = 0.02
"""Runners faster than this (seconds per call) get an untimed call before each turn."""
MIN_ROUNDS = 5
"""The fewest rounds a case gets however long its slowest runner takes (2 with --quick)."""


class XrelayModel:
    """One instance of a model library, run through the raw C ABI on preallocated buffers.

    Never destroyed: it lives as long as the timing process."""

    def __init__(self, path: str, x: Array) -> None:
        info = Library(path).outputs[0]
        self.out: Array = np.empty(info.shape, info.dtype)
        self._dll = dll = ctypes.CDLL(path)
        dll.xrelay_model_create.restype = ctypes.c_void_p
        dll.xrelay_model_run.restype = ctypes.c_int32
        pointers = ctypes.POINTER(ctypes.c_void_p)
        dll.xrelay_model_run.argtypes = (ctypes.c_void_p, pointers, pointers)
        self._model = dll.xrelay_model_create()
        if not self._model:
            raise RuntimeError(f"xrelay_model_create failed for {path}")
        self._x = x  # the input buffer the pointers below refer to
        self._inputs = (ctypes.c_void_p * 1)(x.ctypes.data)
        self._outputs = (ctypes.c_void_p * 1)(self.out.ctypes.data)

    def __call__(self) -> None:
        if self._dll.xrelay_model_run(self._model, self._inputs, self._outputs) != 0:
            raise RuntimeError("xrelay_model_run failed")


def make_runners(
    case: dict[str, Any], threads: int, x: Array, only: str | None = None
) -> dict[str, Any]:
    """name -> (call, output getter) for every available runner of a case (or just `only`)."""
    runners: dict[str, Any] = {}
    for name, paths in case["libs"].items():
        if only in (None, name):
            lib = XrelayModel(paths[str(threads)], x)
            runners[name] = (lib, lambda lib=lib: lib.out)
    if case["onnx"] and only in (None, "onnxruntime"):
        ort: Any = importlib.import_module("onnxruntime")
        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        options.log_severity_level = 3  # errors only: not the light models' unused initializers
        session = ort.InferenceSession(case["onnx"], options, providers=["CPUExecutionProvider"])
        out = np.empty(case["out_shape"], np.float32)
        binding = session.io_binding()
        binding.bind_cpu_input(session.get_inputs()[0].name, x)
        output_name = session.get_outputs()[0].name
        binding.bind_output(output_name, "cpu", 0, np.float32, list(out.shape), out.ctypes.data)
        runners["onnxruntime"] = (lambda: session.run_with_iobinding(binding), lambda: out)
    if case["numpy"] and only in (None, "numpy"):
        q = numpy_params(case["model"], weights_of(case["model"], case["size"]), np.float32)
        last: list[Array] = [x]

        def run_numpy() -> None:
            last[0] = numpy_forward(case["model"], q, x)

        runners["numpy"] = (run_numpy, lambda: last[0])
    return runners


def warm_up(call: Any, quick: bool) -> float:
    """Run `call` a few times: once with `quick`, else at least 3 times and 0.1 s, or just
    once or twice when a call takes more than `WARM_MOST` seconds. The seconds per call."""
    start, calls = time.perf_counter(), 0
    while True:
        call()
        calls += 1
        elapsed = time.perf_counter() - start
        if quick or elapsed >= WARM_MOST or (calls >= 3 and elapsed >= 0.1):
            return elapsed / calls


def budget_rounds(rounds: int, seconds_per_round: float, budget: float, quick: bool) -> int:
    """`rounds`, fewer if they would take longer than `budget` seconds (at least
    `MIN_ROUNDS`, 2 with `quick`): a runner hundreds of times slower than the others
    would otherwise hold the whole benchmark."""
    fit = int(budget / max(seconds_per_round, 1e-9))
    return max(min(rounds, 2 if quick else MIN_ROUNDS), min(rounds, fit))


def time_interleaved(
    runners: dict[str, Any], rounds: int, quick: bool, budget: float
) -> dict[str, list[float]]:
    """Per-call seconds of each runner: warm-up, then `rounds` round-robin turns (fewer when
    they would exceed `budget` seconds: `budget_rounds`). Each turn starts with an untimed
    call, except for runners slower than `UNTIMED_UNDER`."""
    reps: dict[str, int] = {}
    estimates: dict[str, float] = {}
    for name, (call, _) in runners.items():
        estimates[name] = estimate = warm_up(call, quick)
        reps[name] = max(1, min(3 if quick else 20, round(0.005 / estimate)))
    untimed = {name: estimates[name] < UNTIMED_UNDER for name in runners}
    per_round = sum(estimates[n] * (reps[n] + untimed[n]) for n in runners)
    rounds = budget_rounds(rounds, per_round, budget, quick)
    samples: dict[str, list[float]] = {name: [] for name in runners}
    order = list(runners)
    gc.disable()
    try:
        for index in range(rounds):
            for name in order if index % 2 == 0 else reversed(order):
                call = runners[name][0]
                if untimed[name]:
                    call()  # untimed: lets the previous runner's spinning threads settle
                for _ in range(reps[name]):
                    start = time.perf_counter()
                    call()
                    samples[name].append(time.perf_counter() - start)
    finally:
        gc.enable()
    return samples


def limit_blas(threads: int) -> Any:
    """numpy's BLAS held to `threads` threads (threadpoolctl), None without threadpoolctl."""
    if not importlib.util.find_spec("threadpoolctl"):
        return None
    return importlib.import_module("threadpoolctl").threadpool_limits(threads, "blas")


def reference(case: dict[str, Any]) -> Array:
    """The case's float64 reference output (`inference_cases.py` saved it)."""
    return np.load(case["reference"])


def agreement(output: Array, want: Array) -> dict[str, Any]:
    """`diff` (max |output - want|), `allowed` and `ok` (diff <= allowed)."""
    diff = float(np.max(np.abs(output - want)))
    allowed = RTOL * float(np.max(np.abs(want)))
    return {"diff": diff, "allowed": allowed, "ok": diff <= allowed}


def versions(spec: dict[str, Any]) -> dict[str, str]:
    """numpy's version (with its BLAS when threadpoolctl can tell) and onnxruntime's if used."""
    found = {"numpy": np.__version__}
    if importlib.util.find_spec("threadpoolctl"):
        info = importlib.import_module("threadpoolctl").threadpool_info()
        blas = [f"{i['internal_api']} {i['version']}" for i in info if i["user_api"] == "blas"]
        found["numpy"] += f" ({', '.join(blas)})" if blas else ""
    if any(c["onnx"] for c in spec["cases"]):
        found["onnxruntime"] = importlib.import_module("onnxruntime").__version__
    return found


def worker(spec_path: str, threads: int, out_path: str) -> None:
    """Check and time every case at `threads` threads; write the results as JSON."""
    spec = json.loads(Path(spec_path).read_text())
    limits = limit_blas(threads)
    results: dict[str, Any] = {}
    for case in spec["cases"]:
        print(f"  {case['title']}, {threads} thread(s), one process", file=sys.stderr, flush=True)
        want = reference(case)
        runners = make_runners(case, threads, np.load(case["input"]))
        entry: dict[str, Any] = {}
        for name, (call, output) in runners.items():
            call()
            entry[name] = agreement(output(), want)
        if all(e["ok"] for e in entry.values()):
            timed = time_interleaved(runners, spec["rounds"], spec["quick"], spec["budget"])
            for name, seconds in timed.items():
                entry[name].update(median=statistics.median(seconds), samples=len(seconds))
        results[case["title"]] = entry
    del limits
    Path(out_path).write_text(json.dumps({"cases": results, "versions": versions(spec)}))


def serve(conn: Connection, case: dict[str, Any], name: str, threads: int) -> None:
    """One runner in its own process: send its output once, then answer `(request, arg)`:
    `("warm", quick)` -> seconds per call; `("batch", k)` -> the seconds of `k` timed calls
    (after one untimed call); `("profile", runs)` -> an xrelay profiling build's entries,
    medians over `runs` calls (`profile_runs`); `("stop", None)` ends the process."""
    limits = limit_blas(threads)
    call, output = make_runners(case, threads, np.load(case["input"]), only=name)[name]
    call()
    conn.send(np.array(output(), copy=True))
    while True:
        request, arg = conn.recv()
        if request == "warm":
            conn.send(warm_up(call, bool(arg)))
        elif request == "batch":
            conn.send(time_batch(call, int(arg)))
        elif request == "profile":
            lib = Library(case["libs"][name][str(threads)])  # the same loaded library
            conn.send(profile_runs(lib, call, int(arg)))
        else:
            break
    del limits


def profile_runs(lib: Library, call: Any, runs: int) -> list[ProfileEntry]:
    """A profiling build's entries, each with its median over `runs` calls of the model (the
    counters read after each call): `calls` and `seconds` per run."""
    per_run: list[list[ProfileEntry]] = []
    gc.disable()
    try:
        for _ in range(runs):
            lib.reset_profile()
            call()
            per_run.append(lib.profile())
    finally:
        gc.enable()
    return [
        replace(
            entry,
            calls=round(statistics.median(run[entry.index].calls for run in per_run)),
            seconds=statistics.median(run[entry.index].seconds for run in per_run),
        )
        for entry in per_run[0]
    ]


def time_batch(call: Any, count: int) -> list[float]:
    """One untimed call, then the seconds of each of `count` calls (the collector off)."""
    call()
    samples: list[float] = []
    gc.disable()
    try:
        for _ in range(count):
            start = time.perf_counter()
            call()
            samples.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return samples
