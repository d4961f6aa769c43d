"""The registry of `xrelay-opt -t` output formats a plugin adds (built-ins: mlir, dot, c).

An output format is an xDSL `Target` class (`xdsl.utils.target.Target`: a
dataclass whose fields are its `-t name{option=value}` options, with
`emit(ctx, module, output)`), registered by name with a zero-argument
factory returning the class, so that naming formats imports nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.utils.target import Target

OutputFormatFactory = Callable[[], type[Target]]
"""A zero-argument callable returning an output format's `Target` class."""

_FORMATS: dict[str, OutputFormatFactory] = {}


def register_output_format(name: str, factory: OutputFormatFactory) -> None:
    """Make `xrelay-opt -t <name>` print with the `Target` class `factory()` returns.

    Registering a name twice is an error (`ValueError`), as for passes; the
    built-in formats `mlir`, `dot` and `c` cannot be replaced.
    """
    if name in _FORMATS or name in ("mlir", "dot", "c"):
        raise ValueError(f"output format '{name}' is already registered")
    _FORMATS[name] = factory


def output_formats() -> dict[str, OutputFormatFactory]:
    """The formats plugins registered, by name (a fresh dict)."""
    return dict(_FORMATS)
