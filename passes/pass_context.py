"""`PassInfo`, `PassContext` and typed config options: TVM's `ir/transform.py` context half.

Behaviour follows TVM v0.19 (`shared/tvm-semantics.md` A.1, A.4, A.5, A.8, A.13):

- contexts form a per-thread stack; `PassContext.current()` is its top, or
  the thread's own default context (opt_level 2), which `override_instruments`
  may change;
- `__enter__` enters the instruments first and pushes only if that worked;
  `__exit__` pops first, then exits the instruments;
- an instrument's `enter_pass_ctx` failing exits the ones already entered, in
  reverse, and clears the list; `exit_pass_ctx` failing clears the list;
- `should_run` of every instrument is called (no short-circuit) and the
  results ANDed, except for a pass named in `required_pass`; failures in
  `should_run`, `run_before_pass` and `run_after_pass` propagate as they are;
- config keys are registered with a type (`pass_config.py`) and checked when
  the context is built: unknown keys and ill-typed values raise
  `AttributeError`, a dict builds a registered options dataclass with its
  defaults.

Pass names in `required_pass` and `disabled_pass` may be TVM names
(`FoldConstant`) or flags (`fold-constant`).
"""

from __future__ import annotations

import contextlib
import copy
import threading
from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from xrelay.passes import kebab_case
from xrelay.passes.pass_config import config_option, config_options, legalize_config

if TYPE_CHECKING:
    from xrelay.dialects.ir_module import IRModule
    from xrelay.passes.instrument import PassInstrument


class PassInfo:
    """The metadata of a pass: `PassInfo(opt_level, name, required=None, traceable=False)`.

    Parameters
    ----------
    opt_level : int
        The lowest `PassContext.opt_level` at which a `Sequential` runs the pass.
    name : str
        The pass's TVM name (`FoldConstant`); its flag is `info.flag` (`fold-constant`).
    required : Sequence[str], optional
        Names (or flags) of the passes that must run before this one.
    traceable : bool
        Kept for TVM compatibility (Relax tuning traces); unused.
    """

    def __init__(
        self,
        opt_level: int,
        name: str,
        required: Sequence[str] | None = None,
        traceable: bool = False,
    ):
        if not _is_int(opt_level):
            raise TypeError(f"opt_level of pass '{name}' must be an int, got {opt_level!r}")
        if isinstance(required, str) or not _is_sequence(required):
            raise TypeError(f"required of pass '{name}' must be a list of pass names")
        self.opt_level = opt_level
        self.name = name
        self.required: tuple[str, ...] = tuple(required or ())
        self.traceable = traceable

    @property
    def flag(self) -> str:
        """The pass's command-line spelling: the kebab-case of its name."""
        return kebab_case(self.name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PassInfo):
            return NotImplemented
        return (self.opt_level, self.name, self.required) == (
            other.opt_level,
            other.name,
            other.required,
        )

    def __hash__(self) -> int:
        return hash((self.opt_level, self.name, self.required))

    def __repr__(self) -> str:
        # TVM's wording, which PrintBeforeAll / PrintAfterAll print.
        required = "".join(f"{name}, " for name in self.required)
        tail = f"[\n{required}]" if self.required else "[]"
        return (
            f"The meta data of the pass - pass name: {self.name}, "
            f"opt_level: {self.opt_level}, required passes: {tail}\n"
        )


def _is_int(value: object) -> bool:
    """An int that is not a bool (checked at run time: callers may pass anything)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_sequence(value: object) -> bool:
    return value is None or isinstance(value, Sequence)


def names_pass(names: Iterable[str], info: PassInfo) -> bool:
    """Whether a list of pass names or flags names the pass `info` describes."""
    flag = info.flag
    return any(name in (info.name, flag) for name in names)


# ---------------------------------------------------------------- context


_REGISTERED_DEFAULT: Any = object()
"""`get_config`'s marker for "no default given": use the registered one."""


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.stack: list[PassContext] = []
        self.default: PassContext | None = None
        self.running: list[PassInfo] = []


_STATE = _ThreadState()


def running_passes() -> list[PassInfo]:
    """The passes running in this thread, outermost first (empty between passes)."""
    return list(_STATE.running)


def push_running(info: PassInfo) -> None:
    """Record that a pass starts running in this thread (the pass manager calls this)."""
    _STATE.running.append(info)


def pop_running() -> None:
    """Record that the innermost running pass ended."""
    _STATE.running.pop()


