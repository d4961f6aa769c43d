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


def evaluate(mod: IRModule, *inputs: Value, entry: str = "main") -> Value:
    """Run `entry` with the numpy reference interpreter; numpy in, numpy out."""
    return evaluate_module(mod.module, inputs, entry)
