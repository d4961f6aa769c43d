"""`convert-relay-to-dnnl`: lower the functions partitioned for `dnnl` into oneDNN primitive ops.

- **Scope.** The body of every `func.func` with `Compiler = "dnnl"`; other
  functions are left as they are.
- **Composites** (read by `dnnl_composites.py`). A `relay.composite` of dnnl's
  pattern table (`dnnl.<kernel>[_bias][_sum][_<eltwise>]`, as
  `codegen/dnnl/patterns.py` makes them) becomes one `dnnl.conv2d` /
  `dnnl.dense` with those post-ops, on the composite's inputs.
- **Single ops.** A relay op with a dnnl primitive (each `dnnl.OPS` op's
  `RELAY`) that its `target.dnnl` predicate (`codegen/dnnl/op_support.py`)
  accepts becomes that primitive, same attributes; a commutative `add` or
  `multiply` whose lhs is the broadcast one gets its operands swapped (oneDNN
  broadcasts the second source only); a `layout_transform` (NCHW <-> NHWC)
  becomes a `dnnl.reorder`, or a `relay.reshape` when only axes of extent 1 move.
- **batch_norm** (as in `convert-relay-to-accel`): one `dnnl.batch_norm` (the
  data); its `tuple_get_item 1` / `2` users become its operands #3 / #4, any
  other use of the whole tuple a `relay.tuple` of the three.
- **Layout** (`dnnl_layout.py`). With `layout=NHWC` (the default),
  convolutions and pools run on NHWC activations, the ops between them follow,
  and `dnnl.reorder` ops transpose only at the function's boundary; with
  `layout=keep` every op runs in the layout relay wrote.
- **In place.** A conv2d or dense with a sum post-op offers `plan-memory` its
  sum operand's buffer for its result (`xrelay.reuse_operand`): oneDNN
  accumulates into the destination, so when the plan grants it no copy is made.
- **Kept.** `relay.constant`, `relay.tuple`, `relay.tuple_get_item`, `func.return`.
- **Errors.** Anything else is a located
  `'<op>' op cannot be lowered to target 'dnnl': <reason>`. Every such op is
  reported and nothing is changed: all checks run before any rewrite.

Made of rewrite patterns (`lowering.py`): `populate_dnnl_lowering_patterns` adds
one `LowerComposite` per composite name of the table, one `LowerOp` per
primitive, and a `LowerBatchNorm`, registered as dnnl's lowering. The layout
planning is not a local rewrite (where a value is transposed depends on every
op of the function), so it stays one step after the patterns, on each lowered
function (`dnnl_layout.apply_layouts`).
Linear in the size of the dnnl functions: each op is rewritten once, then each
primitive placed in a layout once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeGuard

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects import dnnl
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay import elementwise, nn
from xrelay.dialects.relay.base import RelayOp, get_str
from xrelay.dialects.relay.structure import CompositeOp
from xrelay.dialects.relay.tensor import LayoutTransformOp, ReshapeOp
from xrelay.passes import dnnl_composites, target_lowering
from xrelay.passes.adapters import XdslPass
from xrelay.passes.dnnl_composites import TARGET, Operand, Reshaped
from xrelay.passes.dnnl_layout import apply_layouts, int_property, reorder
from xrelay.passes.lowering import (
    Built,
    LowerComposite,
    LowerOp,
    accepted_by,
    lower_partitions,
    register_lowering_patterns,
)
from xrelay.passes.pass_manager import Pass
from xrelay.passes.plan_memory import REUSE_OPERAND
from xrelay.passes.target_lowering import (
    LowerBatchNorm,
    every_operand,
    is_target_function,
    replace_planned,
)

__all__ = [
    "KERNELS",
    "TARGET",
    "ConvertRelayToDnnl",
    "ConvertRelayToDnnlPass",
    "Lowering",
    "convert_module",
    "is_dnnl_function",
    "populate_dnnl_lowering_patterns",
]

KERNELS: dict[type[RelayOp], type[dnnl.DnnlOp]] = {op.RELAY: op for op in dnnl.OPS}
"""The dnnl primitive of each relay op (alone, or the kernel of a composite)."""

COMMUTATIVE = (elementwise.AddOp, elementwise.MultiplyOp)

COMPOSITES = [
    f"dnnl.{kernel}{bias}{sum_}{eltwise}"
    for kernel in dnnl_composites.KERNELS
    for bias in ("", "_bias")
    for sum_ in ("", "_sum")
    for eltwise in ("", "_relu", "_tanh", "_sigmoid", "_clip", "_gelu_erf", "_gelu_erf_x2")
]
"""The names of the composites of dnnl's pattern table (`dnnl_composites.NAME`)."""

Lowering = target_lowering.Lowering[Operand]
"""One planned rewrite of a dnnl batch_norm (`target_lowering.py`)."""


