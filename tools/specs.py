"""Pass and target specs (`name{opt=val}`): lookup, option checks, one-line errors.

xDSL builds passes and targets from `ArgSpec`s with
`ArgSpecConvertible.from_spec`, whose errors name Python fields
(`Provided arguments ["max_iterations"] not found in expected arguments []`).
`instantiate` checks a spec first and says what is wrong in the user's
spelling: `pass 'cse' has no option 'max-iterations'; the pass takes no options`,
`option 'depth' of pass 'p' expects int, got 'abc'`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from types import NoneType, UnionType
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from xdsl.utils.arg_spec import ArgSpec, ArgSpecConvertible, ParameterListType
from xdsl.utils.exceptions import ArgSpecParseError
from xdsl.utils.hints import isa

C = TypeVar("C", bound=ArgSpecConvertible)


class SpecError(ValueError):
    """A pass or target spec that names an unknown thing or has bad options."""


@dataclasses.dataclass(frozen=True)
class OptionInfo:
    """One option of a pass or target: its field, its type, and its default if any."""

    field: str
    hint: Any
    required: bool
    default: object = None

    @property
    def flag(self) -> str:
        """The option as spelled on the command line (`max-iterations`)."""
        return self.field.replace("_", "-")

    @property
    def type_name(self) -> str:
        """The option's type as a user reads it (`int`, `tuple[int, ...]`, `str | None`)."""
        return self.hint.__name__ if isinstance(self.hint, type) else str(self.hint)

    def accepts(self, values: ParameterListType) -> bool:
        """Whether the values given for this option convert to its type.

        `opt` alone gives no values (accepted by optional types), `opt=1` one,
        `opt=1,2` a tuple.
        """
        if not values:
            return get_origin(self.hint) in (Union, UnionType) and NoneType in get_args(self.hint)
        return (len(values) == 1 and isa(values[0], self.hint)) or isa(values, self.hint)

    def describe(self) -> str:
        """`max-iterations: int = 10`, or `depth: int (required)`."""
        if self.required:
            return f"{self.flag}: {self.type_name} (required)"
        return f"{self.flag}: {self.type_name} = {_spell(self.default)}"


def _spell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        items = cast(tuple[object, ...], value)
        return ",".join(_spell(v) for v in items) if items else "(empty)"
    if value == "":
        return '""'
    return "none" if value is None else str(value)


def option_infos(cls: type[ArgSpecConvertible]) -> list[OptionInfo]:
    """The options of a pass or target class: its init dataclass fields, in order."""
    hints = get_type_hints(cls)
    required = cls.required_fields()
    infos: list[OptionInfo] = []
    for field in dataclasses.fields(cls):
        if field.name == "name" or not field.init:
            continue
        default: object = None
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        infos.append(OptionInfo(field.name, hints[field.name], field.name in required, default))
    return infos


def _given(values: ParameterListType) -> str:
    return f"'{','.join(_spell(v) for v in values)}'" if values else "no value"


def instantiate(kind: str, cls: type[C], spec: ArgSpec) -> C:
    """Build a pass or target from its spec; SpecError with a one-line message if it cannot.

    `kind` ("pass", "target") is used in messages only.
    """
    options = {info.field: info for info in option_infos(cls)}
    given = spec.normalize_parameter_names().parameters
    flags = ", ".join(info.flag for info in options.values())
    for field, values in given.items():
        info = options.get(field)
        if info is None:
            known = f"its options are: {flags}" if flags else f"the {kind} takes no options"
            raise SpecError(
                f"{kind} '{spec.name}' has no option '{field.replace('_', '-')}'; {known}"
            )
        if not info.accepts(values):
            raise SpecError(
                f"option '{info.flag}' of {kind} '{spec.name}' expects {info.type_name}, "
                f"got {_given(values)}"
            )
    missing = [info.flag for info in options.values() if info.required and info.field not in given]
    if missing:
        raise SpecError(f"{kind} '{spec.name}' requires option '{missing[0]}'")
    try:
        return cls.from_spec(spec)
    except (ValueError, TypeError) as error:
        raise SpecError(f"bad options for {kind} '{spec.name}': {error}") from None


def lookup(kind: str, available: Mapping[str, Callable[[], type[C]]], name: str) -> type[C]:
    """The class registered as `name`; SpecError listing what is available if none is."""
    factory = available.get(name)
    if factory is None:
        known = ", ".join(sorted(available))
        plural = "passes" if kind == "pass" else f"{kind}s"
        raise SpecError(f"unknown {kind} '{name}'; available {plural}: {known}")
    return factory()


def pipeline_error(error: ArgSpecParseError, spec: str, what: str = "pass pipeline") -> str:
    """A one-line message for a malformed `-p` pipeline (xDSL's spans several lines)."""
    text = str(error.args[0]) if error.args else ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    column = re.search(r"pass-pipeline:\d+:(\d+)", text)
    where = f" at column {column.group(1)}" if column else ""
    reason = lines[-1] if lines else "syntax error"
    return f"malformed {what} '{spec}'{where}: {reason}"
