"""Instruments for debugging a compiler: which pass changed the IR, broke it, changed the numbers.

- `IRDiffInstrument`: a unified diff of the printed IR for every pass that
  changed it, attributed to the innermost pass that made the change.
- `VerifyEachInstrument`: verifies the module after every pass; the error
  names the pass that broke the IR and where.
- `NumericsCheckInstrument`: evaluates the entry function with the reference
  interpreter on fixed random inputs before the outermost pass, then after
  every pass; the first pass whose outputs differ beyond the tolerance is
  reported with the largest difference (bisection by pass, for free).

Each raises from `run_after_pass`, so the pass manager restores the module as
it was before the pass that was caught.
"""

from __future__ import annotations

import dataclasses
import difflib
import sys
from typing import IO, Any

import numpy as np
from xdsl.dialects import func
from xrelay.dialects.diagnostics import DiagnosticError, verify_located
from xrelay.dialects.interpreter import Value, evaluate_module, random_inputs
from xrelay.dialects.ir_module import IRModule
from xrelay.passes.instrument import PassInstrument
from xrelay.passes.pass_context import PassInfo, running_passes


class IRDiffInstrument(PassInstrument):
    """Print a unified diff of the IR for every pass that changed it (stderr, or `file`).

    A change made by a pass around the passes it runs itself is shown as that
    outer pass's own. `diffs` keeps `(pass name, diff text)` pairs; passes
    are named by TVM name, or by flag with `flags=True`.
    """

    def __init__(
        self, file: IO[str] | None = None, context_lines: int = 3, flags: bool = False
    ) -> None:
        super().__init__()
        self.file = file
        self.flags = flags
        self.context_lines = context_lines
        self.diffs: list[tuple[str, str]] = []
        self._stack: list[str] = []
        self._last: str | None = None

    def enter_pass_ctx(self) -> None:
        self.diffs = []
        self._stack = []
        self._last = None

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        depth = len(running_passes())
        if depth == 0:
            self._stack, self._last = [], None
        del self._stack[depth:]
        text = mod.astext()
        if self._last is not None and text != self._last and self._stack:
            self._emit(self._stack[-1], self._last, text)
        self._stack.append(info.flag if self.flags else info.name)
        self._last = text

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        text = mod.astext()
        if self._last is not None and text != self._last:
            self._emit(info.flag if self.flags else info.name, self._last, text)
        del self._stack[len(running_passes()) :]
        self._last = text

    def _emit(self, name: str, before: str, after: str) -> None:
        lines = difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"before {name}",
            tofile=f"after {name}",
            n=self.context_lines,
        )
        diff = "".join(lines)
        self.diffs.append((name, diff))
        out = self.file if self.file is not None else sys.stderr
        out.write(f"// ----- IR changed by pass '{name}' -----\n{diff}")


class VerifyEachError(DiagnosticError):
    """A pass left IR that does not verify; the diagnostics say where and name the pass."""

    pass_name: str = ""


class VerifyEachInstrument(PassInstrument):
    """Verify the module after every pass (nested ones too, up to `max_depth` if given).

    The depth of a pass is how many passes enclose it (0 for the outermost).
    Errors name the pass by its TVM name, or by its flag with `flags=True`.
    """

    def __init__(
        self, max_depth: int | None = None, flags: bool = False, min_depth: int = 0
    ) -> None:
        super().__init__()
        self.max_depth = max_depth
        self.min_depth = min_depth
        self.flags = flags

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        depth = len(running_passes())
        if depth < self.min_depth or (self.max_depth is not None and depth > self.max_depth):
            return
        problems = verify_located(mod.module)
        if problems:
            name = info.flag if self.flags else info.name
            suffix = f" (after pass '{name}')"
            error = VerifyEachError(
                [dataclasses.replace(p, message=p.message + suffix) for p in problems]
            )
            error.pass_name = name
            raise error


@dataclasses.dataclass(frozen=True)
class NumericsMismatch:
    """The first pass whose outputs differ from the reference, and by how much."""

    pass_name: str
    message: str
    max_abs_diff: float


class NumericsCheckError(Exception):
    """A pass changed the numbers (or made the module unevaluable)."""

    def __init__(self, mismatch: NumericsMismatch):
        super().__init__(mismatch.message)
        self.mismatch = mismatch


