"""The `accel` backend: the demo accelerator (design.md): what it takes, and its code generator.

Importing this package registers the target through the public hooks, as a
third-party backend would: op support predicates (`op_support`), the
composite pattern table (`patterns`), and the code generator
(`codegen/targets.py`): `convert-relay-to-accel` lowers its partitions, then
`AccelFunctionEmitter` (`emitter.py`, kernels in `kernels.py`) prints them
into `accel.c`. The emitter is imported on first use, not with `xrelay`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrelay.codegen.accel import op_support, patterns
from xrelay.codegen.targets import CodegenTarget, register_codegen

if TYPE_CHECKING:
    from xdsl.dialects import func
    from xrelay.codegen.c.emitter import CEmitter
    from xrelay.codegen.c.function import FunctionEmitter


def function_emitter(owner: CEmitter, function: func.FuncOp, symbol: str) -> FunctionEmitter:
    """The printer of one lowered accel function (`emitter.AccelFunctionEmitter`)."""
    from xrelay.codegen.accel.emitter import AccelFunctionEmitter

    return AccelFunctionEmitter(owner, function, symbol)


CODEGEN = register_codegen(CodegenTarget("accel", ("convert-relay-to-accel",), function_emitter))
"""accel's code generator, as registered."""

__all__ = ["CODEGEN", "function_emitter", "op_support", "patterns"]
