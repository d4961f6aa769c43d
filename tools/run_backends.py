"""What `xrelay-run` runs a function with: the reference interpreter, or a built library.

Both take the values of every parameter of the function (bound params
included, in parameter order) and return its results as the interpreter
does (one value per result, tuples as tuples), so the driver prints and
saves them the same way. `measure` times repeated calls; `LibraryRunner.profile_table`
prints a profiling build's kernel times.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xdsl.dialects import func
from xrelay.codegen.build import BuildError
from xrelay.codegen.runtime.loader import UnsupportedCPUError
from xrelay.codegen.runtime.profile import format_profile
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.ir_module import IRModule
from xrelay.tools.run_io import Array, RunError, leaves, unflatten

if TYPE_CHECKING:
    from xrelay.codegen.c.pipeline import BuiltLibrary


class InterpreterRunner:
    """Runs `entry` of a module with the numpy reference interpreter."""

    def __init__(self, mod: IRModule, entry: str) -> None:
        self.evaluator = Evaluator(mod.module)
        self.entry = entry

    def __call__(self, values: Sequence[Value]) -> list[Value]:
        """The results of one call."""
        return self.evaluator.call(self.entry, values)


class LibraryRunner:
    """Builds `main` with `xrelay.build` for `targets` and runs the library.

    `params` are bound at build, so the library takes the other parameters
    (tuples flattened into their fields); its flat outputs are regrouped into
    main's result types.
    """

    def __init__(
        self,
        mod: IRModule,
        targets: Sequence[str],
        params: Mapping[str, Array],
        options: Mapping[str, Any],
    ) -> None:
        import xrelay  # the C pipeline is imported only when a library is built

        main = function_of(mod, "main")
        self.bound = [arg.name_hint in params for arg in main.body.block.args]
        self.result_types = list(main.function_type.outputs.data)
        target: str | list[str] = targets[0] if len(targets) == 1 else list(targets)
        try:
            self.library: BuiltLibrary = xrelay.build(mod, target, params, options)
        except (BuildError, UnsupportedCPUError) as error:
            raise RunError(one_line(error)) from None

    def __call__(self, values: Sequence[Value]) -> list[Value]:
        """The results of one call; `RunError` if the model reports a failure."""
        arrays = [
            leaf
            for value, bound in zip(values, self.bound, strict=True)
            if not bound
            for leaf in leaves(value)
        ]
        try:
            out = self.library(*arrays)
        except RuntimeError as error:
            raise RunError(f"running {self.library.path.name}: {one_line(error)}") from None
        flat: list[Value] = list(out) if isinstance(out, tuple) else [out]
        return unflatten(self.result_types, flat)

    def profile_table(self) -> str:
        """The kernel times of a profiling build so far: `profile: N runs` and the table."""
        entries = self.library.profile()
        runs = entries[0].calls if entries else 0
        lines = [f"profile: {runs} run{'s' * (runs != 1)}", *format_profile(entries)]
        return "\n".join(lines)

    def export(self, path: str) -> Path:
        """Copy the built library to `path`; `RunError` if it cannot be written."""
        try:
            return self.library.export_library(path)
        except OSError as error:
            raise RunError(f"--export: cannot write {path}: {error.strerror or error}") from None


def one_line(error: BaseException) -> str:
    """An error's first line; for a compiler failure, with the compiler's first error line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    detail = next((line for line in lines[1:] if "error" in line), "")
    return f"{lines[0]} {detail}" if detail else lines[0]


def function_of(mod: IRModule, entry: str) -> func.FuncOp:
    """The function `entry` of the module; `RunError` if there is none."""
    for op in mod.module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == entry:
            return op
    raise RunError(f"the module has no function '{entry}'")


@dataclass(frozen=True)
class Timing:
    """Wall-clock times of repeated calls."""

    runs: int
    median_ms: float
    min_ms: float

    def __str__(self) -> str:
        return f"time: median {self.median_ms:.4g} ms, min {self.min_ms:.4g} ms, {self.runs} runs"


def measure(call: Callable[[], object], runs: int) -> Timing:
    """Call `call` `runs` times (the caller has warmed it up) and time each call."""
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return Timing(runs, statistics.median(times), min(times))
