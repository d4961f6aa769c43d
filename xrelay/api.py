"""Top-level functions of the public face: `parse`, `evaluate`, `optimize` and `build`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from xrelay.dialects.depth import nesting_guard
from xrelay.dialects.diagnostics import check_module
from xrelay.dialects.interpreter import MAX_CALL_DEPTH, Value, evaluate_module
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.parser import parse_module

if TYPE_CHECKING:
    from xrelay.codegen.c.pipeline import BuiltLibrary


def parse(text: str, filename: str = "<string>") -> IRModule:
    """Parse and verify xrelay text; errors raise `DiagnosticError` with `file:line:col`."""
    module = parse_module(text, filename)
    check_module(module)
    return IRModule(module=module)


def optimize(mod: IRModule, opt_level: int | None = None, fuse: bool = True) -> IRModule:
    """The optimizations relay.build applies (the `optimize` pipeline), in place.

    `opt_level=None` runs at the current PassContext's opt_level (2 by
    default, as in TVM); a level runs the passes at that level, keeping the
    context's instruments and settings. `fuse=False` stops before FuseOps.
    """
    from xrelay.passes.optimize import OptimizePass

    level = -1 if opt_level is None else opt_level
    with nesting_guard("xrelay.optimize", mod.module):
        return OptimizePass(opt_level=level, fuse=fuse).build().run_in_place(mod)


def evaluate(
    mod: IRModule, *inputs: Value, entry: str = "main", max_call_depth: int = MAX_CALL_DEPTH
) -> Value:
    """Run `entry` with the numpy reference interpreter; numpy in, numpy out.

    A failure in the module (an op that cannot run, calls nested deeper than
    `max_call_depth`, a result that cannot be allocated) raises
    `EvaluationError`, a located `DiagnosticError`.
    """
    with nesting_guard("xrelay.evaluate", mod.module):
        return evaluate_module(mod.module, inputs, entry, max_call_depth)


def build(
    mod: IRModule,
    target: str | Sequence[str] = "c",
    params: Mapping[str, npt.ArrayLike] | None = None,
    options: Mapping[str, Any] | None = None,
) -> BuiltLibrary:
    """Compile `mod` into a loaded model library (TVM's `relay.build`): numpy in, numpy out.

    `target="c"` (or `["c"]`) generates host C for every function; a list of
    BYOC targets ending in `"c"`, e.g. `["accel", "c"]`, first partitions the
    regions those targets take (`partition_for`) and lowers them to the targets'
    kernels, the rest is host C. `params` binds `main`'s parameters by name as
    constants; `options` may hold `opt_level` (0-3, default 3), `optimize`
    (False: emit the ops as written), `cflags` (extra compiler flags) and
    `cache_dir`. The caller's module is not changed. The result is a
    `xrelay.runtime.Library` (numpy in, numpy out) that also keeps `.sources`,
    the lowered `.module` and `.timings`. A build of a module built before with
    the same params, targets, options and PassContext is served from the cache
    without running passes or the compiler (`.cache_hit`). See `xrelay.codegen.c.pipeline` for
    the steps; a bad target or option is a `ValueError`. An error in the module
    (a recursive call, a dynamic shape, an op a target cannot take) is a
    located `DiagnosticError`; raised in a pass, it names the pass.
    """
    from xrelay.codegen.c.pipeline import build as build_c

    with nesting_guard("xrelay.build", mod.module):
        return build_c(mod, target, params, options)
