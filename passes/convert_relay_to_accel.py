"""`convert-relay-to-accel`: lower the functions partitioned for `accel` into accel kernel ops.

- **Scope.** The body of every `func.func` with `Compiler = "accel"`; other
  functions (the host's, another target's) are left as they are.
- **Composites** (read by `accel_composites.py`). A `relay.composite` of accel's
  pattern table (`COMPOSITES`, as `codegen/accel/patterns.py`) becomes one accel
  op: its kernel with its attributes and `has_bias` / `has_relu`, on the
  composite's inputs (a body `relay.constant` is copied out). The body must be
  the chain its name says, e.g. `nn.relu(nn.bias_add(nn.conv2d(a, b), c))`,
  biased along the output channels; the bias may also be `add(conv, %c)` of a body
  constant broadcasting one value per channel (`(C, 1, 1)`, `(1, C, 1, 1)`; `(C,)`,
  `(1, C)` on a dense), which becomes a new `(C,)` constant of the same values.
- **Single ops.** A relay op with an accel kernel (each `accel.OPS` op's `RELAY`)
  that its `target.accel` predicate (`codegen/accel/op_support.py`) accepts
  becomes that kernel, same attributes.
- **batch_norm.** In inference form its tuple is `(normalized, moving_mean,
  moving_var)`, the last two its operands #3 and #4 unchanged (TVM's topi with
  `training=False`, our reference). It becomes one `accel.batch_norm` (the data):
  its `tuple_get_item 0` users become that result, its `tuple_get_item 1` / `2`
  users the moving_mean / moving_var operand, and any other use of the whole
  tuple (returned, called with, put in a `relay.tuple`) a `relay.tuple(%kernel,
  %moving_mean, %moving_var)` built right after the kernel, of the batch_norm's type.
- **Kept.** `relay.constant`, `relay.tuple`, `relay.tuple_get_item`, `func.return`.
- **Types.** Unchanged: each value keeps its type (checked when planning).
- **Errors.** Anything else (no kernel, a composite of another name or body, an
  op its predicate rejects) is a located
  `'<op>' op cannot be lowered to target 'accel': <reason>`.
  Every such op is reported and nothing is changed: all checks run before any rewrite.

Linear in the size of the accel functions: each op is planned once (a batch_norm's
uses read once), rewritten once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeGuard

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects import accel
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, op_error
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import CompositeOp, TupleGetItemOp
from xrelay.passes import accel_composites, target_lowering
from xrelay.passes.accel_composites import KERNELS, TARGET, Operand
from xrelay.passes.adapters import XdslPass
from xrelay.passes.byoc_registry import tvm_op_name
from xrelay.passes.pass_manager import Pass
from xrelay.passes.target_lowering import (
    KEPT,
    Rejected,
    check_predicate,
    is_target_function,
    plan_batch_norm,
    planned,
    replace_planned,
)

__all__ = [
    "KERNELS",
    "TARGET",
    "ConvertRelayToAccel",
    "ConvertRelayToAccelPass",
    "Lowering",
    "convert_module",
    "is_accel_function",
    "plan_composite",
    "plan_function",
    "plan_single",
]

Lowering = target_lowering.Lowering[Operand]
"""One planned rewrite of an accel function's op (`target_lowering.py`)."""


def operand_types(op: Operation, operands: Sequence[Operand]) -> list[Attribute]:
    """The types the planned operands will have."""
    return [op.operands[v].type if isinstance(v, int) else v.result.type for v in operands]


def plan_single(op: RelayOp, kernel: type[accel.AccelOp]) -> Lowering:
    """An op accel takes alone: the kernel with the same operands and attributes."""
    check_predicate(op, TARGET)
    operands = range(len(op.operands))
    if isinstance(op, nn.BatchNormOp):
        return plan_batch_norm(op, kernel, operands)
    types = operand_types(op, operands)
    return planned(op, kernel, operands, types, dict(op.properties), op.results[0].type)


def plan_composite(op: CompositeOp) -> Lowering:
    """A composite of accel's table (`accel_composites.py`): one kernel, bias and relu."""
    composite = accel_composites.plan_composite(op)
    kernel, operands, properties = composite.kernel, composite.operands, composite.properties
    types = operand_types(op, operands)
    return planned(op, kernel, operands, types, properties, op.results[0].type)


def plan_function(function: func.FuncOp, plans: list[Lowering], errors: list[Diagnostic]) -> None:
    """Plan the lowering of one accel function's ops, recording each op it cannot take."""
    batch_norms: dict[Operation, Lowering] = {}
    for op in function.body.block.ops:
        try:
            if isinstance(op, CompositeOp):
                plans.append(plan_composite(op))
            elif isinstance(op, TupleGetItemOp) and isinstance(op.tuple.owner, nn.BatchNormOp):
                plan = batch_norms.get(op.tuple.owner)  # lowered with its batch_norm
                if plan is not None and plan.name is None and op.index.value.data == 0:
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
    names = (value.name_hint for value, source in plan.replaced if source is None)
    new.results[0].name_hint = plan.name or next(names, None)
    replace_planned(plan, new.results[0])


def is_accel_function(op: Operation) -> TypeGuard[func.FuncOp]:
    """A function with a body partitioned for accel (`Compiler = "accel"`)."""
    return is_target_function(op, TARGET)


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
