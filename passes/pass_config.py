"""Typed pass config options: TVM's `TVM_REGISTER_PASS_CONFIG_OPTION` and `PassConfigManager`.

A key is registered with a value type (`bool`, `int`, `float`, `str` or an
options dataclass), a default and a description; `PassContext(config=...)`
checks every value against its key when it is built (`legalize_config`):
an unknown key or an ill-typed value raises `AttributeError`, a dict builds
the options dataclass with its defaults (TVM A.8).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TypeVar, cast, get_type_hints, overload


@dataclasses.dataclass(frozen=True)
class ConfigOption:
    """A registered config key: its value type, default and description."""

    key: str
    value_type: type
    default: object = None
    description: str = ""

    @property
    def type_name(self) -> str:
        """The value type as error messages spell it (`bool`, `int`, a dataclass's name)."""
        return self.value_type.__name__

    @property
    def type_key(self) -> str:
        """The value type as TVM's `list_configs` spells it: the TVM object type key
        (`IntImm` for bool and int, `FloatImm`, `runtime.String`; a dataclass's name)."""
        return TVM_TYPE_KEYS.get(self.value_type, self.value_type.__name__)


TVM_TYPE_KEYS: dict[type, str] = {
    bool: "IntImm",
    int: "IntImm",
    float: "FloatImm",
    str: "runtime.String",
}
"""TVM's type keys of the scalar value types (its Bool and Integer are IntImm objects)."""


_CONFIG_OPTIONS: dict[str, ConfigOption] = {}
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


def config_option(key: str) -> ConfigOption | None:
    """The registration of one key, if any."""
    return _CONFIG_OPTIONS.get(key)


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
# TVM's tuning switches, which TVM code sets: accepted, and without effect (xrelay does not
# tune kernels).
register_pass_config_option(
    "relay.backend.use_auto_scheduler",
    bool,
    default=False,
    description="TVM: use auto-scheduler tuning records (accepted; xrelay does not tune)",
)
register_pass_config_option(
    "relay.backend.use_meta_schedule",
    bool,
    default=False,
    description="TVM: use MetaSchedule tuning records (accepted; xrelay does not tune)",
)
register_pass_config_option(
    "transform.crash_reproducer",
    str,
    default="",
    description="write the module before a failing pass, with its pipeline, to this path",
)