class PassContext:
    """The settings passes run under: `with PassContext(opt_level=3, ...): mod = seq(mod)`.

    Parameters
    ----------
    opt_level : int
        `Sequential` runs a pass only if `opt_level >= pass.info.opt_level`.
    required_pass : Iterable[str], optional
        Passes a `Sequential` runs whatever their level (unless disabled);
        instruments' `should_run` is not asked for them.
    disabled_pass : Iterable[str], optional
        Passes a `Sequential` skips (this wins over `required_pass`).
    instruments : Iterable[PassInstrument], optional
        Hooks around every pass invocation and the context's lifetime.
    config : Mapping[str, object], optional
        Registered options (`list_configs()`), checked here.
    """

    def __init__(
        self,
        opt_level: int = 2,
        required_pass: Iterable[str] | None = None,
        disabled_pass: Iterable[str] | None = None,
        instruments: Iterable[PassInstrument] | None = None,
        config: Mapping[str, object] | None = None,
    ):
        if not _is_int(opt_level):
            raise TypeError(f"opt_level must be an int, got {opt_level!r}")
        self.opt_level = opt_level
        self.required_pass: list[str] = list(required_pass) if required_pass else []
        self.disabled_pass: list[str] = list(disabled_pass) if disabled_pass else []
        self.instruments: list[PassInstrument] = list(instruments) if instruments else []
        self.config: dict[str, object] = legalize_config(config or {})
        self._xdsl_context: Any = None

    # -------------------------------------------------------------- scope

    def __enter__(self) -> PassContext:
        self._enter_instruments()
        _STATE.stack.append(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if not _STATE.stack or _STATE.stack[-1] is not self:
            raise RuntimeError("PassContext exited out of order: it is not the current context")
        _STATE.stack.pop()
        self._exit_instruments()

    @contextlib.contextmanager
    def scoped(self, opt_level: int) -> Generator[PassContext]:
        """This context at another opt_level, current for the `with` block.

        The copy shares the instruments (not entered again: they see its
        passes as nested in the enclosing ones), the pass lists and the config.
        """
        view = copy.copy(self)
        view.opt_level = opt_level
        _STATE.stack.append(view)
        try:
            yield view
        finally:
            if _STATE.stack and _STATE.stack[-1] is view:
                _STATE.stack.pop()

    @contextlib.contextmanager
    def with_defaults(self, config: Mapping[str, object]) -> Generator[PassContext]:
        """This context with the `config` keys it does not set itself, current for the block.

        Shares everything else, as `scoped`. How a caller that runs passes on
        its own private copy of a module turns off what only matters for the
        caller's module (`transform.transactional`) unless the user asked for it.
        """
        view = copy.copy(self)
        view.config = {**config, **self.config}
        _STATE.stack.append(view)
        try:
            yield view
        finally:
            if _STATE.stack and _STATE.stack[-1] is view:
                _STATE.stack.pop()

    @staticmethod
    def current() -> PassContext:
        """The innermost context entered in this thread, else this thread's default context."""
        if _STATE.stack:
            return _STATE.stack[-1]
        if _STATE.default is None:
            _STATE.default = PassContext()
        return _STATE.default

    @staticmethod
    def list_configs() -> dict[str, dict[str, object]]:
        """Every registered config key: `{key: {"type", "default", "description"}}`, the type
        as TVM's type key (`IntImm` for bool and int options, `FloatImm`, `runtime.String`)."""
        return {
            key: {"type": o.type_key, "default": o.default, "description": o.description}
            for key, o in sorted(config_options().items())
        }

    def get_config(self, key: str, default: object = _REGISTERED_DEFAULT) -> Any:
        """The value of a config key in this context, else `default` (a pass's own default).

        Without `default`, the default the key was registered with (None for
        an unregistered key).
        """
        if key in self.config:
            return self.config[key]
        if default is _REGISTERED_DEFAULT:
            option = config_option(key)
            return option.default if option is not None else None
        return default

    @property
    def xdsl_context(self) -> Any:
        """The xDSL `Context` xDSL passes are applied with (xrelay's dialects, built lazily)."""
        if self._xdsl_context is None:
            from xrelay.dialects.parser import make_context

            self._xdsl_context = make_context()
        return self._xdsl_context

    @xdsl_context.setter
    def xdsl_context(self, value: Any) -> None:
        self._xdsl_context = value

    # -------------------------------------------------------- instruments

    def override_instruments(self, instruments: Iterable[PassInstrument] | None) -> None:
        """Exit the current instruments, install `instruments` and enter them (any context)."""
        old = list(self.instruments)
        self._exit_instruments()
        for instrument in old:
            instrument.removed()
        self.instruments = list(instruments) if instruments else []
        self._enter_instruments()

    def _enter_instruments(self) -> None:
        entered: list[PassInstrument] = []
        try:
            for instrument in self.instruments:
                instrument.enter_pass_ctx()
                entered.append(instrument)
        except BaseException:
            for instrument in reversed(entered):
                instrument.exit_pass_ctx()
            self.instruments = []
            raise

    def _exit_instruments(self) -> None:
        try:
            for instrument in self.instruments:
                instrument.exit_pass_ctx()
        except BaseException:
            self.instruments = []
            raise

    def instrument_before_pass(self, mod: IRModule, info: PassInfo) -> bool:
        """Ask every instrument whether the pass runs; if so call their `run_before_pass`."""
        should_run = True
        if not names_pass(self.required_pass, info):
            for instrument in self.instruments:
                should_run &= bool(instrument.should_run(mod, info))
        if should_run:
            for instrument in self.instruments:
                instrument.run_before_pass(mod, info)
        return should_run

    def instrument_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        """Call every instrument's `run_after_pass`."""
        for instrument in self.instruments:
            instrument.run_after_pass(mod, info)

    # ------------------------------------------------------------ gating

    def pass_enabled(self, info: PassInfo) -> bool:
        """TVM's `PassEnabled`: disabled, no; required, yes; else `opt_level >= info.opt_level`."""
        if names_pass(self.disabled_pass, info):
            return False
        if names_pass(self.required_pass, info):
            return True
        return self.opt_level >= info.opt_level

    def __repr__(self) -> str:
        return (
            "Pass context information: \n"
            f"\topt_level: {self.opt_level}\n"
            f"\trequired passes: {self.required_pass}\n"
            f"\tdisabled passes: {self.disabled_pass}\n"
            f"\tinstruments: {self.instruments}\n"
            f"\tconfig: {self.config}"
        )
