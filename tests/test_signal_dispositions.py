"""The suite's signal fixtures (testlib/signal_dispositions.py), run on an inner pytest that
a shell started in the background, as `scripts/test > log &` does: SIGINT and SIGQUIT start
ignored there."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

INNER = """
import ctypes
import signal
import subprocess
import sys

import pytest
from conftest import WATCHED_BITS, ignored_bits

CHILD = (
    "import signal\\n"
    "status = open('/proc/self/status').read()\\n"
    "ignored = [l for l in status.splitlines() if l.startswith('SigIgn')][0].split()[1]\\n"
    "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, int(ignored, 16) & 6)\\n"
)


def test_a_background_launch_ignores_both() -> None:
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    assert signal.getsignal(signal.SIGQUIT) == signal.SIG_IGN
    assert ignored_bits() == WATCHED_BITS


def test_a_child_inherits_them() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True).stdout
    assert out.split() == ["False", "6"]


@pytest.mark.usefixtures("terminal_signals")
def test_terminal_signals_reach_the_children() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True).stdout
    assert out.split() == ["True", "0"]


def test_leaks_a_handler() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def test_leaks_through_native_code() -> None:
    libc = ctypes.CDLL(None)
    libc.signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.signal.restype = ctypes.c_void_p
    libc.signal(int(signal.SIGQUIT), 0)  # SIG_DFL, behind Python's back


def test_restores_in_a_finally() -> None:
    saved = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert ignored_bits() == WATCHED_BITS & ~(1 << (signal.SIGINT - 1))
    finally:
        signal.signal(signal.SIGINT, saved)


def test_the_leaks_were_undone() -> None:
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    assert ignored_bits() == WATCHED_BITS
"""


def test_the_guard_names_the_leaking_tests_and_undoes_the_leaks(tmp_path: Path) -> None:
    guards = Path(__file__).with_name("testlib") / "signal_dispositions.py"
    shutil.copy(guards, tmp_path / "conftest.py")  # its fixtures, as tests/conftest.py has them
    (tmp_path / "test_inner.py").write_text(INNER)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    # A non-interactive shell starts `&` jobs with SIGINT and SIGQUIT ignored (POSIX).
    run = subprocess.run(
        ["sh", "-c", '"$@" & wait $!', "sh", *command, "test_inner.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = run.stdout
    assert run.returncode == 1, out
    assert "7 passed, 2 errors" in out, out
    errors = [line for line in out.splitlines() if line.startswith("ERROR ")]
    assert [line.split()[1] for line in errors] == [
        "test_inner.py::test_leaks_a_handler",
        "test_inner.py::test_leaks_through_native_code",
    ], out
    assert "test_inner.py::test_leaks_a_handler left the worker's signal dispositions" in out
    assert "SIGINT <built-in function default_int_handler>" in out  # after, in Python's view
    assert "ignored by the kernel: 0x4" in out  # after: SIGINT handled, SIGQUIT ignored
    assert "ignored by the kernel: 0x2" in out  # after the native change: SIGQUIT default
