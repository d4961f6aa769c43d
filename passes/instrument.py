"""Pass instruments: TVM's `ir/instrument.py`, with the profile kept after the context exits.

An instrument has five hooks, called by `PassContext` (see `pass_context.py`
for the order and the exception rules): `enter_pass_ctx`, `exit_pass_ctx`,
`should_run(mod, info)`, `run_before_pass(mod, info)`,
`run_after_pass(mod, info)`; and, beyond TVM, `run_after_pass_failure(mod, info)`
(the pass manager calls it with the IR a failing pass left, before rolling back).
Every pass invocation goes through them, the passes a `Sequential` runs and the
ones a pass runs inside itself included.

Built in: `PassTimingInstrument` (a timing tree, `render()` in TVM's format),
`PrintBeforeAll`, `PrintAfterAll` and `PassPrintingInstrument`. The debugging
instruments (IR diff, verify-each, numerics) are in `debug_instruments.py`.
"""

from __future__ import annotations

import inspect
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, Any, TypeVar, overload

from xrelay.dialects.ir_module import IRModule
from xrelay.passes.pass_context import PassInfo, names_pass, running_passes


class PassInstrument:
    """Base class of instruments: override the hooks you need (the rest do nothing).

    Subclass it, or decorate a plain class with `pass_instrument`. The
    instrument's `name` is its class name.
    """

    def __init__(self) -> None:
        pass

    @property
    def name(self) -> str:
        """The instrument's name: its class name."""
        return type(self).__name__

    def enter_pass_ctx(self) -> None:
        """Called when a `PassContext` holding this instrument is entered."""

    def exit_pass_ctx(self) -> None:
        """Called when that context exits (or its instruments are overridden)."""

    def should_run(self, mod: IRModule, info: PassInfo) -> bool:
        """Whether the pass may run (every instrument is asked; the answers are ANDed)."""
        return True

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        """Called right before a pass that runs."""

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        """Called right after a pass that ran and returned (not if it raised)."""

    def run_after_pass_failure(self, mod: IRModule, info: PassInfo) -> None:
        """Called when a pass raised, with the module as it left it, before the pass manager
        rolls it back (beyond TVM: what `--mlir-print-ir-after-failure` prints)."""

    def removed(self) -> None:
        """Called after `exit_pass_ctx` when `override_instruments` takes the instrument out
        of a context (it is not used by that context any more)."""

    def __repr__(self) -> str:
        return self.name


C = TypeVar("C", bound=type)


@overload
def pass_instrument(pi_cls: C) -> C: ...
@overload
def pass_instrument(pi_cls: None = None) -> Callable[[C], C]: ...
def pass_instrument(pi_cls: C | None = None) -> C | Callable[[C], C]:
    """Make a class with any of the five hooks an instrument (TVM's decorator).

    A class that already subclasses `PassInstrument` is returned as it is;
    otherwise a subclass of both is made, whose `__init__` runs the class's
    own `__init__` and keeps its name, module and docstring.
    """

    def decorate(cls: C) -> C:
        return _as_instrument(cls)

    return decorate if pi_cls is None else decorate(pi_cls)


def _as_instrument(cls: Any) -> Any:
    if not inspect.isclass(cls):
        raise TypeError("pass_instrument must decorate a class")
    if issubclass(cls, PassInstrument):
        return cls
    user_class: type = cls

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        user_class.__init__(self, *args, **kwargs)
        PassInstrument.__init__(self)

    namespace = {
        "__init__": __init__,
        "__doc__": user_class.__doc__,
        "__module__": user_class.__module__,
        "__qualname__": user_class.__qualname__,
    }
    return type(user_class.__name__, (user_class, PassInstrument), namespace)


# ------------------------------------------------------------------ timing


@dataclass
class PassProfile:
    """One timed pass invocation and the invocations nested in it."""

    name: str
    start: float
    duration_us: float = 0.0
    children: list[PassProfile] = field(default_factory=list["PassProfile"])

    @property
    def self_us(self) -> float:
        """Time not spent in nested passes."""
        return self.duration_us - sum(child.duration_us for child in self.children)


class _LastTiming(threading.local):
    def __init__(self) -> None:
        self.instrument: PassTimingInstrument | None = None


_LAST_TIMING = _LastTiming()


class _RenderDescriptor:
    """Lets `render` be called on an instance (its profile) or on the class (the latest one)."""

    def __get__(
        self, obj: PassTimingInstrument | None, owner: type | None = None
    ) -> Callable[[], str]:
        def render() -> str:
            instrument = obj if obj is not None else _LAST_TIMING.instrument
            return instrument.render_profile() if instrument is not None else ""

        return render


