"""`defuse-ops` (TVM's `DefuseOps`): the inverse of FuseOps, fused functions inlined back.

TVM inlines every call whose callee is a function expression (a local function, such
as FuseOps' `Primitive` ones), not calls of global functions. xrelay has no local
functions: FuseOps makes private `func.func`s with `Primitive`, and the builder makes a
private function of any `relay.Call` of a `relay.Function` (public ones are the global
functions of `mod[name] = ...`). So each `func.call` of a private function, at any depth,
is replaced by a copy of its body (its parameters bound to the call's operands), and a
private function called before the pass and not any more is removed:
`DefuseOps(FuseOps(m))` is `m` again (op order and names aside). Functions with
`Compiler` or `Extern` (partitioned for a backend) are never inlined (TVM's Inline keeps
them whole too); `relay.composite` regions stay (xrelay's form of Composite functions).
TVM's check that the callee's parameters have distinct names does not apply: xrelay
binds by position. Opt level 3, as TVM's. One copy per call; calls in a copy are
inlined in turn, except a function's calls of itself (recursion stays a call).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xrelay.passes.adapters import XdslPass
from xrelay.passes.inline import inline_call
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic


def is_local(function: func.FuncOp) -> bool:
    """A function TVM would have as a local function: private, one-block body, not `main`,
    not partitioned for a backend (FuseOps' `Primitive` functions among them)."""
    attrs = function.attributes
    visibility = function.sym_visibility
    return (
        visibility is not None
        and visibility.data == "private"
        and function.sym_name.data != "main"
        and len(function.body.blocks) == 1
        and "Compiler" not in attrs
        and "Extern" not in attrs
    )


def defuse_module(module: ModuleOp) -> int:
    """Inline every call of a local function and drop those no longer called; how many calls.

    A call of a function inside a copy of that function's own body (recursion) stays a call.
    """
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    fused = {name for name, function in functions.items() if is_local(function)}
    called: set[str] = set()
    count = 0
    # Each pending call with the functions whose bodies it sits in (no inlining into itself).
    pending: list[tuple[func.CallOp, frozenset[str]]] = []
    for name, function in functions.items():
        inside = frozenset({name})
        pending += [(op, inside) for op in function.walk() if isinstance(op, func.CallOp)]
    while pending:
        call, inside = pending.pop()
        name = call.callee.root_reference.data
        if name not in fused or name in inside:
            continue
        called.add(name)
        parent = call.parent_block()
        assert parent is not None
        before = {id(op) for op in parent.ops}
        inline_call(call, functions[name])
        count += 1
        copied = [op for op in parent.ops if id(op) not in before]
        pending += [
            (inner, inside | {name})
            for op in copied
            for inner in op.walk()
            if isinstance(inner, func.CallOp)
        ]
    remaining = {
        op.callee.root_reference.data for op in module.walk() if isinstance(op, func.CallOp)
    }
    for name in sorted(called - remaining):
        if name != "main":
            module.body.block.erase_op(functions[name])
    return count


@dataclass(frozen=True)
class DefuseOpsPass(ModulePass):
    """Inline the calls of private (local, e.g. fused) functions and remove those functions."""

    name = "defuse-ops"
    tvm_name: ClassVar[str] = "DefuseOps"
    opt_level: ClassVar[int] = 3

    inlined: ClassVar[Statistic] = Statistic("num-inlined", "Number of fused calls inlined")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.inlined.add(defuse_module(op))


def DefuseOps() -> Pass:
    """TVM's `relay.transform.DefuseOps()`."""
    return XdslPass(DefuseOpsPass())
