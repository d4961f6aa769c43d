"""`infer-type` (TVM's `InferType`): re-derive every type from the function parameters down.

Contract:

- **Sources.** A function's parameter types (the entry block's arguments)
  and the ops' properties are the only sources; every other type is derived.
  Each relay op's results come from its `infer_result_types` on its operands'
  current types; `relay.if` gets the join of its branches' `relay.yield`
  types (equal dims stay, a dim that differs between the branches becomes
  `?`, as TVM's unifier does); a `relay.composite`'s block arguments take
  its inputs' types and its result its body's yield; a `func.call`'s results
  are its callee's (re-derived) results; a function's `function_type` is its
  block arguments' types to its `func.return` operands' types.
- **Order.** Callees before callers (strongly connected components of the
  call graph, Tarjan). Every function is visited, partitioned ones included:
  typing is not an optimization. Declarations keep their signature.
- **Recursion.** A call inside a cycle reads the callee's declared signature.
  The component is re-inferred until its signatures are stable: a signature
  that inference refines (or relaxes) compatibly is updated; one incompatible
  with its declaration is a located error on the `func.func`.
- **Calls.** `func.call` needs operands equal to the callee's parameter types.
  A value passed to a call keeps the parameter's type when its inferred type
  is compatible with it (a static value passed to a `?` parameter stays `?`);
  otherwise the call is a located error naming both type lists.
- **Errors.** An op that rejects its operands' new types raises a
  `DiagnosticError` on that op: its message and the operand types.
- **Idempotent.** A type is replaced only when it differs, so well-typed IR
  is left untouched (and the pass manager sees "unchanged").

Differs from TVM: a declared result type inside a function is not a source
(TVM has no per-op annotations), so a static result whose inferred type has
`?` becomes `?`; and a function's declared result types are re-derived, not
unified with the body's. Ops of other dialects keep their result types (their
regions are still visited).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import CompositeOp, IfOp, YieldOp
from xrelay.dialects.relay.types import (
    ANY,
    is_bool,
    is_tensor,
    is_tuple,
    rank_of,
    shape_of,
    tensor_element_type,
    tensor_type,
    tuple_elements,
    tuple_type,
    types_compatible,
)
from xrelay.passes.adapters import XdslPass
from xrelay.passes.pass_manager import Pass

_INFERENCE_ERRORS = (VerifyException, AssertionError, ValueError, TypeError, IndexError, KeyError)
"""What an inference function raises on operand types it does not accept."""


def _types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def join_types(a: Attribute, b: Attribute) -> Attribute | None:
    """The most precise type compatible with both (a dim they disagree on is `?`), or None."""
    if a == b:
        return a
    if is_tensor(a) and is_tensor(b):
        if not types_compatible(a, b):
            return None
        dims = [x if x == y else ANY for x, y in zip(shape_of(a), shape_of(b), strict=True)]
        return tensor_type(dims, tensor_element_type(a))
    if is_tuple(a) and is_tuple(b):
        xs, ys = tuple_elements(a), tuple_elements(b)
        if len(xs) != len(ys):
            return None
        fields = [join_types(x, y) for x, y in zip(xs, ys, strict=True)]
        joined = [f for f in fields if f is not None]
        return tuple_type(joined) if len(joined) == len(fields) else None
    return None


def call_graph_components(names: Sequence[str], callees: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components, callees' before callers' (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in names:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, 0)]
        while work:
            node, position = work[-1]
            successors = callees[node]
            if position < len(successors):
                work[-1] = (node, position + 1)
                succ = successors[position]
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, 0))
                elif succ in on_stack:
                    low[node] = min(low[node], index[succ])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


class TypeInferencer:
    """Re-derives the types of a module's functions in place (see the module docstring)."""

    def __init__(self, module: ModuleOp):
        self.functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}

    def run(self) -> None:
        """Infer every function, callees first."""
        names = list(self.functions)
        callees: dict[str, list[str]] = {}
        for name, function in self.functions.items():
            called = (
                o.callee.root_reference.data for o in function.walk() if isinstance(o, func.CallOp)
            )
            targets = dict.fromkeys(c for c in called if c in self.functions)
            callees[name] = list(targets)
        order = {name: i for i, name in enumerate(names)}
        for component in call_graph_components(names, callees):
            members = sorted(component, key=order.__getitem__)
            recursive = len(members) > 1 or members[0] in callees[members[0]]
            self.infer_component([self.functions[n] for n in members], recursive)

    def infer_component(self, functions: list[func.FuncOp], recursive: bool) -> None:
        """Infer the functions of one call-graph component until their signatures are stable."""
        functions = [f for f in functions if f.body.blocks]
        for function in functions:  # parameters are sources: calls inside the cycle read them
            self.set_signature(function, function.body.block.arg_types, None)
        seen: set[tuple[FunctionType, ...]] = set()
        while True:
            for function in functions:
                for block in function.body.blocks:
                    self.infer_block(block)
            changed = False
            for function in functions:
                outputs = self.returned_types(function)
                declared = function.function_type.outputs.data
                if recursive and (
                    len(outputs) != len(declared)
                    or not all(map(types_compatible, outputs, declared))
                ):
                    message = (
                        f"recursive function @{function.sym_name.data} is inferred to return "
                        f"{_types(outputs)} but is declared to return {_types(declared)}"
                    )
                    raise DiagnosticError([op_error(function, message)])
                changed |= self.set_signature(function, None, outputs)
            if not (recursive and changed):
                return
            key = tuple(f.function_type for f in functions)
            if key in seen:
                names = ", ".join(f"@{f.sym_name.data}" for f in functions)
                message = f"type inference of the recursive functions {names} does not converge"
                raise DiagnosticError([op_error(functions[0], message)])
            seen.add(key)

    def returned_types(self, function: func.FuncOp) -> tuple[Attribute, ...]:
        """The types every `func.return` of a function returns (they must agree)."""
        returns = [b.last_op for b in function.body.blocks if isinstance(b.last_op, func.ReturnOp)]
        outputs = returns[0].arguments.types if returns else ()
        for other in returns[1:]:
            if other.arguments.types != outputs:
                message = f"returns {_types(other.arguments.types)}, but also {_types(outputs)}"
                raise DiagnosticError([op_error(other, message)])
        return outputs

    @staticmethod
    def set_signature(
        function: func.FuncOp,
        inputs: Sequence[Attribute] | None,
        outputs: Sequence[Attribute] | None,
    ) -> bool:
        """Update a function's type where it differs; whether it changed."""
        current = function.function_type
        new = FunctionType.from_lists(
            list(current.inputs.data if inputs is None else inputs),
            list(current.outputs.data if outputs is None else outputs),
        )
        if new == current:
            return False
        function.function_type = new
        return True

    def infer_block(self, block: Block) -> None:
        """Infer the ops of a block in order (a region op infers its regions, then its results)."""
        for op in block.ops:
            self.infer_op(op)

    def infer_op(self, op: Operation) -> None:
        """Re-derive the result types of one op."""
        types: Sequence[Attribute]
        yields: list[Attribute] = []
        if isinstance(op, RelayOp):
            types = self.relay_result_types(op)
        elif isinstance(op, IfOp):
            types, yields = self.if_result_types(op)
        elif isinstance(op, CompositeOp):
            block = op.body.block
            for arg, input_type in zip(block.args, op.inputs.types, strict=True):
                if arg.type != input_type:
                    Rewriter.replace_value_with_new_type(arg, input_type)
            self.infer_block(block)
            yields = list(self.yielded_types(op, block))
            types = yields
        elif isinstance(op, func.CallOp):
            types = self.call_result_types(op)
        else:  # func.return, relay.yield, other dialects: no types of their own to derive
            for region in op.regions:
                for block in region.blocks:
                    self.infer_block(block)
            return
        if len(types) != len(op.results):
            message = f"inferred {len(types)} result types for {len(op.results)} results"
            raise DiagnosticError([op_error(op, message)])
        for result, inferred in zip(op.results, types, strict=True):
            # A call's results must equal its callee's: they are never adjusted to their uses.
            final = (
                inferred
                if isinstance(op, func.CallOp)
                else self.passed_type(result, inferred, yields)
            )
            if result.type != final:
                Rewriter.replace_value_with_new_type(result, final)

    @staticmethod
    def relay_result_types(op: RelayOp) -> Sequence[Attribute]:
        """A relay op's `infer_result_types` on its operands' types; located error on failure."""
        operand_types = [o.type for o in op.operands]
        try:
            return op.infer_result_types(operand_types, dict(op.properties))
        except _INFERENCE_ERRORS as error:
            reason = str(error.args[0]) if error.args else type(error).__name__
            message = f"{reason}; operand types: {_types(operand_types)}"
            raise DiagnosticError([op_error(op, message)]) from None

    def if_result_types(self, op: IfOp) -> tuple[list[Attribute], list[Attribute]]:
        """The join of the branches' yields (and the yields), after inferring both branches."""
        cond = op.cond.type
        if not (is_tensor(cond) and rank_of(cond) == 0 and is_bool(tensor_element_type(cond))):
            message = f"condition must be a scalar boolean tensor<i1>, got {cond}"
            raise DiagnosticError([op_error(op, message)])
        then_block, else_block = op.then_region.block, op.else_region.block
        self.infer_block(then_block)
        self.infer_block(else_block)
        (then_type,) = self.yielded_types(op, then_block)
        (else_type,) = self.yielded_types(op, else_block)
        joined = join_types(then_type, else_type)
        if joined is None:
            message = f"branches have incompatible types: {then_type} vs {else_type}"
            raise DiagnosticError([op_error(op, message)])
        return [joined], [then_type, else_type]

    @staticmethod
    def yielded_types(op: Operation, block: Block) -> tuple[Attribute, ...]:
        """The types a region's `relay.yield` yields (one value)."""
        terminator = block.last_op
        if not isinstance(terminator, YieldOp) or len(terminator.values) != 1:
            raise DiagnosticError(
                [op_error(op, "each region must end in relay.yield of one value")]
            )
        return terminator.values.types

    def call_result_types(self, op: func.CallOp) -> Sequence[Attribute]:
        """The callee's results; the operands must have the callee's parameter types."""
        name = op.callee.root_reference.data
        callee = self.functions.get(name)
        if callee is None:  # not a function of this module: nothing to derive
            return op.result_types
        params = callee.function_type.inputs.data
        if op.arguments.types != params:
            message = (
                f"operand types {_types(op.arguments.types)} do not match the parameter "
                f"types of @{name} {_types(params)}"
            )
            raise DiagnosticError([op_error(op, message)])
        return callee.function_type.outputs.data

    def passed_type(
        self, value: SSAValue, inferred: Attribute, yields: list[Attribute]
    ) -> Attribute:
        """`inferred`, or the parameter type of the calls `value` is passed to if compatible.

        `func.call` needs operand types equal to the callee's parameters; a
        value keeps such a type when its inferred type (and every yield of a
        region op) is compatible with it, and all those calls agree on it.
        """
        pinned: set[Attribute] = set()
        for use in value.uses:
            user = use.operation
            if isinstance(user, func.CallOp):
                callee = self.functions.get(user.callee.root_reference.data)
                params = callee.function_type.inputs.data if callee is not None else ()
                if use.index < len(params) and params[use.index] != inferred:
                    pinned.add(params[use.index])
        if len(pinned) != 1:
            return inferred
        (param,) = pinned
        if types_compatible(inferred, param) and all(types_compatible(y, param) for y in yields):
            return param
        return inferred


@dataclass(frozen=True)
class InferTypePass(ModulePass):
    """Re-derive every type from the function parameters down, callees first."""

    name = "infer-type"
    tvm_name: ClassVar[str] = "InferType"
    opt_level: ClassVar[int] = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TypeInferencer(op).run()


def InferType() -> Pass:
    """TVM's `relay.transform.InferType()`."""
    return XdslPass(InferTypePass())
