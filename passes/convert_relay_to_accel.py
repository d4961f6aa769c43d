"""`convert-relay-to-accel`: lower the functions partitioned for `accel` into accel kernel ops.

- **Scope.** The body of every `func.func` with `Compiler = "accel"`; other
  functions (the host's, another target's) are left as they are.
- **Composites.** A `relay.composite` of accel's pattern table (`COMPOSITES`,
  as `codegen/accel/patterns.py`) becomes one accel op: its kernel with its
  attributes and `has_bias` / `has_relu`, on the composite's inputs (a body
  `relay.constant` is copied out). The body must be the chain its name says,
  e.g. `nn.relu(nn.bias_add(nn.conv2d(a, b), c))`, biased along the output channels.
- **Single ops.** A relay op with an accel kernel (each `accel.OPS` op's `RELAY`)
  that its `target.accel` predicate (`codegen/accel/op_support.py`) accepts
  becomes that kernel, same attributes; `nn.batch_norm` and its `tuple_get_item 0`
  users become one `accel.batch_norm`.
- **Kept.** `relay.constant`, `relay.tuple`, `relay.tuple_get_item`, `func.return`.
- **Types.** Unchanged: each accel op has the type of what it replaces.
- **Errors.** Anything else (no kernel, a composite of another name or body, an
  op its predicate rejects, a batch_norm whose mean, variance or whole tuple is
  read) is a located `'<op>' op cannot be lowered to target 'accel': <reason>`.
  Every such op is reported and nothing is changed: all checks run before any rewrite.

Linear in the size of the accel functions: each op is planned once, rewritten once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeGuard

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects import accel
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, op_error
from xrelay.dialects.relay import elementwise, nn
from xrelay.dialects.relay.base import RelayOp, RelayTypeError
from xrelay.dialects.relay.structure import (
    CompositeOp,
    ConstantOp,
    TupleGetItemOp,
    TupleOp,
    YieldOp,
)
from xrelay.dialects.relay.types import rank_of
from xrelay.passes.adapters import XdslPass
from xrelay.passes.byoc_registry import PredicateError, has_predicate, op_supported, tvm_op_name
from xrelay.passes.pass_manager import Pass

TARGET = "accel"

KERNELS: dict[type[RelayOp], type[accel.AccelOp]] = {op.RELAY: op for op in accel.OPS}
"""The accel kernel of each relay op accel takes alone."""


@dataclass(frozen=True)
class CompositeKernel:
    """What a composite of accel's pattern table lowers to: a kernel, with bias and relu."""

    kernel: type[RelayOp]
    has_bias: bool
    has_relu: bool

    def describe(self) -> str:
        """The chain the body must be, e.g. `nn.relu(nn.bias_add(nn.conv2d(...), ...))`."""
        text = f"{self.kernel.name.removeprefix('relay.')}(...)"
        if self.has_bias:
            text = f"nn.bias_add({text}, ...)"
        return f"nn.relu({text})" if self.has_relu else text


COMPOSITES: dict[str, CompositeKernel] = {
    "accel.conv2d_bias_relu": CompositeKernel(nn.Conv2DOp, True, True),
    "accel.conv2d_bias": CompositeKernel(nn.Conv2DOp, True, False),
    "accel.conv2d_relu": CompositeKernel(nn.Conv2DOp, False, True),
    "accel.dense_bias_relu": CompositeKernel(nn.DenseOp, True, True),
    "accel.dense_bias": CompositeKernel(nn.DenseOp, True, False),
    "accel.add_relu": CompositeKernel(elementwise.AddOp, False, True),
}
"""The composites of accel's pattern table, by name."""

KEPT = (ConstantOp, TupleOp, TupleGetItemOp, func.ReturnOp)

TRUE = IntegerAttr(1, i1)


class Rejected(Exception):
    """An op accel cannot take; the message is the reason."""


Operand = int | ConstantOp
"""An operand of a planned kernel: the index of an operand of the op it replaces (read when
rewriting, after the ops before it were), or a composite body's constant to copy out."""


@dataclass
class Lowering:
    """One planned rewrite: `op` becomes `kernel(operands)` with `properties`."""

    op: Operation
    kernel: type[accel.AccelOp]
    operands: Sequence[Operand]
    properties: dict[str, Attribute]
    replaced: list[SSAValue] = field(default_factory=list[SSAValue])
    """The values the kernel's result replaces (the op's result by default)."""
    erased: list[Operation] = field(default_factory=list[Operation])
    """Ops erased before `op` (the batch_norm's `tuple_get_item`s)."""
    name: str | None = None
    """The name of the kernel's result (default: the name of the first value replaced)."""


