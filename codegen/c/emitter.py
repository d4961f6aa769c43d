"""The host C emitter: a planned module as the C sources of one model library.

Input: a module after `optimize` (FuseOps) and `plan-memory` (its attributes
say where every value lives). Output (`CEmitter(module).emit()`, a
`CSources`): the files `compile_library` builds into one `.so` implementing
`xrelay_runtime.h`:

- `model.h`: includes, integer helpers, the constants' and kernels' declarations;
- `model.c`: the C ABI (tensor infos, `xrelay_model_create` allocating the
  arena once, `xrelay_model_run` checking pointers and calling the entry
  function, `xrelay_last_error`), the constants (`constants.bin` through
  `.incbin`, see `constants.py`) and, for a small model, the kernels too;
- `kernels_<n>.c` when the kernels' text is large: parallel compiles;
- `constants.bin`: the constants' bytes.

Every planned function (the entry and what it calls: FuseOps' `Primitive`
functions, helpers, functions of a `Compiler` target not built here) becomes
one C function (`function.py`); inside, chains of elementwise ops are one
loop nest (`fusion.py`, `scalar_ops.py`) and every other op is printed by the
kernel printer `KERNELS[op.name]` (`kernels_*.py`). An op with neither is the
located error `'<op>' op cannot be emitted for target 'c'`.

This class only prints. A variant for another target subclasses it and
overrides data: `TARGET`, `KERNELS`, `SCALAR_RULES`, `UNIT_CHARS`, the type
map (`scalars.py`) through `scalar_of`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xrelay.codegen.c import abi
from xrelay.codegen.c.constants import DATA_FILE, ConstantPool
from xrelay.codegen.c.function import FunctionEmitter, PlanMissing, int_attribute
from xrelay.codegen.c.kernel_api import KernelFn, Unsupported
from xrelay.codegen.c.kernels import KERNELS
from xrelay.codegen.c.names import NameTable
from xrelay.codegen.c.scalar_ops import SCALAR_RULES, ScalarRule
from xrelay.dialects.diagnostics import DiagnosticError, op_error

PLAN_HINT = "run plan-memory first, e.g. -p 'optimize{opt-level=3},plan-memory'"


@dataclass
class CSources:
    """The generated files, by name: C text, or bytes for `constants.bin`."""

    files: dict[str, str | bytes] = field(default_factory=dict[str, "str | bytes"])

    def render(self) -> str:
        """Every text file under a `// ----- <name>` line; binary files by size only."""
        out = io.StringIO()
        for name, content in self.files.items():
            if isinstance(content, bytes):
                out.write(f"// ----- {name}: {len(content)} bytes of binary data\n")
            else:
                out.write(f"// ----- {name}\n{content}")
        return out.getvalue()


class CEmitter:
    """Prints a planned module as C (see the module docstring)."""

    TARGET: ClassVar[str] = "c"
    """The target name in error messages."""

    KERNELS: ClassVar[Mapping[str, KernelFn]] = KERNELS
    """Op name -> printer of its loop nests (ops that are not elementwise)."""

    SCALAR_RULES: ClassVar[Mapping[str, ScalarRule]] = SCALAR_RULES
    """Op name -> scalar expression (elementwise ops, fused into loop nests)."""

    UNIT_CHARS: ClassVar[int] = 120_000
    """Kernels beyond this much C text go into translation units of about this size."""

    def __init__(self, module: ModuleOp, entry: str = "main") -> None:
        self.module = module
        self.entry = entry
        self.kernels = self.KERNELS
        self.scalar_rules = self.SCALAR_RULES
        self.names = NameTable(frozenset({"arena"}))
        self.constants = ConstantPool(self.names)
        self._symbols: dict[str, tuple[str, int]] = {}

    # ------------------------------------------------------------ helpers for FunctionEmitter

    def guard(self, op: Operation, action: Callable[..., Any], *args: Any) -> Any:
        """Run `action(*args)`; `Unsupported` or a missing plan becomes a located error on `op`."""
        try:
            return action(*args)
        except Unsupported as error:
            raise DiagnosticError([op_error(op, self.message(str(error)))]) from None
        except PlanMissing as error:
            message = f"has no memory plan ({error.args[0]} is missing); {PLAN_HINT}"
            raise DiagnosticError([op_error(op, message)]) from None

    def message(self, reason: str) -> str:
        """`cannot be emitted for target 'c'`, with the reason when there is one."""
        where = f"for target '{self.TARGET}'"
        if reason.startswith("cannot emit type"):
            return f"{reason} {where}"
        if reason == "cannot be emitted":
            return f"cannot be emitted {where}"
        detail = reason.removeprefix("cannot be emitted: ")
        return f"cannot be emitted {where}: {detail}"

    def function_emitter(self, function: func.FuncOp, symbol: str) -> FunctionEmitter:
        """The printer of one function (a target variant may print some functions its way)."""
        return FunctionEmitter(self, function, symbol)

    def function_symbol(self, name: str) -> tuple[str, int] | None:
        """The C name and arena offset of a planned function, None if it has none."""
        return self._symbols.get(name)

    # ------------------------------------------------------------ the module

    def emit(self) -> CSources:
        """The model's sources; `DiagnosticError` (located) for what cannot be emitted."""
        if not isinstance(self.module.attributes.get("xrelay.arena_size"), IntegerAttr):
            message = f"has no memory plan (xrelay.arena_size is missing); {PLAN_HINT}"
            raise DiagnosticError([op_error(self.module, message)])
        functions = [
            f
            for f in self.module.ops
            if isinstance(f, func.FuncOp)
            and f.body.blocks
            and "xrelay.arena_offset" in f.attributes
        ]
        entry = next((f for f in functions if f.sym_name.data == self.entry), None)
        if entry is None:
            message = f"has no planned function @{self.entry}; {PLAN_HINT}"
            raise DiagnosticError([op_error(self.module, message)])
        for f in functions:
            symbol = self.names.unique(f.sym_name.data, "xk_")
            self._symbols[f.sym_name.data] = (
                symbol,
                self.guard(f, int_attribute, f, "xrelay.arena_offset"),
            )
        emitters = [
            self.guard(f, self.function_emitter, f, self._symbols[f.sym_name.data][0])
            for f in functions
        ]
        bodies = [e.emit() for e in emitters]
        entry_emitter = emitters[functions.index(entry)]
        runner = self.guard(
            entry, abi.Runner, entry, entry_emitter.symbol, self.arena(), entry_emitter.base
        )
        return self._assemble(emitters, bodies, runner)

    def arena(self) -> tuple[int, int]:
        """(size, alignment) of the instance arena, from the module's plan."""
        size = int_attribute(self.module, "xrelay.arena_size")
        alignment = 64
        if "xrelay.alignment" in self.module.attributes:
            alignment = int_attribute(self.module, "xrelay.alignment")
        return size, alignment

    def _assemble(
        self, emitters: list[FunctionEmitter], bodies: list[str], runner: abi.Runner
    ) -> CSources:
        prototypes = [f"XR_HIDDEN {e.prototype()};" for e in emitters]
        header = abi.header(self.constants.declarations(), prototypes)
        units: list[list[str]] = [[]]
        size = 0
        for body in bodies:
            if units[-1] and size + len(body) > self.UNIT_CHARS:
                units.append([])
                size = 0
            units[-1].append(body)
            size += len(body)
        model = runner.source(self.constants.definitions(), units[0] if len(units) == 1 else [])
        files: dict[str, str | bytes] = {"model.h": header, "model.c": model}
        if len(units) > 1:
            for number, unit in enumerate(units):
                files[f"kernels_{number}.c"] = abi.kernel_unit(unit)
        data = self.constants.data()
        if data or self.constants.entries:
            files[DATA_FILE] = data
        return CSources(files)


def emit_c(module: ModuleOp, entry: str = "main") -> CSources:
    """The C sources of a planned module (`CEmitter(module, entry).emit()`)."""
    return CEmitter(module, entry).emit()
