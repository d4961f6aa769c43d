"""`partial-evaluate` (TVM's `PartialEvaluate`): inline known calls, evaluate what is known.

TVM's partial evaluator runs a program as far as what is known allows: it
inlines calls of known functions, evaluates operations whose inputs are
known, and keeps the rest as residual code; most of its machinery is for
let bindings, references, closures and ADTs. xrelay's IR has none of those
(a dataflow graph of SSA values; functions are module symbols), so here it is
the part that applies:

- every call of a private function of the module with a one-block body that
  is not external (`Compiler`, `Extern`) and not recursive is inlined (the
  Python builder's function values become such functions; a cycle of calls is
  left as calls);
- then FoldConstant evaluates every op whose operands are all constants, in
  every function, and private functions no longer called are removed.

`double(const(4.0))` becomes `const(8.0)`; a graph with nothing known stays
as it is. Linear in the module after inlining (each call inlined once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xrelay.passes.adapters import XdslPass
from xrelay.passes.dead_code_elimination import remove_unused_functions
from xrelay.passes.fold_constant import FoldConstantPass
from xrelay.passes.inline import InlineCycleError, inline_call, inline_order
from xrelay.passes.pass_manager import Pass


def _inlinable(function: func.FuncOp) -> bool:
    attrs = function.attributes
    private = function.sym_visibility is not None and function.sym_visibility.data == "private"
    return (
        private
        and len(function.body.blocks) == 1
        and "Compiler" not in attrs
        and "Extern" not in attrs
    )


def inline_known_calls(module: ModuleOp) -> None:
    """Inline the calls of every private, internal, non-recursive function (callees first)."""
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    calls = {
        name: [op for op in function.walk() if isinstance(op, func.CallOp)]
        for name, function in functions.items()
    }
    candidates = [name for name, function in functions.items() if _inlinable(function)]
    order: list[str] = []
    while candidates:
        try:
            order = inline_order(candidates, calls)
            break
        except InlineCycleError as error:  # recursion stays a call
            candidates.remove(error.first)
    inlined = set(order)
    for name in [*order, *(n for n in functions if n not in inlined)]:
        for call in calls[name]:
            target = call.callee.root_reference.data
            if target in inlined:
                inline_call(call, functions[target])


@dataclass(frozen=True)
class PartialEvaluatePass(ModulePass):
    """Inline calls of known functions, then fold what only depends on constants."""

    name = "partial-evaluate"
    tvm_name: ClassVar[str] = "PartialEvaluate"
    opt_level: ClassVar[int] = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        inline_known_calls(op)
        FoldConstantPass().apply(ctx, op)
        remove_unused_functions(op)


def PartialEvaluate() -> Pass:
    """TVM's `relay.transform.PartialEvaluate()`: the `partial-evaluate` pass."""
    return XdslPass(PartialEvaluatePass())
