"""The code generators `xrelay.build` knows, by BYOC target name.

A backend that can be built (not only partitioned for) registers a
`CodegenTarget` here from its `codegen/<target>/` folder, as an out-of-tree
backend would: the passes that lower its partitioned functions (run after
partitioning and host optimization, before memory planning) and the printer of
those functions inside the host C emitter. `xrelay.build(mod, target=[t, "c"])`
then partitions for `t`, lowers, plans and emits; a target without a
registered code generator is refused by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.dialects import func
    from xrelay.codegen.c.emitter import CEmitter
    from xrelay.codegen.c.function import FunctionEmitter

FunctionEmitterFactory = Callable[["CEmitter", "func.FuncOp", str], "FunctionEmitter"]
"""`factory(owner, function, c_symbol)`: the printer of one function partitioned for a target."""


@dataclass(frozen=True)
class CodegenTarget:
    """How one BYOC target's partitions become C inside a model library."""

    name: str
    """The `Compiler` attribute value of the functions this generator prints (e.g. `accel`)."""

    lowering: tuple[str, ...]
    """Pass flags lowering the target's partitioned functions (e.g. `convert-relay-to-accel`)."""

    function_emitter: FunctionEmitterFactory
    """Prints one lowered function of the target."""

    cflags: tuple[str, ...] = ()
    """Compiler flags for the target's own translation units only (e.g. `-O3`, `-march=native`)."""

    ldflags: tuple[str, ...] = ()
    """Link flags a library with this target's code needs (e.g. `-ldnnl`)."""


_TARGETS: dict[str, CodegenTarget] = {}


def register_codegen(target: CodegenTarget) -> CodegenTarget:
    """Register (or replace) the code generator of `target.name`; returns it."""
    _TARGETS[target.name] = target
    return target


def get_codegen(name: str) -> CodegenTarget | None:
    """The code generator registered for the BYOC target `name`, None if there is none."""
    return _TARGETS.get(name)


def codegen_names() -> list[str]:
    """The targets with a code generator, sorted (the host target `c` is not listed)."""
    return sorted(_TARGETS)