def check_predicate(op: Operation) -> None:
    """`op` satisfies its `target.accel` predicate; Rejected with the reason otherwise."""
    name = tvm_op_name(op)
    if not has_predicate(name, TARGET):
        raise Rejected(f"no 'target.{TARGET}' predicate is registered for '{name}'")
    try:
        supported = op_supported(op.results[0], TARGET)
    except PredicateError as error:
        raise Rejected(str(error)) from None
    if not supported:
        raise Rejected(
            f"the 'target.{TARGET}' predicate rejects this '{name}' (types or attributes)"
        )


def planned(
    op: Operation,
    kernel: type[accel.AccelOp],
    operands: Sequence[Operand],
    properties: dict[str, Attribute],
    expected: Attribute,
) -> Lowering:
    """A Lowering, once the kernel's inferred type is `expected` (the type it replaces)."""
    types = [op.operands[v].type if isinstance(v, int) else v.result.type for v in operands]
    try:
        inferred = kernel.inferred_type(types, properties)
    except RelayTypeError as error:
        raise Rejected(str(error.args[0])) from None
    if inferred != expected:
        raise Rejected(f"'{kernel.name}' would compute {inferred}, not {expected}")
    return Lowering(op, kernel, operands, properties)


def plan_single(op: RelayOp, kernel: type[accel.AccelOp]) -> Lowering:
    """An op accel takes alone: the kernel with the same operands and attributes."""
    check_predicate(op)
    if not isinstance(op, nn.BatchNormOp):
        operands = range(len(op.operands))
        return planned(op, kernel, operands, dict(op.properties), op.results[0].type)
    getters: list[Operation] = []
    for use in op.result.uses:
        user = use.operation
        if not isinstance(user, TupleGetItemOp):
            raise Rejected(
                f"its tuple is used whole by '{user.name}'; {kernel.name} has one result"
            )
        if user.index.value.data != 0:
            raise Rejected(
                f"its {('mean', 'variance')[user.index.value.data - 1]} output is used; "
                f"{kernel.name} computes the normalized data only"
            )
        getters.append(user)
    lowering = planned(op, kernel, range(len(op.operands)), dict(op.properties), op.data.type)
    lowering.replaced = [g.results[0] for g in getters]
    lowering.erased = getters
    return lowering


def plan_composite(op: CompositeOp) -> Lowering:
    """A composite of accel's table: one kernel with bias and relu, on the composite's inputs."""
    name = op.composite.data
    spec = COMPOSITES.get(name)
    if spec is None:
        raise Rejected(f"accel has no kernel for composite '{name}'")
    mismatch = Rejected(f"the body of composite '{name}' is not {spec.describe()}")
    body = op.body.block
    terminator = body.last_op
    if not isinstance(terminator, YieldOp) or len(terminator.values) != 1:
        raise mismatch
    value, chain = terminator.values[0], list[Operation]()
    for wanted, present in ((nn.ReluOp, spec.has_relu), (nn.BiasAddOp, spec.has_bias)):
        if present:  # peel relu, then bias_add, off the yielded value
            if not isinstance(owner := value.owner, wanted):
                raise mismatch
            value = owner.operands[0]
            chain.append(owner)
    bias_add = next((o for o in chain if isinstance(o, nn.BiasAddOp)), None)
    kernel_op = value.owner
    if not isinstance(kernel_op, spec.kernel):
        raise mismatch
    chain.append(kernel_op)
    if any(o.parent is not body or not o.results[0].has_one_use() for o in chain):
        raise mismatch  # every op of the chain in the body, each read once, by the next
    if len(body.ops) != len(chain) + 1 + sum(isinstance(o, ConstantOp) for o in body.ops):
        raise mismatch  # nothing else but constants
    check_predicate(kernel_op)
    inputs = [*kernel_op.operands, *([bias_add.bias] if bias_add is not None else [])]
    operands = [outer(v, op, mismatch) for v in inputs]
    properties = dict(kernel_op.properties)
    if bias_add is not None:
        check_bias_axis(bias_add, kernel_op)
        properties["has_bias"] = TRUE
    if spec.has_relu:
        properties["has_relu"] = TRUE
    return planned(op, KERNELS[spec.kernel], operands, properties, op.results[0].type)


