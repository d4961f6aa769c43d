"""Pass statistics (MLIR's `Pass::Statistic`): counters a pass declares and increments.

Declare a counter on the pass class, increment it while the pass runs:

    @dataclass(frozen=True)
    class MyPass(ModulePass):
        name = "my-pass"
        rewritten: ClassVar[Statistic] = Statistic("num-rewritten", "Number of ops rewritten")

        def apply(self, ctx, op):
            ...
            self.rewritten.add()       # or .add(n)

`xrelay-opt --mlir-pass-statistics` prints every invocation's counters in
MLIR's report (`tools/opt_statistics.py`). Outside a collecting run `add`
does nothing (one context-variable read), so counters cost nothing in
production.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from contextvars import ContextVar, Token
from typing import Any

_RECORD: ContextVar[dict[str, int] | None] = ContextVar("xrelay_pass_statistics", default=None)
"""The counters of the pass invocation running now, while statistics are collected."""


class Statistic:
    """A named counter with a description, declared as a class attribute of a pass."""

    def __init__(self, name: str, description: str) -> None:
        self.name = name
        self.description = description

    def add(self, amount: int = 1) -> None:
        """Add `amount` to the counter of the pass invocation running now (if collected)."""
        record = _RECORD.get()
        if record is not None:
            record[self.name] = record.get(self.name, 0) + amount

    def __repr__(self) -> str:
        return f"Statistic({self.name!r}, {self.description!r})"


def declared_statistics(cls: type[Any]) -> list[Statistic]:
    """The counters a pass class declares (its bases' first), in declaration order."""
    found: dict[str, Statistic] = {}
    for klass in reversed(cls.__mro__):
        for value in vars(klass).values():
            if isinstance(value, Statistic):
                found[value.name] = value
    return list(found.values())


@contextlib.contextmanager
def collecting(record: dict[str, int]) -> Generator[dict[str, int]]:
    """Counters incremented in the block go to `record` (nested blocks take theirs)."""
    token = _RECORD.set(record)
    try:
        yield record
    finally:
        _RECORD.reset(token)


def start(record: dict[str, int]) -> Token[dict[str, int] | None]:
    """Begin collecting into `record` (an instrument's before-pass hook); `stop` ends it."""
    return _RECORD.set(record)


def stop(token: Token[dict[str, int] | None]) -> None:
    """End what `start` began, restoring the enclosing invocation's record."""
    _RECORD.reset(token)
