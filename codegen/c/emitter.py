"""The host C emitter: a planned module as the C sources of one model library.

Input: a module after `optimize` (FuseOps), the BYOC targets' lowering (e.g.
`convert-relay-to-accel`) and `plan-memory` (its attributes say where every
value lives). Output (`CEmitter(module).emit()`, a `CSources`): the files
`compile_library` builds into one `.so` implementing `xrelay_runtime.h`:

- `model.h`: includes, integer helpers, the constants' declarations and the
  prototype of every C function (host code calls partitions through these);
- `model.c`: the C ABI (tensor infos, `xrelay_model_create` allocating the
  arena once, `xrelay_model_run` checking pointers and calling the entry
  function, `xrelay_last_error`; a target's instance hooks, see
  `instance_slot` and `add_instance_hook`), the constants (`constants.bin` through
  `.incbin`, see `constants.py`) and, for a small model, the host kernels too;
- `kernels_<n>.c` when the host kernels' text is large: parallel compiles;
  `model.c` and these are compiled with `HOST_CFLAGS` (`-O3` after the `-march`:
  fused elementwise loops vectorize);
- `<t>.c` (e.g. `accel.c`), or `<t>_<n>.c` when large: the functions of the
  BYOC target `t`, compiled in parallel with the host's;
- `kernels_<lib>.c`: a unit of the shared kernel library (`codegen/kernels`,
  e.g. `kernels_gemm.c`) when a kernel calls it, with the library's flags; it
  includes no `model.h` (`abi.library_unit`), so builds share its object;
- `isa_required.c` and `isa.c`: the instruction set features the library needs
  and the check that refuses a CPU lacking one (`isa.py`);
- `kernels_generated.c` (`kernels_generated_<n>.c` when large): the library
  routines printed for this model's ops (`codegen/kernels/routine.py`, e.g.
  the float32 convolutions), with the library's flags;
- `constants.bin`: the constants' bytes.

Every unit is compiled with `-march=<march>` (the build option `march`,
default `native`) but `isa.c`, compiled for the architecture's baseline; the
targets' and libraries' own flags follow. `march=None` adds no `-march`.

Every planned function (the entry and what it calls: FuseOps' `Primitive`
functions, helpers, partitions) becomes one C function. Who prints it
(`function_emitter`): a function with `Compiler = "<t>"`, `t` one of the
build's targets (`targets`; by default every target with a code generator,
`codegen/targets.py`), is printed by `t`'s function emitter, with `t`'s kernels
only; first every op in it must be one `t` takes (of its `dialect`, or one it
`accepts`), else each other op is the located error `'<op>' op cannot be
emitted for target '<t>': lower it with <t's first lowering pass> first (in
function @<f>, partitioned for '<t>')` (a partition whose lowering did not run
is never host C). Every other function, including a partition for a target
the build does not have (a `target="c"` build of a partitioned module), is
host code (`function.py`): chains of elementwise ops are one loop nest (`fusion.py`,
`scalar_ops.py`) and every other op is printed by the kernel printer
`KERNELS[op.name]` (`kernels_*.py`). An op with neither is the located error
`'<op>' op cannot be emitted for target '<t>'`, `t` being the target of the
function it is in (`c` for host code).

With `profile=True` (the build option `profile`) every kernel is timed: the
entry function, each op it runs and each op of a BYOC target's functions get
a timer and a named counter, read through `xrelay_profile_*` (`profile.py`);
without it the text has no trace of profiling.

This class only prints. A variant for another target subclasses it and
overrides data: `TARGET`, `KERNELS`, `SCALAR_RULES`, `UNIT_CHARS`, the type
map (`scalars.py`) through `scalar_of`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xrelay.codegen.c import abi, isa, profile
from xrelay.codegen.c.constants import DATA_FILE, ConstantPool
from xrelay.codegen.c.function import FunctionEmitter, PlanMissing, int_attribute
from xrelay.codegen.c.kernel_api import KernelFn, Unsupported
from xrelay.codegen.c.kernels import KERNELS
from xrelay.codegen.c.names import NameTable, c_identifier
from xrelay.codegen.c.profile import Profiler
from xrelay.codegen.c.scalar_ops import SCALAR_RULES, ScalarRule
from xrelay.codegen.kernels import CFLAGS, HOST_CFLAGS, LIBRARIES, closure
from xrelay.codegen.kernels.routine import ROUTINE_UNIT, Routine
from xrelay.codegen.targets import CodegenTarget, get_codegen
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, location_of, op_error

PLAN_HINT = "run plan-memory first, e.g. -p 'optimize{opt-level=3},plan-memory'"


@dataclass
class CSources:
    """The generated files, by name: C text, or bytes for `constants.bin`."""

    files: dict[str, str | bytes] = field(default_factory=dict[str, "str | bytes"])

    unit_cflags: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    """Compiler flags for some units only (a BYOC target's), by file name."""

    ldflags: list[str] = field(default_factory=list[str])
    """Link flags the library needs (BYOC targets' libraries)."""

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

    def __init__(
        self,
        module: ModuleOp,
        entry: str = "main",
        num_threads: int | None = None,
        profile: bool = False,
        march: str | None = "native",
        targets: Sequence[str] | None = None,
    ) -> None:
        self.module = module
        self.targets = None if targets is None else tuple(targets)
        """The build's BYOC targets: their partitions go to their emitters (`codegen_of`);
        None: every target with a code generator (`xrelay-opt -t c`)."""
        self.march = march
        """The `-march` of every unit but `isa.c` (None: none, the compiler's default)."""
        self.entry = entry
        self.num_threads = num_threads
        """Threads for the targets' kernels that run on several (the build option
        `num_threads`); None: the threading library's default at run time."""
        self.profiler = Profiler(entry) if profile else None
        """The timers of a profiling build (the build option `profile`, `profile.py`)."""
        self.kernels = self.KERNELS
        self.scalar_rules = self.SCALAR_RULES
        self.names = NameTable(frozenset({"arena"}))
        self.constants = ConstantPool(self.names)
        self._symbols: dict[str, tuple[str, int]] = {}
        self._hooks: list[abi.InstanceHook] = []
        self._slots = 0
        self.libraries: set[str] = set()
        """The shared kernel library's units the printed kernels call (`codegen/kernels`)."""
        self.routines: dict[str, Routine] = {}
        """Generated library functions the printed kernels call, by name (`routine.py`)."""

    # ------------------------------------------------------------ helpers for FunctionEmitter

    def guard(
        self, op: Operation, action: Callable[..., Any], *args: Any, target: str | None = None
    ) -> Any:
        """Run `action(*args)`; `Unsupported` or a missing plan becomes a located error on `op`.

        The error names `target` (the target of the function `op` is in),
        by default this emitter's `TARGET`.
        """
        try:
            return action(*args)
        except Unsupported as error:
            raise DiagnosticError([op_error(op, self.message(str(error), target))]) from None
        except PlanMissing as error:
            message = f"has no memory plan ({error.args[0]} is missing); {PLAN_HINT}"
            raise DiagnosticError([op_error(op, message)]) from None

    def message(self, reason: str, target: str | None = None) -> str:
        """`cannot be emitted for target '<target>'` (default `TARGET`), with the reason if any."""
        where = f"for target '{self.TARGET if target is None else target}'"
        if reason.startswith("cannot emit type"):
            return f"{reason} {where}"
        if reason == "cannot be emitted":
            return f"cannot be emitted {where}"
        detail = reason.removeprefix("cannot be emitted: ")
        return f"cannot be emitted {where}: {detail}"

    def function_emitter(self, function: func.FuncOp, symbol: str) -> FunctionEmitter:
        """The printer of one function: its target's (`codegen_of`), else the host's."""
        codegen = self.codegen_of(function)
        if codegen is None:
            return FunctionEmitter(self, function, symbol)
        self.check_partition(function, codegen)
        return self.guard(
            function, codegen.function_emitter, self, function, symbol, target=codegen.name
        )

    def codegen_of(self, function: func.FuncOp) -> CodegenTarget | None:
        """The code generator of `function`'s `Compiler` target if that is one of the build's
        `targets` and has one; None for host code."""
        compiler = function.attributes.get("Compiler")
        if not isinstance(compiler, StringAttr) or compiler.data == self.TARGET:
            return None
        if self.targets is not None and compiler.data not in self.targets:
            return None
        return get_codegen(compiler.data)

    def check_partition(self, function: func.FuncOp, codegen: CodegenTarget) -> None:
        """A located error for every op of `function` (partitioned for `codegen`) that its
        target does not take (`CodegenTarget.takes`), naming the op, function and target."""
        reason = "cannot be emitted"
        if codegen.lowering:
            reason += f": lower it with {codegen.lowering[0]} first"
        where = f"(in function @{function.sym_name.data}, partitioned for '{codegen.name}')"
        errors = [
            _error_within(op, f"{self.message(reason, codegen.name)} {where}")
            for block in function.body.blocks
            for op in block.ops
            if not codegen.takes(op.name)
        ]
        if errors:
            raise DiagnosticError(errors)

    def instance_slot(self) -> int:
        """A new pointer-sized slot per model instance, zeroed at creation, for a target's
        state: its byte offset from the instance arena's start (after the planned arena)."""
        self._slots += 1
        start = -(-self.arena()[0] // abi.SLOT_BYTES) * abi.SLOT_BYTES
        return start + abi.SLOT_BYTES * (self._slots - 1)

    def add_instance_hook(self, hook: abi.InstanceHook) -> None:
        """Have the model call `hook`'s functions at instance creation, after each run and at
        destruction (`abi.InstanceHook`), in the order they were added."""
        self._hooks.append(hook)

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
            entry,
            abi.Runner,
            entry,
            entry_emitter.symbol,
            self.arena(),
            entry_emitter.base,
            self._hooks,
            self._slots,
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
        libraries = [LIBRARIES[name] for name in closure(self.libraries)]
        if libraries:
            prototypes.append(f"#define XR_NUM_THREADS {self.num_threads or 0}")
        prototypes += [line for library in libraries for line in library.prototypes]
        prototypes += [f"{r.prototype};" for r in self.routines.values()]
        timers = self.profiler
        header = abi.header(
            self.constants.declarations(), prototypes, profile.DECLARATIONS if timers else ()
        )
        by_target: dict[str, list[str]] = {self.TARGET: []}
        preludes: dict[str, list[str]] = {}
        for emitter, body in zip(emitters, bodies, strict=True):
            by_target.setdefault(emitter.target, []).append(body)
            prelude = emitter.unit_prelude()
            if prelude and prelude not in preludes.setdefault(emitter.target, []):
                preludes[emitter.target].append(prelude)
        host = self._units(by_target.pop(self.TARGET))
        definitions = self.constants.definitions()
        if timers is not None:
            definitions = [*definitions, "#include <time.h>", "", *timers.definitions()]
        model = runner.source(definitions, host[0] if len(host) == 1 else [])
        if timers is not None:
            model = f"{profile.POSIX}\n{model}"
        files: dict[str, str | bytes] = {"model.h": header, "model.c": model}
        unit_cflags: dict[str, list[str]] = {"model.c": list(HOST_CFLAGS)}
        if len(host) > 1:
            for number, unit in enumerate(host):
                files[f"kernels_{number}.c"] = abi.kernel_unit(unit)
                unit_cflags[f"kernels_{number}.c"] = list(HOST_CFLAGS)
        ldflags: list[str] = []
        for target, target_bodies in by_target.items():
            stem = self.unit_stem(target)
            units = self._units(target_bodies)
            codegen = get_codegen(target)
            for number, unit in enumerate(units):
                name = f"{stem}.c" if len(units) == 1 else f"{stem}_{number}.c"
                files[name] = abi.kernel_unit([*preludes.get(target, []), *unit])
                if codegen is not None and codegen.cflags:
                    unit_cflags[name] = list(codegen.cflags)
            if codegen is not None:
                ldflags += [flag for flag in codegen.ldflags if flag not in ldflags]
        for library in libraries:
            declarations = [
                line for name in closure({library.name}) for line in LIBRARIES[name].prototypes
            ]
            files[library.unit] = abi.library_unit(declarations, library.source)
            unit_cflags[library.unit] = list(library.cflags)
            ldflags += [flag for flag in library.ldflags if flag not in ldflags]
        self._routine_units(files, unit_cflags)
        self._add_isa(files, unit_cflags)
        data = self.constants.data()
        if data or self.constants.entries:
            files[DATA_FILE] = data
        return CSources(files, unit_cflags, ldflags)

    def _add_isa(self, files: dict[str, str | bytes], unit_cflags: dict[str, list[str]]) -> None:
        """`-march` before every unit's flags, and the ISA units (`isa.py`)."""
        isa_files, isa_flags = isa.units(self.march)
        if self.march is not None:
            march = [isa.march_flag(self.march)]
            for name in files:
                if name.endswith(".c"):
                    unit_cflags[name] = [*march, *unit_cflags.get(name, [])]
        files.update(isa_files)
        unit_cflags.update({name: flags for name, flags in isa_flags.items() if flags})

    def _routine_units(
        self, files: dict[str, str | bytes], unit_cflags: dict[str, list[str]]
    ) -> None:
        """The generated library units (`codegen/kernels/routine.py`): the routines in order,
        cut as the host's kernels are, each unit after its routines' preludes, with `CFLAGS` and
        the flags its routines ask for (`Routine.cflags`)."""
        routines = list(self.routines.values())
        units = self._units([r.definition() for r in routines]) if routines else []
        at = 0
        for number, unit in enumerate(units):
            preludes: list[str] = []
            flags: list[str] = list(CFLAGS)
            for r in routines[at : at + len(unit)]:
                preludes += [p for p in r.preludes if p not in preludes]
                flags += [flag for flag in r.cflags if flag not in flags]
            at += len(unit)
            name = ROUTINE_UNIT if len(units) == 1 else f"{ROUTINE_UNIT[:-2]}_{number}.c"
            files[name] = abi.kernel_unit([*preludes, *unit])
            unit_cflags[name] = flags

    def _units(self, bodies: list[str]) -> list[list[str]]:
        """`bodies` in order, cut into translation units of about `UNIT_CHARS` (at least one)."""
        units: list[list[str]] = [[]]
        size = 0
        for body in bodies:
            if units[-1] and size + len(body) > self.UNIT_CHARS:
                units.append([])
                size = 0
            units[-1].append(body)
            size += len(body)
        return units

    @staticmethod
    def unit_stem(target: str) -> str:
        """The file name stem of a BYOC target's translation units: `accel` -> `accel.c`."""
        stem = c_identifier(target, "")
        taken = stem in ("model", "constants") or stem.startswith(("kernels", "isa"))
        return f"target_{stem}" if taken else stem


def _error_within(op: Operation, message: str) -> Diagnostic:
    """`op_error(op, message)`, placed where the first op inside `op` came from when `op`
    itself was made by a pass (a composite, around the ops it wraps)."""
    if not isinstance(op.location, FileLineColLoc):
        inner = next((o for o in op.walk() if isinstance(o.location, FileLineColLoc)), None)
        if inner is not None:
            filename, line, column = location_of(inner)
            return Diagnostic(filename, line, column, "error", f"'{op.name}' op {message}")
    return op_error(op, message)


def emit_c(module: ModuleOp, entry: str = "main") -> CSources:
    """The C sources of a planned module (`CEmitter(module, entry).emit()`)."""
    return CEmitter(module, entry).emit()
