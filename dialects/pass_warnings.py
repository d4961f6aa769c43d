"""Warnings from passes: located in `xrelay-opt`, Python warnings elsewhere.

A pass that does something the user may not expect without failing (a target
with no registered ops takes nothing, a partition falls back to the host)
calls `warn(message, op)`. Under `xrelay-opt` (inside `collect_warnings`) it
becomes a diagnostic `file:line:col: warning: message` at the op's location,
which `--verify-diagnostics` matches with `expected-warning`; called from
Python it is a `PassWarning` (`warnings.warn`), which pytest and
`warnings.simplefilter("error", PassWarning)` see as usual.
"""

from __future__ import annotations

import warnings
from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.ir import Operation
from xrelay.dialects.diagnostics import Diagnostic, location_of


class PassWarning(UserWarning):
    """A warning a pass raised (see the module docstring)."""


_COLLECTED: ContextVar[list[Diagnostic] | None] = ContextVar("xrelay_pass_warnings", default=None)


def warn(message: str, op: Operation | None = None) -> None:
    """Report `message` from a pass, at `op`'s location if given."""
    collected = _COLLECTED.get()
    if collected is None:
        warnings.warn(message, PassWarning, stacklevel=2)
        return
    where = location_of(op) if op is not None else ("<unknown>", 0, 0)
    collected.append(Diagnostic(*where, "warning", message))


@contextmanager
def collect_warnings() -> Generator[list[Diagnostic]]:
    """Collect the warnings passes report in the block as diagnostics (for `xrelay-opt`)."""
    found: list[Diagnostic] = []
    token = _COLLECTED.set(found)
    try:
        yield found
    finally:
        _COLLECTED.reset(token)