class PassTimingInstrument(PassInstrument):
    """Times every pass invocation as a tree; `render()` prints it in TVM's format.

    One line per invocation, depth-first, nested ones indented with tabs:
    `name: <total>us [<self>us] (<% of all top-level passes>%; <% of parent>%)`.

    Unlike TVM, the profile is cleared when a context holding the instrument is
    *entered*, not when it exits, so `render()` works after the `with` block. As in
    TVM, it is also cleared when `override_instruments` takes the instrument out of a
    context (`override_instruments(None)`: nothing left to render).
    `PassTimingInstrument.render()` on the class renders the profile of the
    instrument last entered in this thread, as TVM's static method does.
    """

    render = _RenderDescriptor()

    def __init__(self) -> None:
        super().__init__()
        self.profiles: list[PassProfile] = []
        self._stack: list[PassProfile] = []

    def enter_pass_ctx(self) -> None:
        self.profiles = []
        self._stack = []
        _LAST_TIMING.instrument = self

    def exit_pass_ctx(self) -> None:
        self._close_failed(0)

    def removed(self) -> None:
        self.profiles = []
        self._stack = []

    def _close_failed(self, depth: int) -> None:
        """Close entries of passes that raised (they never reached run_after_pass)."""
        now = time.perf_counter()
        while len(self._stack) > depth:
            node = self._stack.pop()
            node.duration_us = (now - node.start) * 1e6

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        # Open entries deeper than the passes running now belong to passes that raised.
        self._close_failed(len(running_passes()))
        node = PassProfile(info.name, time.perf_counter())
        (self._stack[-1].children if self._stack else self.profiles).append(node)
        self._stack.append(node)

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self._close_failed(len(running_passes()) + 1)
        node = self._stack.pop()
        node.duration_us = (time.perf_counter() - node.start) * 1e6

    def render_profile(self) -> str:
        """The timing tree as text ("" if nothing was timed)."""
        if running_passes():
            raise RuntimeError("cannot print pass profile while still in a pass!")
        self._close_failed(0)
        total = sum(p.duration_us for p in self.profiles)
        lines: list[str] = []

        def visit(node: PassProfile, depth: int, parent_total: float) -> None:
            of_total = 100 * node.duration_us / total if total else 0.0
            of_parent = 100 * node.duration_us / parent_total if parent_total else 0.0
            lines.append(
                "\t" * depth
                + f"{node.name}: {node.duration_us:.0f}us [{node.self_us:.0f}us] "
                + f"({of_total:.2f}%; {of_parent:.2f}%)\n"
            )
            for child in node.children:
                visit(child, depth + 1, node.duration_us)

        for profile in self.profiles:
            visit(profile, 0, total)
        return "".join(lines)


# ---------------------------------------------------------------- printing


def _stream(file: IO[str] | None) -> IO[str]:
    return file if file is not None else sys.stdout


class _PrintingInstrument(PassInstrument):
    """Writes to `file`, or to stdout as it is when writing (TVM prints to stdout)."""

    def __init__(self, file: IO[str] | None = None) -> None:
        super().__init__()
        self.file = file

    def write(self, header: str, mod: IRModule) -> None:
        out = _stream(self.file)
        print(header, file=out)
        print(mod, file=out)


class PrintBeforeAll(_PrintingInstrument):
    """Print the pass info and the module before every pass (stdout, or `file`)."""

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.write(f"Before Running Pass: {info}", mod)


class PrintAfterAll(_PrintingInstrument):
    """Print the pass info and the module after every pass (stdout, or `file`)."""

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.write(f"After Running Pass: {info}", mod)


class PassPrintingInstrument(PassInstrument):
    """Print the module before the passes of one list and after those of another.

    Names are TVM names or flags (`FoldConstant`, `fold-constant`).
    """

    def __init__(
        self,
        print_before_pass_names: Iterable[str] | None = None,
        print_after_pass_names: Iterable[str] | None = None,
        file: IO[str] | None = None,
    ) -> None:
        super().__init__()
        self.print_before_pass_names = list(print_before_pass_names or [])
        self.print_after_pass_names = list(print_after_pass_names or [])
        self.file = file

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        if names_pass(self.print_before_pass_names, info):
            print(f"Print IR before: {info.name}\n{mod}\n\n", file=_stream(self.file))

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        if names_pass(self.print_after_pass_names, info):
            print(f"Print IR after: {info.name}\n{mod}\n\n", file=_stream(self.file))
