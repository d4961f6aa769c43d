"""The code generators `xrelay.build` knows, by BYOC target name.

A backend that can be built (not only partitioned for) registers a
`CodegenTarget` here from its `codegen/<target>/` folder, as an out-of-tree
backend would: the passes that prepare the whole module for it (its
`prelude`, run before partitioning), the passes that lower its partitioned
functions (run after partitioning and host optimization, before memory
planning) and the printer of those functions inside the host C emitter.
`xrelay.build(mod, target=[t, "c"])` then partitions for `t`, lowers, plans
and emits; a target without a registered code generator is refused by name.

A target says what it is: its `dialect` (the ops its lowering makes and its
emitter prints) and what else its emitter `accepts`. A function partitioned
for a target of the build (`Compiler = "<t>"`) always goes to that target's
emitter; an op in it the target does not take (a partition whose lowering did
not run, or was disabled) is a located error naming the op, the function and
the target, never host C.

A prelude is TVM's `partition_for_<target>` preparation made per target (as
`partition_for_dnnl` runs `ConvertLayout` before partitioning): each entry is
one pass as `xrelay-opt -p` spells it, a flag with its options, e.g.
`'convert-layout{desired-layouts="nn.conv2d:NHWC:default"}'` or `fold-constant`.
`xrelay.build` runs the preludes of the targets it builds for, in the
target list's order, on the whole module right after its common
`PARTITION_PRELUDE` (in the same `Sequential`: gated at the build's
`opt_level`, not run with `optimize=False`). A prelude changes the module
every target then sees: a target before another in the list partitions what
the other's prelude left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.dialects import func
    from xrelay.codegen.c.emitter import CEmitter
    from xrelay.codegen.c.function import FunctionEmitter
    from xrelay.passes.pass_manager import Pass

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
    """Compiler flags for the target's own translation units only (e.g. `-O3`, `-fopenmp`)."""

    ldflags: tuple[str, ...] = ()
    """Link flags a library with this target's code needs (e.g. `-ldnnl`)."""

    prelude: tuple[str, ...] = ()
    """Passes run on the whole module before partitioning when the build has this target: each
    a pass flag with its options in `xrelay-opt -p` syntax (module docstring)."""

    dialect: str | None = None
    """The dialect its lowering makes and its emitter prints (`accel` for `accel.*` ops); None
    for an emitter that takes relay ops as they are (no op is refused before it runs)."""

    accepts: tuple[str, ...] = ()
    """Ops of other dialects its emitter takes too, by name: the structure around its kernels
    (e.g. `relay.constant`, `func.return`). With `dialect`, every other op in one of its
    functions is a located error before its emitter runs (`CEmitter.check_partition`)."""

    def takes(self, op_name: str) -> bool:
        """Whether its emitter takes the op `op_name` (of `dialect`, or one it `accepts`)."""
        if self.dialect is None:
            return True
        return op_name.startswith(f"{self.dialect}.") or op_name in self.accepts


_TARGETS: dict[str, CodegenTarget] = {}


def register_codegen(target: CodegenTarget) -> CodegenTarget:
    """Register (or replace) the code generator of `target.name`; returns it."""
    _TARGETS[target.name] = target
    return target


def get_codegen(name: str) -> CodegenTarget | None:
    """The code generator registered for the BYOC target `name`, None if there is none.

    An unknown name loads the installed plugins (`xrelay.plugins`) and looks again.
    """
    found = _TARGETS.get(name)
    if found is None:
        from xrelay.plugins import discover

        if discover():
            return _TARGETS.get(name)
    return found


def prelude_passes(targets: Sequence[str]) -> list[Pass]:
    """The prelude passes of `targets` (registered names), in list order, built from their specs.

    `ValueError` naming the target and the spec for an unknown pass or bad options.
    """
    from xdsl.passes import PassPipeline
    from xdsl.utils.exceptions import ArgSpecParseError
    from xrelay.passes import get_all_passes
    from xrelay.passes.adapters import to_pass

    available = get_all_passes()
    passes: list[Pass] = []
    for name in targets:
        codegen = _TARGETS.get(name)
        for spec in codegen.prelude if codegen is not None else ():
            try:
                parsed = PassPipeline.parse_spec(available, spec).passes
            except (ArgSpecParseError, ValueError) as error:
                raise ValueError(f"target '{name}': bad prelude pass '{spec}': {error}") from None
            passes.extend(to_pass(p) for p in parsed)
    return passes


def codegen_names() -> list[str]:
    """The targets with a code generator, sorted (the host target `c` is not listed; installed
    plugins are loaded first)."""
    from xrelay.plugins import discover

    discover()
    return sorted(_TARGETS)