def materialize(
    op: Operation, operands: Sequence[Operand]
) -> tuple[list[Operation], list[SSAValue]]:
    """The planned operands as values: the op's operands, copied constants and reshapes."""
    new: list[Operation] = []
    values: list[SSAValue] = []
    for operand in operands:
        if isinstance(operand, int):
            values.append(op.operands[operand])
            continue
        if isinstance(operand, Reshaped):
            source = op.operands[operand.index]
            made: Operation = ReshapeOp.make([source], {"newshape": attrs.ints(operand.shape)})
        else:
            made = operand.clone()
        new.append(made)
        values.append(made.results[0])
    return new, values


def make(
    kernel: type[dnnl.DnnlOp], operands: Sequence[SSAValue], properties: dict[str, Attribute]
) -> Operation:
    """The primitive; a sum post-op offers its operand's buffer to the result (in place)."""
    new = kernel.make(operands, properties)
    if int_property(properties, "has_sum", 0):
        new.attributes[REUSE_OPERAND] = IntegerAttr(len(operands) - 1, i64)
    return new


def build_composite(op: CompositeOp) -> Built:
    """A composite of dnnl's table: one conv2d or dense with its post-ops."""
    composite = dnnl_composites.plan_composite(op)
    new, values = materialize(op, composite.operands)
    return [*new, make(composite.kernel, values, composite.properties)]


accepted = accepted_by(TARGET)
"""Whether dnnl's predicate accepts an op; Rejected with the reason when it does not."""


def build_single(kernel: type[dnnl.DnnlOp]) -> LowerOp[RelayOp]:
    """An op dnnl takes alone: the primitive with the same operands and attributes (a
    broadcast lhs of a commutative op swapped: oneDNN broadcasts its second source only)."""

    def build(op: RelayOp) -> Built:
        operands = list(op.operands)
        if isinstance(op, COMMUTATIVE) and op.lhs.type != op.result.type:
            operands.reverse()
        return make(kernel, operands, dict(op.properties))

    return LowerOp(kernel.RELAY, build, accepted)


def build_reorder(op: LayoutTransformOp) -> Built:
    """A `dnnl.reorder`, or a `relay.reshape` when only axes of extent 1 move."""
    dnnl.ReorderOp.inferred_type([op.data.type], dict(op.properties))  # a transposition
    return reorder(
        op.data, get_str(op.properties, "src_layout"), get_str(op.properties, "dst_layout")
    )


def rewrite_batch_norm(plan: Lowering, rewriter: PatternRewriter) -> None:
    """Replace the batch_norm by its primitive, and its fields by it or its operands."""
    new, values = materialize(plan.op, plan.operands)
    assert issubclass(plan.kernel, dnnl.DnnlOp)
    kernel = make(plan.kernel, values, plan.properties)
    rewriter.insert([*new, kernel], InsertPoint.before(plan.op))
    kernel.results[0].name_hint = next(
        (value.name_hint for value, source in plan.replaced if source is None), None
    )
    replace_planned(plan, kernel.results[0], rewriter)


def populate_dnnl_lowering_patterns(patterns: list[RewritePattern]) -> None:
    """Add dnnl's patterns: its composites, its single ops, batch_norm."""
    patterns.extend(LowerComposite(name, build_composite) for name in COMPOSITES)
    for relay_op, kernel in KERNELS.items():
        if relay_op is nn.BatchNormOp:
            patterns.append(LowerBatchNorm(TARGET, kernel, every_operand, rewrite_batch_norm))
        elif relay_op is LayoutTransformOp:
            patterns.append(LowerOp(LayoutTransformOp, build_reorder, accepted))
        else:
            patterns.append(build_single(kernel))


register_lowering_patterns(TARGET, populate_dnnl_lowering_patterns)


def is_dnnl_function(op: Operation) -> TypeGuard[func.FuncOp]:
    """A function with a body partitioned for dnnl (`Compiler = "dnnl"`)."""
    return is_target_function(op, TARGET)


def convert_module(module: ModuleOp, nhwc: bool = True) -> None:
    """Lower every dnnl function of `module`; DiagnosticError (module unchanged) on failure."""
    lower_partitions(module, TARGET, noun="primitive", finish=apply_layouts if nhwc else None)


LAYOUTS = ("NHWC", "keep")


@dataclass(frozen=True)
class ConvertRelayToDnnlPass(ModulePass):
    """Lower the functions partitioned for dnnl (`Compiler = "dnnl"`) into dnnl primitive ops."""

    name = "convert-relay-to-dnnl"
    tvm_name: ClassVar[str] = "ConvertRelayToDnnl"
    opt_level: ClassVar[int] = 0

    layout: str = "NHWC"
    """`NHWC`: convolutions and pools on NHWC activations; `keep`: as relay wrote them."""

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise ValueError(
                f"convert-relay-to-dnnl: layout must be one of {', '.join(LAYOUTS)}, "
                f"got '{self.layout}'"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(op, self.layout == "NHWC")


def ConvertRelayToDnnl(layout: str = "NHWC") -> Pass:
    """The `convert-relay-to-dnnl` pass, for `Sequential` and `PassContext` (TVM style)."""
    return XdslPass(ConvertRelayToDnnlPass(layout=layout))
