"""Timing each runner in its own process, batches alternating between them (`inference.py`).

In one process, runtimes disturb each other at 2 threads: onnxruntime's and
libgomp's idle threads spin for milliseconds after a run and take a CPU from
whichever runner is timed next. Here every runner of a case gets its own
worker process (`multiprocessing`, spawn; `inference_runners.serve`), each
building its runner from the same files (library, ONNX model, weights) with
`OMP_NUM_THREADS` set. The parent checks each worker's output once against the
float64 reference, asks each to warm up, then asks the workers in turn for a
batch of timed calls (about `BATCH_SECONDS`; the order reverses every round),
so that load changes on the machine hit every runner alike. After each batch
it waits until that worker's threads are quiet (`settle`: none of them running,
by `/proc/<pid>/task/*/stat`, in `QUIET_POLLS` polls in a row; at most
`SETTLE_MOST` seconds), so no runner's spinning threads overlap the next
runner's batch (onnxruntime's spin for tens of milliseconds after a run,
longer than libgomp's). Medians are over all of a runner's calls. `profile_in_process` runs
a profiling build the same way.
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Generator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from inference_runners import agreement, budget_rounds, reference, serve, versions

BATCH_SECONDS = 0.03
"""Timed calls per batch: about this long (at least 1, at most 50 calls)."""
SETTLE_MOST = 0.3
"""The longest wait for a worker's threads to go quiet after its batch (seconds)."""
QUIET_POLLS = 3
"""A worker is quiet when none of its threads ran in this many polls in a row."""


@contextmanager
def environment(threads: int, home: Path, blas_env: bool) -> Generator[None]:
    """`os.environ` for starting workers (spawned children copy it): `OMP_NUM_THREADS`,
    `HOME` (onnxruntime's telemetry), BLAS threads when threadpoolctl is missing."""
    values = {"OMP_NUM_THREADS": str(threads), "HOME": str(home)}
    if blas_env:
        values.update(OPENBLAS_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class Worker:
    """One runner of one case in its own process (`inference_runners.serve`)."""

    def __init__(self, case: dict[str, Any], name: str, threads: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.name = name
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve, args=(child, case, name, threads), daemon=True)
        self.process.start()
        child.close()

    def output(self) -> Any:
        """The runner's output of its first call."""
        return self._receive()

    def ask(self, request: str, arg: Any = None) -> Any:
        """Send a request (see `serve`) and return the answer."""
        self.conn.send((request, arg))
        return self._receive()

    def _receive(self) -> Any:
        try:
            return self.conn.recv()
        except EOFError:
            self.process.join(5)
            raise SystemExit(
                f"the worker process of {self.name} failed (exit {self.process.exitcode})"
            ) from None

    def close(self) -> None:
        """Stop the process (kill it if it does not stop)."""
        if self.process.is_alive():
            with suppress(OSError):
                self.conn.send(("stop", None))
            self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def running_threads(pid: int) -> int | None:
    """How many of a process's threads are running or runnable now (state `R` in
    `/proc/<pid>/task/*/stat`), or None where `/proc` cannot tell.

    Not CPU time: `schedstat` and `stat` advance a running thread's time only at scheduler
    ticks (4 ms here), so two reads 2 ms apart can show no growth for a thread that spins
    throughout, and a wait on them let onnxruntime's spinning threads take a CPU from the
    next runner's batch."""
    count = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/stat", encoding="ascii") as stream:
                # the state follows the command name, which is in parentheses
                count += stream.read().rsplit(")", 1)[1].split()[0] == "R"
    except (OSError, IndexError):
        return None
    return count


def settle(pid: int, step: float = 0.002) -> None:
    """Wait until none of the process's threads runs in `QUIET_POLLS` polls `step` seconds
    apart, at most `SETTLE_MOST` seconds; where `/proc` cannot tell, wait `SETTLE_MOST`."""
    deadline = time.perf_counter() + SETTLE_MOST
    quiet = 0
    while quiet < QUIET_POLLS and time.perf_counter() < deadline:
        time.sleep(step)
        running = running_threads(pid)
        if running is None:
            time.sleep(max(0.0, deadline - time.perf_counter()))
            return
        quiet = quiet + 1 if running == 0 else 0


def runner_names(case: dict[str, Any]) -> list[str]:
    """The runners of a case, in the table's order."""
    return [*case["libs"], *(["onnxruntime"] if case["onnx"] else []), *(["numpy"] * case["numpy"])]


def time_case(
    workers: dict[str, Worker], rounds: int, quick: bool, budget: float
) -> dict[str, list[float]]:
    """Per-call seconds of each worker's runner: warm-up, then `rounds` rounds of one batch
    per worker (fewer if they would exceed `budget` seconds: `budget_rounds`), the order
    reversed every other round, each batch followed by `settle`."""
    reps: dict[str, int] = {}
    per_round = 0.0
    for name, worker in workers.items():
        estimate = float(worker.ask("warm", quick))
        reps[name] = max(1, min(3 if quick else 50, round(BATCH_SECONDS / estimate)))
        per_round += estimate * (reps[name] + 1)
        settle(worker.process.pid or 0)
    rounds = budget_rounds(rounds, per_round, budget, quick)
    samples: dict[str, list[float]] = {name: [] for name in workers}
    order = list(workers)
    for index in range(rounds):
        for name in order if index % 2 == 0 else reversed(order):
            samples[name] += workers[name].ask("batch", reps[name])
            settle(workers[name].process.pid or 0)
    return samples


def time_in_processes(
    spec: dict[str, Any], threads: int, home: Path, blas_env: bool
) -> dict[str, Any]:
    """Check and time every case at `threads` threads, one process per runner; the same
    JSON-like result as `inference_runners.worker`."""
    results: dict[str, Any] = {}
    for case in spec["cases"]:
        print(
            f"  {case['title']}, {threads} thread(s), one process per runner",
            file=sys.stderr,
            flush=True,
        )
        with environment(threads, home, blas_env):
            workers = {name: Worker(case, name, threads) for name in runner_names(case)}
        try:
            want = reference(case)
            entry = {name: agreement(w.output(), want) for name, w in workers.items()}
            if all(e["ok"] for e in entry.values()):
                timed = time_case(workers, spec["rounds"], spec["quick"], spec["budget"])
                for name, seconds in timed.items():
                    entry[name].update(median=statistics.median(seconds), samples=len(seconds))
        finally:
            for worker in workers.values():
                worker.close()
        results[case["title"]] = entry
    return {"cases": results, "versions": versions(spec)}


def profile_in_process(
    case: dict[str, Any], name: str, threads: int, runs: int, home: Path, blas_env: bool
) -> tuple[dict[str, Any], list[Any]]:
    """Run the profiling build `case["libs"][name]` `runs` times (after a warm-up) in its own
    process: its agreement with the reference and its profile entries."""
    with environment(threads, home, blas_env):
        worker = Worker(case, name, threads)
    try:
        checked = agreement(worker.output(), reference(case))
        worker.ask("warm", runs < 10)
        return checked, list(worker.ask("profile", runs))
    finally:
        worker.close()
