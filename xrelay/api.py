"""Top-level functions of the public face: `parse` and `evaluate`."""

from __future__ import annotations

from xrelay.dialects.diagnostics import check_module
from xrelay.dialects.interpreter import Value, evaluate_module
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.parser import parse_module


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
    return OptimizePass(opt_level=level, fuse=fuse).build()(mod)


def evaluate(mod: IRModule, *inputs: Value, entry: str = "main") -> Value:
    """Run `entry` with the numpy reference interpreter; numpy in, numpy out."""
    return evaluate_module(mod.module, inputs, entry)
