"""`inline` (TVM's `Inline`, "InlineGlobals"): inline the functions marked `Inline`.

Contract:

- **What is inlined.** Every `func.call` (at any depth, `relay.if` branches
  and composite bodies included) to a function with a nonzero `Inline`
  attribute and a one-block body is replaced by a copy of that body, its
  block arguments mapped to the call's operands and the call's results
  (several are fine) to the `func.return` operands. Callees are inlined
  before their callers, so nested calls to inlinable functions are inlined
  transitively, each body copied once per call site.
- **Recursion.** A cycle of calls among inlinable functions cannot be
  inlined: it is a located error on the first function of the cycle, naming
  it (`@a -> @b -> @a`). Cycles through functions that are not inlinable are
  fine (each inlinable body is copied, and the cycle stays a call).
- **Partitioned functions.** A function with `Compiler` or `Extern` is never
  inlined, even with `Inline = 1` (which PartitionGraph sets): TVM's Inline
  pass keeps such a function whole by inlining it *as a closure* (a call of a
  local function that still carries `Compiler`), and xrelay has no local
  functions, so the global function and its calls stay as they are.
- **Removal.** As in TVM, an inlinable function that was called before the
  pass and is called no more afterwards is removed. Functions nobody called
  (entry points, in TVM's words) stay even when marked `Inline`, and `main`
  always stays.

Differs from TVM: TVM silently skips recursive inlinable functions (and then
fails on its own "marked as inline but not inlined" check), and it does not
inline a function that calls a non-inlinable one (that check fails again);
here recursion is a clear error, and a function calling non-inlinable ones is
inlined with those calls in its copied body.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.passes.adapters import XdslPass
from xrelay.passes.pass_manager import Pass


def _nonzero(attr: Attribute | None) -> bool:
    """Whether a function attribute is a nonzero integer (`Inline = 1 : i32`)."""
    return isinstance(attr, IntegerAttr) and cast(IntegerAttr[IntegerType], attr).value.data != 0


def is_inlinable(function: func.FuncOp) -> bool:
    """A function with a nonzero `Inline`, a one-block body, and no `Compiler` or `Extern`."""
    attrs = function.attributes
    return (
        _nonzero(attrs.get("Inline"))
        and len(function.body.blocks) == 1
        and "Compiler" not in attrs
        and not _nonzero(attrs.get("Extern"))
    )


def _callee(call: func.CallOp) -> str:
    return call.callee.root_reference.data


class InlineCycleError(Exception):
    """A cycle of calls among inlinable functions (`cycle` names it, `first` starts it)."""

    def __init__(self, first: str, cycle: str):
        super().__init__(cycle)
        self.first = first
        self.cycle = cycle


def inline_order(inlinable: list[str], calls: dict[str, list[func.CallOp]]) -> list[str]:
    """The inlinable functions, callees first (iterative DFS); InlineCycleError on a cycle."""
    marked = set(inlinable)
    callees = {
        name: list(dict.fromkeys(c for c in map(_callee, calls[name]) if c in marked))
        for name in inlinable
    }
    done: set[str] = set()
    order: list[str] = []
    for root in inlinable:
        if root in done:
            continue
        path, on_path = [root], {root}
        work = [(root, 0)]
        while work:
            node, position = work[-1]
            if position == len(callees[node]):
                work.pop()
                on_path.discard(path.pop())
                done.add(node)
                order.append(node)
                continue
            work[-1] = (node, position + 1)
            succ = callees[node][position]
            if succ in on_path:
                cycle = [*path[path.index(succ) :], succ]
                raise InlineCycleError(succ, " -> ".join(f"@{n}" for n in cycle))
            if succ not in done:
                path.append(succ)
                on_path.add(succ)
                work.append((succ, 0))
    return order


def inline_call(call: func.CallOp, callee: func.FuncOp) -> None:
    """Replace `call` by a copy of `callee`'s body (one block, ending in `func.return`)."""
    block = callee.body.block
    mapper: dict[SSAValue, SSAValue] = dict(zip(block.args, call.arguments, strict=True))
    copies: list[Operation] = []
    returned: list[SSAValue] = []
    for op in block.ops:
        if isinstance(op, func.ReturnOp):
            returned = [mapper.get(v, v) for v in op.arguments]
            break
        copies.append(op.clone(value_mapper=mapper))
    parent = call.parent_block()
    assert parent is not None
    parent.insert_ops_before(copies, call)
    copied = {id(op) for op in copies}
    for result, value in zip(call.results, returned, strict=True):
        # The caller's name for a result goes to the copied op computing it (xDSL's RAUW
        # also hands it to a value that has no name, such as an unnamed operand passed through).
        if result.name_hint and isinstance(value.owner, Operation) and id(value.owner) in copied:
            value.name_hint = result.name_hint
        result.replace_all_uses_with(value)
    parent.erase_op(call)


def inline_module(module: ModuleOp) -> None:
    """Inline every call of an inlinable function, then drop the inlined functions."""
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    calls = {
        name: [op for op in function.walk() if isinstance(op, func.CallOp)]
        for name, function in functions.items()
    }
    called = {_callee(c) for found in calls.values() for c in found}
    inlinable = [name for name, function in functions.items() if is_inlinable(function)]
    try:
        first = inline_order(inlinable, calls)
    except InlineCycleError as error:
        message = f"cannot be inlined: recursion among functions marked Inline: {error.cycle}"
        raise DiagnosticError([op_error(functions[error.first], message)]) from None
    inlined = set(first)
    for name in [*first, *(n for n in functions if n not in inlined)]:
        for call in calls[name]:
            target = _callee(call)
            if target in inlined:
                inline_call(call, functions[target])
    remaining = {_callee(op) for op in module.walk() if isinstance(op, func.CallOp)}
    for name in inlinable:
        if name != "main" and name in called and name not in remaining:
            module.body.block.erase_op(functions[name])


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """Inline the calls of functions marked `Inline`, then remove those functions."""

    name = "inline"
    tvm_name: ClassVar[str] = "Inline"
    opt_level: ClassVar[int] = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        inline_module(op)


def Inline() -> Pass:
    """TVM's `relay.transform.Inline()`."""
    return XdslPass(InlinePass())