class NumericsCheckInstrument(PassInstrument):
    """Check that no pass changes what the entry function computes.

    Before the outermost pass, evaluates `entry` on seeded random inputs with
    the reference interpreter; after every pass, evaluates again and compares
    (floats with `rtol`/`atol`, everything else exactly). The first mismatch
    is kept in `mismatch` and, with `raise_on_mismatch`, raised as a
    `NumericsCheckError` naming the pass (its flag with `flags=True`) and the
    largest difference. Without raising, each outermost pass run contributes
    its first mismatch to `mismatches` (later passes of that run are not
    compared: they would all differ). `checks` counts the comparisons made.
    """

    def __init__(
        self,
        rtol: float = 1e-4,
        atol: float = 1e-5,
        seed: int = 0,
        entry: str = "main",
        raise_on_mismatch: bool = True,
        flags: bool = False,
    ) -> None:
        super().__init__()
        self.flags = flags
        self.rtol, self.atol, self.seed, self.entry = rtol, atol, seed, entry
        self.raise_on_mismatch = raise_on_mismatch
        self.mismatch: NumericsMismatch | None = None
        self.mismatches: list[NumericsMismatch] = []
        self.checks = 0
        self._inputs: list[Value] | None = None
        self._reference: list[np.ndarray[Any, Any]] = []

    def enter_pass_ctx(self) -> None:
        self.mismatch = None
        self.mismatches = []
        self.checks = 0

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        if running_passes():
            return
        self._inputs = None
        function = next(
            (
                op
                for op in mod.module.ops
                if isinstance(op, func.FuncOp) and op.sym_name.data == self.entry
            ),
            None,
        )
        if function is None:
            raise NumericsCheckError(
                NumericsMismatch(info.name, f"numerics check: module has no '{self.entry}'", 0.0)
            )
        self._inputs = random_inputs(function, self.seed)
        try:
            self._reference = _flatten(evaluate_module(mod.module, self._inputs, self.entry))
        except Exception as error:
            message = (
                f"numerics check: cannot evaluate '{self.entry}' before pass '{info.name}': {error}"
            )
            raise NumericsCheckError(NumericsMismatch(info.name, message, 0.0)) from None

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        if self._inputs is None:  # no reference, or this run already has its culprit
            return
        self.checks += 1
        mismatch = self._compare(mod, info.flag if self.flags else info.name)
        if not running_passes():
            self._inputs = None
        if mismatch is None:
            return
        self._inputs = None
        self.mismatches.append(mismatch)
        if self.mismatch is None:
            self.mismatch = mismatch
        if self.raise_on_mismatch:
            raise NumericsCheckError(mismatch)

    def _compare(self, mod: IRModule, name: str) -> NumericsMismatch | None:
        assert self._inputs is not None
        try:
            outputs = _flatten(evaluate_module(mod.module, self._inputs, self.entry))
        except Exception as error:
            message = (
                f"numerics changed by pass '{name}': '{self.entry}' no longer evaluates: {error}"
            )
            return NumericsMismatch(name, message, float("inf"))
        if len(outputs) != len(self._reference):
            message = (
                f"numerics changed by pass '{name}': {len(outputs)} outputs, "
                f"expected {len(self._reference)}"
            )
            return NumericsMismatch(name, message, float("inf"))
        for index, (got, want) in enumerate(zip(outputs, self._reference, strict=True)):
            if got.shape != want.shape or got.dtype != want.dtype:
                message = (
                    f"numerics changed by pass '{name}': output {index} is "
                    f"{got.dtype}{list(got.shape)}, expected {want.dtype}{list(want.shape)}"
                )
                return NumericsMismatch(name, message, float("inf"))
            if np.issubdtype(want.dtype, np.floating):
                close = np.allclose(got, want, rtol=self.rtol, atol=self.atol, equal_nan=True)
            else:
                close = bool(np.array_equal(got, want))
            if close:
                continue
            diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
            largest = float(np.nanmax(diff)) if diff.size else 0.0
            message = (
                f"numerics changed by pass '{name}': output {index} differs by up to "
                f"{largest:.6g} (rtol {self.rtol:g}, atol {self.atol:g})"
            )
            return NumericsMismatch(name, message, largest)
        return None


def _flatten(value: Value) -> list[np.ndarray[Any, Any]]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in _flatten(item)]  # pyright: ignore[reportUnknownVariableType]
    return [np.asarray(value)]
