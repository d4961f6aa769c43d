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

Made of rewrite patterns (`lowering.py`): `populate_accel_lowering_patterns` adds
one `LowerComposite` per composite of the table, one `LowerOp` per kernel, and a
`LowerBatchNorm`; it is registered as accel's lowering, to which an out-of-tree
package adds its own patterns with `register_lowering_patterns("accel", ...)`.
Linear in the size of the accel functions: each op is offered the patterns of
its class, rewritten once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeGuard

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects import accel
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import CompositeOp
from xrelay.passes import accel_composites, target_lowering
from xrelay.passes.accel_composites import COMPOSITES, KERNELS, TARGET, Operand
from xrelay.passes.adapters import XdslPass
from xrelay.passes.lowering import (
    Built,
    LowerComposite,
    LowerOp,
    accepted_by,
    lower_partitions,
    register_lowering_patterns,
)
from xrelay.passes.pass_manager import Pass
from xrelay.passes.target_lowering import (
    LowerBatchNorm,
    every_operand,
    is_target_function,
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
    "populate_accel_lowering_patterns",
]

Lowering = target_lowering.Lowering[Operand]
"""One planned rewrite of an accel batch_norm (`target_lowering.py`)."""


def materialize(
    op: Operation, operands: Sequence[Operand]
) -> tuple[list[Operation], list[SSAValue]]:
    """The planned operands as values: the op's operands, body constants copied (new ops)."""
    new: list[Operation] = []
    values: list[SSAValue] = []
    for operand in operands:
        if isinstance(operand, int):
            values.append(op.operands[operand])
            continue
        copy = operand.clone()
        new.append(copy)
        values.append(copy.result)
    return new, values


def build_composite(op: CompositeOp) -> Built:
    """A composite of accel's table (`accel_composites.py`): one kernel, bias and relu."""
    composite = accel_composites.plan_composite(op)
    new, values = materialize(op, composite.operands)
    return [*new, composite.kernel.make(values, composite.properties)]


accepted = accepted_by(TARGET)
"""Whether accel's predicate accepts an op; Rejected with the reason when it does not."""


def build_single(kernel: type[accel.AccelOp]) -> LowerOp[RelayOp]:
    """An op accel takes alone: the kernel with the same operands and attributes."""
    return LowerOp(kernel.RELAY, lambda op: kernel.make(op.operands, dict(op.properties)), accepted)


def rewrite_batch_norm(plan: Lowering, rewriter: PatternRewriter) -> None:
    """Replace the batch_norm by its kernel, and its fields by the kernel or its operands."""
    new, values = materialize(plan.op, plan.operands)
    kernel = plan.kernel.make(values, plan.properties)
    rewriter.insert([*new, kernel], InsertPoint.before(plan.op))
    names = (value.name_hint for value, source in plan.replaced if source is None)
    kernel.results[0].name_hint = plan.name or next(names, None)
    replace_planned(plan, kernel.results[0], rewriter)


def populate_accel_lowering_patterns(patterns: list[RewritePattern]) -> None:
    """Add accel's patterns: its composites, its single ops, batch_norm."""
    patterns.extend(LowerComposite(name, build_composite) for name in COMPOSITES)
    for relay_op, kernel in KERNELS.items():
        if relay_op is nn.BatchNormOp:
            patterns.append(LowerBatchNorm(TARGET, kernel, every_operand, rewrite_batch_norm, True))
        else:
            patterns.append(build_single(kernel))


register_lowering_patterns(TARGET, populate_accel_lowering_patterns)


def is_accel_function(op: Operation) -> TypeGuard[func.FuncOp]:
    """A function with a body partitioned for accel (`Compiler = "accel"`)."""
    return is_target_function(op, TARGET)


def convert_module(module: ModuleOp) -> None:
    """Lower every accel function of `module`; DiagnosticError (module unchanged) on failure."""
    lower_partitions(module, TARGET)


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
