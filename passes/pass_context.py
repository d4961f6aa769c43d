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
- config keys are registered with a type and checked when the context is
  built: unknown keys and ill-typed values raise `AttributeError`, a dict
  builds a registered options dataclass with its defaults.

Pass names in `required_pass` and `disabled_pass` may be TVM names
(`FoldConstant`) or flags (`fold-constant`).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast, get_type_hints, overload

from xrelay.passes import kebab_case

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


# ----------------------------------------------------------------- config


@dataclasses.dataclass(frozen=True)
class ConfigOption:
    """A registered config key: its value type, default and description."""

    key: str
    value_type: type
    default: object = None
    description: str = ""

    @property
    def type_name(self) -> str:
        """The value type as `list_configs` and error messages spell it."""
        return self.value_type.__name__


_CONFIG_OPTIONS: dict[str, ConfigOption] = {}
_REGISTERED_DEFAULT: Any = object()
"""`get_config`'s marker for "no default given": use the registered one."""
_SCALARS: tuple[type, ...] = (bool, int, float, str)
T = TypeVar("T", bound=type)


@overload
def register_pass_config_option(
    key: str, value_type: None = None, *, default: object = None, description: str = ""
) -> Callable[[T], T]: ...
@overload
def register_pass_config_option(
    key: str, value_type: type, *, default: object = None, description: str = ""
) -> None: ...
def register_pass_config_option(
    key: str, value_type: type | None = None, *, default: object = None, description: str = ""
) -> Callable[[T], T] | None:
    """Register a config key with its value type: `bool`, `int`, `float`, `str` or a dataclass.

    As a function, `register_pass_config_option("relay.FuseOps.max_depth",
    int, default=256)`; as a class decorator on an options dataclass,
    `@register_pass_config_option("relay.ext.accel.options")`, whose dict
    values are built into the class with its defaults. Registering a key again
    with the same type is a no-op; with another type it is an error.
    """
    if value_type is None:

        def decorate(cls: T) -> T:
            register_pass_config_option(key, cls, default=default, description=description)
            return cls

        return decorate
    if value_type not in _SCALARS and not dataclasses.is_dataclass(value_type):
        raise TypeError(
            f"config option '{key}': value type must be bool, int, float, str or a dataclass, "
            f"got {value_type!r}"
        )
    old = _CONFIG_OPTIONS.get(key)
    if old is not None:
        if old.value_type is not value_type:
            raise ValueError(
                f"config option '{key}' is already registered with type {old.type_name}"
            )
        return None  # the same type again: keep the first registration's default and text
    doc = description or (value_type.__doc__ or "").strip().split("\n")[0]
    if value_type in _SCALARS:
        doc = description
    _CONFIG_OPTIONS[key] = ConfigOption(key, value_type, default, doc)
    return None


def config_options() -> dict[str, ConfigOption]:
    """Every registered config key (a fresh dict)."""
    return dict(_CONFIG_OPTIONS)


def _check_scalar(value: object, value_type: type) -> object:
    """`value` converted to a scalar config type, or ValueError."""
    if value_type is bool and isinstance(value, bool):
        return value
    if value_type is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if value_type is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if value_type is str and isinstance(value, str):
        return value
    raise ValueError(f"{type(value).__name__} {value!r}")


def _build_options(key: str, cls: type, fields: Mapping[str, object]) -> object:
    known = {f.name: f for f in dataclasses.fields(cls) if f.init}
    hints = get_type_hints(cls)
    values: dict[str, object] = {}
    for name, value in fields.items():
        if name not in known:
            raise AttributeError(
                f"config {key}: {cls.__name__} has no field '{name}'; "
                f"fields are: {', '.join(known)}"
            )
        hint = hints.get(name)
        if isinstance(hint, type) and hint in _SCALARS:
            try:
                value = _check_scalar(value, hint)
            except ValueError as error:
                raise AttributeError(
                    f"config {key}: field '{name}' of {cls.__name__} expects "
                    f"{hint.__name__}, got {error}"
                ) from None
        values[name] = value
    try:
        return cls(**values)
    except TypeError as error:
        raise AttributeError(f"config {key}: cannot build {cls.__name__}: {error}") from None


def legalize_config(config: Mapping[str, object]) -> dict[str, object]:
    """Check every (key, value) against the registered options; AttributeError if one is off."""
    out: dict[str, object] = {}
    for key, value in config.items():
        option = _CONFIG_OPTIONS.get(key)
        if option is None:
            candidates = ", ".join(sorted(_CONFIG_OPTIONS))
            raise AttributeError(f"Invalid config option '{key}' candidates are: {candidates}")
        if value is None:
            raise AttributeError(f"{key} is None")
        expected = option.value_type
        if expected not in _SCALARS:
            if isinstance(value, expected):
                out[key] = value
            elif isinstance(value, Mapping):
                out[key] = _build_options(key, expected, cast(Mapping[str, object], value))
            else:
                raise AttributeError(
                    f"expect config {key} to have type {option.type_name} (or a dict of its "
                    f"fields), but received {type(value).__name__} {value!r}"
                )
            continue
        try:
            out[key] = _check_scalar(value, expected)
        except ValueError as error:
            raise AttributeError(
                f"expect config {key} to have type {option.type_name}, but received {error}"
            ) from None
    return out


register_pass_config_option(
    "testing.immutable_module",
    bool,
    default=False,
    description="fail any pass that changes the module (checks read-only passes)",
)
register_pass_config_option(
    "transform.transactional",
    bool,
    default=True,
    description="snapshot the module before each pass and restore it if the pass fails",
)
register_pass_config_option(
    "transform.resolve_required",
    bool,
    default=True,
    description="resolve `required` transitively, once per change (false: TVM's rerun-always)",
)
register_pass_config_option(
    "transform.crash_reproducer",
    str,
    default="",
    description="write the module before a failing pass, with its pipeline, to this path",
)


# ---------------------------------------------------------------- context


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
        """Every registered config key: `{key: {"type", "default", "description"}}`."""
        return {
            key: {"type": o.type_name, "default": o.default, "description": o.description}
            for key, o in sorted(_CONFIG_OPTIONS.items())
        }

    def get_config(self, key: str, default: object = _REGISTERED_DEFAULT) -> Any:
        """The value of a config key in this context, else `default` (a pass's own default).

        Without `default`, the default the key was registered with (None for
        an unregistered key).
        """
        if key in self.config:
            return self.config[key]
        if default is _REGISTERED_DEFAULT:
            option = _CONFIG_OPTIONS.get(key)
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
        self._exit_instruments()
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
