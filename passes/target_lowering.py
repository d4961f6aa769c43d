"""What lowering accel's and dnnl's partitions to their kernel dialects shares (`lowering.py`
is the pattern framework any target uses).

`convert-relay-to-accel` and `convert-relay-to-dnnl` are made of rewrite
patterns registered for their target; their composite readers
(`accel_composites.py`, `dnnl_composites.py`) and the checks here raise
`Rejected` with the reason an op cannot be lowered. `LowerBatchNorm` lowers a
batch_norm in inference form to one kernel computing its data: what it
replaces is a `Lowering`, the values it replaces by the kernel's result or by
an operand (the moving statistics).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.base import RelayOp, RelayTypeError
from xrelay.dialects.relay.structure import CompositeOp, ConstantOp, TupleGetItemOp, TupleOp
from xrelay.dialects.relay.types import shape_of
from xrelay.passes.lowering import KEPT, Rejected, check_predicate, is_target_function, reject

__all__ = [
    "BATCH_NORM_FIELDS",
    "KEPT",
    "LowerBatchNorm",
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


def replace_planned(plan: Lowering[OperandT], result: SSAValue, rewriter: PatternRewriter) -> None:
    """Replace what `plan` replaces by the kernel's `result` (already inserted) or the
    op's operands, then erase the op (and the ops planned with it)."""

    def value_of(source: Source) -> SSAValue:
        return result if source is None else plan.op.operands[source]

    for value, source in plan.replaced:
        rewriter.replace_all_uses_with(value, value_of(source))
    if plan.tupled:  # right after the result, before any user of the op's result
        whole = TupleOp.make([value_of(source) for source in plan.tupled])
        assert isinstance(result.owner, Operation)
        rewriter.insert(whole, InsertPoint.after(result.owner))
        whole.result.name_hint = plan.op.results[0].name_hint
        rewriter.replace_all_uses_with(plan.op.results[0], whole.result)
    for op in (*plan.erased, plan.op):
        rewriter.erase(op)


Rewrite = Callable[[Lowering[OperandT], PatternRewriter], None]
"""How a target inserts a planned kernel and replaces what the plan replaces."""


def every_operand(op: nn.BatchNormOp) -> list[int]:
    """The batch_norm's operands by index, in order: the kernel takes all five as they are."""
    return list(range(len(op.operands)))


class LowerBatchNorm(RewritePattern, Generic[OperandT]):
    """`nn.batch_norm` (inference form) to `kernel` on its data, once its `target` predicate
    accepts it (`plan_batch_norm`); `rewrite` inserts the kernel and replaces the fields.
    `name_in_block_order`: the kernel's result is named like the first `tuple_get_item 0`
    of the batch_norm in the block that has a name (else like the first such use)."""

    op_types = (nn.BatchNormOp,)

    def __init__(
        self,
        target: str,
        kernel: type[RelayOp],
        operands: Callable[[nn.BatchNormOp], Sequence[OperandT]],
        rewrite: Rewrite[OperandT],
        name_in_block_order: bool = False,
    ):
        self.target, self.kernel, self.operands = target, kernel, operands
        self.rewrite, self.name_in_block_order = rewrite, name_in_block_order

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nn.BatchNormOp):
            return
        try:
            check_predicate(op, self.target)
            plan = plan_batch_norm(op, self.kernel, self.operands(op))
        except Rejected as error:
            reject(op, str(error))
            return
        if self.name_in_block_order:
            named = [
                use.operation
                for use in op.result.uses
                if isinstance(use.operation, TupleGetItemOp)
                and use.operation.index.value.data == 0
                and use.operation.result.name_hint is not None
            ]
            named.sort(key=functools.cmp_to_key(_block_order))
            plan.name = named[0].result.name_hint if named else None
        self.rewrite(plan, rewriter)


def _block_order(a: Operation, b: Operation) -> int:
    return 0 if a is b else -1 if a.is_before_in_block(b) else 1