def outer(value: SSAValue, composite: CompositeOp, mismatch: Rejected) -> Operand:
    """What a body value is outside the composite: its input, or a body constant to copy."""
    if value.owner is composite.body.block:
        return composite.body.block.args.index(value)
    if isinstance(value.owner, ConstantOp) and value.owner.parent is composite.body.block:
        return value.owner
    raise mismatch


def check_bias_axis(bias_add: nn.BiasAddOp, kernel: Operation) -> None:
    """The bias runs along the kernel's output channels (C of the conv layout, last of dense)."""
    rank = rank_of(kernel.results[0].type)
    channel = kernel.data_layout.data.index("C") if isinstance(kernel, nn.Conv2DOp) else rank - 1
    axis = bias_add.axis.value.data
    if axis % rank != channel:
        raise Rejected(
            f"its bias is added along axis {axis}, not the output channels (axis {channel})"
        )


def plan_function(function: func.FuncOp, plans: list[Lowering], errors: list[Diagnostic]) -> None:
    """Plan the lowering of one accel function's ops, recording each op it cannot take."""
    batch_norms: dict[Operation, Lowering] = {}
    for op in function.body.block.ops:
        try:
            if isinstance(op, CompositeOp):
                plans.append(plan_composite(op))
            elif isinstance(op, TupleGetItemOp) and isinstance(op.tuple.owner, nn.BatchNormOp):
                plan = batch_norms.get(op.tuple.owner)  # lowered with its batch_norm
                if plan is not None and plan.name is None:
                    plan.name = op.result.name_hint  # the first field 0 read names the result
            elif isinstance(op, KEPT):
                continue
            elif isinstance(op, RelayOp) and type(op) in KERNELS:
                plans.append(plan_single(op, KERNELS[type(op)]))
                if isinstance(op, nn.BatchNormOp):
                    batch_norms[op] = plans[-1]
            else:
                raise Rejected(f"accel has no kernel for '{tvm_op_name(op)}'")
        except Rejected as error:
            errors.append(op_error(op, f"cannot be lowered to target '{TARGET}': {error}"))


def rewrite(plan: Lowering) -> None:
    """Replace the planned op by its kernel (copying body constants out first)."""
    operands: list[SSAValue] = []
    for operand in plan.operands:
        if isinstance(operand, int):
            operands.append(plan.op.operands[operand])
            continue
        copy = operand.clone()
        Rewriter.insert_op(copy, InsertPoint.before(plan.op))
        operands.append(copy.result)
    new = plan.kernel.make(operands, plan.properties)
    Rewriter.insert_op(new, InsertPoint.before(plan.op))
    replaced = plan.replaced or [plan.op.results[0]]
    new.results[0].name_hint = plan.name or replaced[0].name_hint
    for value in replaced:
        value.replace_all_uses_with(new.results[0])
    for op in (*plan.erased, plan.op):
        Rewriter.erase_op(op)


def is_accel_function(op: Operation) -> TypeGuard[func.FuncOp]:
    """A function with a body partitioned for accel (`Compiler = "accel"`)."""
    return (
        isinstance(op, func.FuncOp)
        and op.attributes.get("Compiler") == StringAttr(TARGET)
        and bool(op.body.blocks)
    )


def convert_module(module: ModuleOp) -> None:
    """Lower every accel function of `module`; DiagnosticError (module unchanged) on failure."""
    plans, errors = list[Lowering](), list[Diagnostic]()
    for op in module.ops:
        if is_accel_function(op):
            plan_function(op, plans, errors)
    if errors:
        raise DiagnosticError(errors)
    for plan in plans:
        rewrite(plan)


@dataclass(frozen=True)
class ConvertRelayToAccelPass(ModulePass):
    """Lower the functions partitioned for accel (`Compiler = "accel"`) into accel kernel ops."""

    name = "convert-relay-to-accel"
    tvm_name: ClassVar[str] = "ConvertRelayToAccel"
    opt_level: ClassVar[int] = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(op)


def ConvertRelayToAccel() -> Pass:
    """The `convert-relay-to-accel` pass, for `Sequential` and `PassContext` (TVM style)."""
    return XdslPass(ConvertRelayToAccelPass())
