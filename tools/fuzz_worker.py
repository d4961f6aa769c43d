"""What both fuzzers share: a forked worker with a watchdog, failure signatures, the findings.

A case runs in a worker process forked from the fuzzer (so xrelay is imported
once): a crash of the worker (a segfault, an exit from deep inside) or a case
over its time limit is itself a finding, and the next case gets a fresh worker.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import re
import resource
import signal
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

Handler = Callable[[Any], Any]
"""What a worker does with one request (both picklable)."""

WORKER_MEMORY_BYTES = 4 << 30
"""The address-space limit of a worker: a runaway allocation is a MemoryError, not swap."""


@dataclass(frozen=True)
class Outcome:
    """What one entry point did with one input: exit status and captured output."""

    status: int
    output: str
    problem: str = ""
    """A failure the entry point itself detected (e.g. a round trip that changed the IR)."""

    @property
    def signature(self) -> str | None:
        """None if fine (exit 0 or 1, no traceback), else a short stable failure description."""
        if self.problem:
            return self.problem
        traced = "Traceback (most recent call last)" in self.output
        if self.status in (0, 1) and not traced:
            return None
        if traced:
            return traceback_signature(self.output)
        return f"exit {self.status}"


_FRAME = re.compile(r'^\s*File "([^"]+)", line \d+, in (\S+)', re.MULTILINE)
_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b)", re.M)


def traceback_signature(text: str) -> str:
    """`ExceptionType at file.py:function` of the innermost frame of the last traceback."""
    start = text.rfind("Traceback (most recent call last)")
    tail = text[start:]
    found = _FRAME.findall(tail)
    frames = [f"{os.path.basename(path)}:{name}" for path, name in found]
    exceptions = _EXCEPTION.findall(tail)
    kind = exceptions[-1].rsplit(".", 1)[-1] if exceptions else "exception"
    if not frames:
        return f"{kind} at ?"
    where = frames[-1]
    if kind == "RecursionError":
        # The innermost frame varies with the input: name our frame that recurses most
        # (innermost on a tie), so one deep-nesting bug is one finding.
        ours = [
            f
            for f, (path, _) in zip(frames, found, strict=True)
            if "-packages" not in path and not path.startswith("<")
        ]
        candidates = (ours or frames)[::-1]
        where = max(candidates, key=candidates.count)
    return f"{kind} at {where}"


def capture(run: Callable[[], int]) -> Outcome:
    """Run an entry point with stdout and stderr captured; an escaping exception is a finding."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            status = run()
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException as error:
            traceback.print_exception(error, file=out)
            status = 3
    return Outcome(status, out.getvalue())


def _serve(conn: Connection, handler: Handler, memory: int) -> None:
    """The worker's loop: requests in, responses out, until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        try:
            response = handler(request)
        except BaseException as error:
            response = Outcome(3, "".join(traceback.format_exception(error)))
        conn.send(response)


@dataclass
class Worker:
    """A forked process that runs `handler` on requests, restarted after a crash or timeout."""

    handler: Handler
    memory: int = WORKER_MEMORY_BYTES
    process: Any = None
    conn: Connection | None = None
    restarts: int = 0

    def start(self) -> Connection:
        if self.conn is not None:
            return self.conn
        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(child, self.handler, self.memory), daemon=True
        )
        self.process.start()
        child.close()
        self.conn = parent
        return parent

    def call(self, request: Any, timeout: float) -> Any:
        """The handler's response, or an `Outcome` for a worker that died or timed out."""
        conn = self.start()
        conn.send(request)
        if not conn.poll(timeout):
            self.stop()
            return Outcome(-1, f"timeout: the case ran over {timeout:g} s")
        try:
            return conn.recv()
        except (EOFError, OSError):
            code = self.stop(died=True)
            return Outcome(code if code is not None else -1, "the worker process died")

    def stop(self, died: bool = False) -> int | None:
        """End the worker (its exit code if it had already ended); the next call forks anew."""
        code: int | None = None
        if self.process is not None:
            if died:  # the pipe closed: let the process finish dying to see how
                self.process.join(5)
            code = self.process.exitcode
            if code is None:
                self.process.kill()
                self.process.join(5)
            else:
                self.process.join()
            self.restarts += 1
        if self.conn is not None:
            self.conn.close()
        self.process, self.conn = None, None
        if code is not None and code < 0:
            return 128 - code  # as a shell reports a signal: 139 for SIGSEGV
        return code


@dataclass
class Findings:
    """Distinct findings by signature; each written once to `directory` (if given)."""

    directory: Path | None
    prefix: str
    seen: dict[str, Path | None] = field(default_factory=lambda: dict[str, Path | None]())

    def __contains__(self, signature: str) -> bool:
        return signature in self.seen

    def __len__(self) -> int:
        return len(self.seen)

    def add(self, signature: str, files: dict[str, bytes]) -> Path | None:
        """Record a finding; its files (suffix -> content) go to `<dir>/<prefix>-<n><suffix>`."""
        if signature in self.seen:
            return self.seen[signature]
        path: Path | None = None
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / f"{self.prefix}-{len(self.seen) + 1:03d}"
            for suffix, content in files.items():
                path.with_name(path.name + suffix).write_bytes(content)
        self.seen[signature] = path
        return path


def slug(text: str) -> str:
    """A file-name-safe short form of a signature."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:80]
