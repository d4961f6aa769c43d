"""What lowering a BYOC target's partitions to its kernel dialect shares, whatever the target.

`convert-relay-to-accel` and `convert-relay-to-dnnl` (and their composite
readers, `accel_composites.py`, `dnnl_composites.py`) plan every op of every
function partitioned for their target first, collecting each op it cannot take
as a located error (`Rejected` with the reason), and rewrite only when nothing
was rejected. Each plan is a `Lowering`: the op, the kernel op class, its
operands (`Operand`s of the target: an operand index of the replaced op, a
constant to copy out, ...) and properties, and the values it replaces, by the
kernel's result or by an operand (a batch_norm's moving statistics).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeGuard, TypeVar

from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.base import RelayOp, RelayTypeError
from xrelay.dialects.relay.structure import CompositeOp, ConstantOp, TupleGetItemOp, TupleOp
from xrelay.dialects.relay.types import shape_of
from xrelay.passes.byoc_registry import PredicateError, has_predicate, op_supported, tvm_op_name

__all__ = [
    "BATCH_NORM_FIELDS",
    "KEPT",
    "Lowering",
    "Rejected",
    "Source",
    "check_predicate",
    "is_target_function",
    "outer",
    "output_channels",
    "plan_batch_norm",
    "planned",
    "replace_planned",
]


class Rejected(Exception):
    """An op the target cannot take; the message is the reason."""


KEPT = (ConstantOp, TupleOp, TupleGetItemOp, func.ReturnOp)
"""The structural ops a lowered function keeps as they are."""

Source = int | None
"""What replaces a value: the kernel's result (None), or the replaced op's operand #i."""

BATCH_NORM_FIELDS: tuple[Source, ...] = (None, 3, 4)
"""The sources of a batch_norm's fields: the kernel's result, moving_mean, moving_var."""

OperandT = TypeVar("OperandT")


@dataclass
class Lowering(Generic[OperandT]):
    """One planned rewrite: `op` becomes `kernel(operands)` with `properties`."""

    op: Operation
    kernel: type[RelayOp]
    operands: Sequence[OperandT]
    properties: dict[str, Attribute]
    replaced: list[tuple[SSAValue, Source]]
    """The values replaced and by what: the op's result by the kernel's; for a batch_norm,
    its `tuple_get_item 0 / 1 / 2` results by the kernel's / its operand #3 / #4."""
    erased: list[Operation] = field(default_factory=list[Operation])
    """Ops erased before `op` (a batch_norm's `tuple_get_item`s)."""
    tupled: Sequence[Source] = ()
    """If `op`'s result is still read whole: the fields of the `relay.tuple` replacing it."""
    name: str | None = None
    """The name of the kernel's result (default: that of the first value it replaces)."""


def check_predicate(op: Operation, target: str) -> None:
    """`op` satisfies its `target.<target>` predicate; Rejected with the reason otherwise."""
    name = tvm_op_name(op)
    if not has_predicate(name, target):
        raise Rejected(f"no 'target.{target}' predicate is registered for '{name}'")
    try:
        supported = op_supported(op.results[0], target)
    except PredicateError as error:
        raise Rejected(str(error)) from None
    if not supported:
        raise Rejected(
            f"the 'target.{target}' predicate rejects this '{name}' (types or attributes)"
        )


def outer(value: SSAValue, composite: CompositeOp, mismatch: Rejected) -> int | ConstantOp:
    """What a body value is outside the composite: its input, or a body constant to copy."""
    if value.owner is composite.body.block:
        return composite.body.block.args.index(value)
    if isinstance(value.owner, ConstantOp) and value.owner.parent is composite.body.block:
        return value.owner
    raise mismatch


def output_channels(kernel: Operation) -> int:
    """The axis of the kernel's output channels: C of the conv layout, the last of dense."""
    if isinstance(kernel, nn.Conv2DOp):
        return kernel.data_layout.data.index("C")
    return len(shape_of(kernel.results[0].type)) - 1


def planned(
    op: Operation,
    kernel: type[RelayOp],
    operands: Sequence[OperandT],
    types: Sequence[Attribute],
    properties: dict[str, Attribute],
    expected: Attribute,
) -> Lowering[OperandT]:
    """A Lowering, once the kernel's type inferred on `types` (its operands' types) is
    `expected` (the type it replaces)."""
    try:
        inferred = kernel.inferred_type(types, properties)
    except RelayTypeError as error:
        raise Rejected(str(error.args[0])) from None
    if inferred != expected:
        raise Rejected(f"'{kernel.name}' would compute {inferred}, not {expected}")
    return Lowering(op, kernel, operands, properties, [(op.results[0], None)])


def plan_batch_norm(
    op: nn.BatchNormOp, kernel: type[RelayOp], operands: Sequence[OperandT]
) -> Lowering[OperandT]:
    """A batch_norm as one kernel computing its data: its `tuple_get_item 1 / 2` users read
    its operands #3 / #4, a whole use reads a `relay.tuple` of the three."""
    fields = op.result.type.types.data
    if (op.moving_mean.type, op.moving_var.type) != tuple(fields[1:]):
        raise Rejected(f"its operands #3 and #4 are not of its fields' types {fields[1:]}")
    types = [o.type for o in op.operands]
    lowering = planned(op, kernel, operands, types, dict(op.properties), fields[0])
    lowering.replaced = []
    for use in list(op.result.uses):
        user = use.operation
        if isinstance(user, TupleGetItemOp):
            lowering.replaced.append((user.result, BATCH_NORM_FIELDS[user.index.value.data]))
            lowering.erased.append(user)
        else:  # read whole: a tuple of the fields' sources, rebuilt
            lowering.tupled = BATCH_NORM_FIELDS
    return lowering


def replace_planned(plan: Lowering[OperandT], result: SSAValue) -> None:
    """Replace what `plan` replaces by the kernel's `result` (already inserted) or the
    op's operands, then erase the op (and the ops planned with it)."""

    def value_of(source: Source) -> SSAValue:
        return result if source is None else plan.op.operands[source]

    for value, source in plan.replaced:
        value.replace_all_uses_with(value_of(source))
    if plan.tupled:  # right after the result, before any user of the op's result
        whole = TupleOp.make([value_of(source) for source in plan.tupled])
        assert isinstance(result.owner, Operation)
        Rewriter.insert_op(whole, InsertPoint.after(result.owner))
        whole.result.name_hint = plan.op.results[0].name_hint
        plan.op.results[0].replace_all_uses_with(whole.result)
    for op in (*plan.erased, plan.op):
        Rewriter.erase_op(op)


def is_target_function(op: Operation, target: str) -> TypeGuard[func.FuncOp]:
    """A function with a body partitioned for `target` (`Compiler = "<target>"`)."""
    return (
        isinstance(op, func.FuncOp)
        and op.attributes.get("Compiler") == StringAttr(target)
        and bool(op.body.blocks)
    )
