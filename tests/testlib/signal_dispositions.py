"""The pytest worker's SIGINT and SIGQUIT dispositions (fixtures, used by tests/conftest.py).

A child process inherits an ignored signal, and Python keeps an ignored SIGINT ignored (it
installs its KeyboardInterrupt handler only over the default action), so a test that sends
SIGINT to a child depends on the disposition the pytest worker holds. Two fixtures keep
that state known:

- `terminal_signals` gives a test the dispositions of a terminal's foreground job. A suite
  launched in the background by a non-interactive shell (`scripts/test > log &`) starts with
  SIGINT and SIGQUIT ignored (POSIX asks the shell for that when job control is off), and
  every worker and child inherits them.
- the autouse `signal_dispositions_kept` fails the test that leaves the worker's
  dispositions changed (through `signal.signal` or native code such as libc's `system()`),
  naming it, and restores them so the tests after it are not affected.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import pytest

WATCHED = (signal.SIGINT, signal.SIGQUIT)
WATCHED_BITS = sum(1 << (int(sig) - 1) for sig in WATCHED)
"""The watched signals' bits in /proc's SigIgn mask (signal n is bit n - 1)."""

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


def ignored_bits() -> int | None:
    """Which watched signals the kernel ignores for this process (/proc's SigIgn), or None
    where /proc is not there; native code can change them without Python seeing it."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"SigIgn:"):
                    return int(line.split()[1], 16) & WATCHED_BITS
    except OSError:
        return None
    return None


def dispositions() -> tuple[int | None, list[Handler]]:
    """The kernel's view (ignored bits) and Python's (handlers) of the watched signals."""
    return ignored_bits(), [signal.getsignal(sig) for sig in WATCHED]


def describe(state: tuple[int | None, list[Handler]]) -> str:
    bits, handlers = state
    named = ", ".join(
        f"{sig.name} {handler!r}" for sig, handler in zip(WATCHED, handlers, strict=True)
    )
    kernel = "unknown" if bits is None else f"{bits:#x}"
    return f"{named}; ignored by the kernel: {kernel}"


def restore(handlers: list[Handler]) -> None:
    """Install `handlers` again (in the kernel too, even where Python's view did not change)."""
    for sig, handler in zip(WATCHED, handlers, strict=True):
        if handler is not None:
            signal.signal(sig, handler)


@pytest.fixture(autouse=True)
def signal_dispositions_kept(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails the test after which the worker's SIGINT/SIGQUIT dispositions differ."""
    before = dispositions()
    yield
    after = dispositions()
    if after == before:
        return
    if threading.current_thread() is threading.main_thread():
        restore(before[1])
    pytest.fail(
        f"{request.node.nodeid} left the worker's signal dispositions changed "
        f"(restore them in a finally or a fixture): before {describe(before)}; "
        f"after {describe(after)}",
        pytrace=False,
    )


@pytest.fixture
def terminal_signals() -> Iterator[None]:
    """SIGINT and SIGQUIT as a terminal's foreground job holds them (KeyboardInterrupt, core
    dump) for this test, so the children it starts take Ctrl-C however the suite was launched;
    the worker's own dispositions come back after it."""
    saved = [signal.getsignal(sig) for sig in WATCHED]
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    try:
        yield
    finally:
        restore(saved)
