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

Linear in the size of the dnnl functions: each op is planned once, rewritten once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeGuard

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects import dnnl
from xrelay.dialects.builder import attrs
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, op_error
from xrelay.dialects.relay import elementwise, nn
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import CompositeOp, TupleGetItemOp
from xrelay.dialects.relay.tensor import ReshapeOp
from xrelay.dialects.relay.types import tensor_element_type, tensor_type
from xrelay.passes import dnnl_composites, target_lowering
from xrelay.passes.adapters import XdslPass
from xrelay.passes.byoc_registry import tvm_op_name
from xrelay.passes.dnnl_composites import TARGET, Operand, Reshaped
from xrelay.passes.dnnl_layout import Layouts, int_property, reorder, string_property
from xrelay.passes.pass_manager import Pass
from xrelay.passes.plan_memory import REUSE_OPERAND
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
    "ConvertRelayToDnnl",
    "ConvertRelayToDnnlPass",
    "Lowering",
    "convert_module",
    "is_dnnl_function",
]

KERNELS: dict[type[RelayOp], type[dnnl.DnnlOp]] = {op.RELAY: op for op in dnnl.OPS}
"""The dnnl primitive of each relay op (alone, or the kernel of a composite)."""

COMMUTATIVE = (elementwise.AddOp, elementwise.MultiplyOp)

Lowering = target_lowering.Lowering[Operand]
"""One planned rewrite of a dnnl function's op (`target_lowering.py`)."""


def operand_type(op: Operation, operand: Operand) -> Attribute:
    """The type a planned operand will have."""
    if isinstance(operand, int):
        return op.operands[operand].type
    if isinstance(operand, Reshaped):
        return tensor_type(operand.shape, tensor_element_type(op.operands[operand.index].type))
    return operand.result.type


def plan_single(op: RelayOp, kernel: type[dnnl.DnnlOp]) -> Lowering:
    """An op dnnl takes alone: the primitive with the same operands and attributes."""
    check_predicate(op, TARGET)
    operands: list[Operand] = list(range(len(op.operands)))
    if isinstance(op, COMMUTATIVE) and op.lhs.type != op.result.type:
        operands.reverse()  # oneDNN broadcasts its second source only
    if isinstance(op, nn.BatchNormOp):
        return plan_batch_norm(op, kernel, operands)
    types = [operand_type(op, v) for v in operands]
    return planned(op, kernel, operands, types, dict(op.properties), op.results[0].type)


def plan_function(function: func.FuncOp, plans: list[Lowering], errors: list[Diagnostic]) -> None:
    """Plan the lowering of one dnnl function's ops, recording each op it cannot take."""
    for op in function.body.block.ops:
        try:
            if isinstance(op, CompositeOp):
                composite = dnnl_composites.plan_composite(op)
                kernel, operands = composite.kernel, composite.operands
                types = [operand_type(op, v) for v in operands]
                expected = op.results[0].type
                plans.append(planned(op, kernel, operands, types, composite.properties, expected))
            elif isinstance(op, TupleGetItemOp) and isinstance(op.tuple.owner, nn.BatchNormOp):
                continue  # lowered with its batch_norm
            elif isinstance(op, KEPT):
                continue
            elif isinstance(op, RelayOp) and type(op) in KERNELS:
                plans.append(plan_single(op, KERNELS[type(op)]))
            else:
                raise Rejected(f"dnnl has no primitive for '{tvm_op_name(op)}'")
        except Rejected as error:
            errors.append(op_error(op, f"cannot be lowered to target '{TARGET}': {error}"))


def resolve(plan: Lowering) -> list[SSAValue]:
    """The planned operands as values, inserting copied constants and reshapes before the op."""
    values: list[SSAValue] = []
    for operand in plan.operands:
        if isinstance(operand, int):
            values.append(plan.op.operands[operand])
            continue
        if isinstance(operand, Reshaped):
            source = plan.op.operands[operand.index]
            new: Operation = ReshapeOp.make([source], {"newshape": attrs.ints(operand.shape)})
        else:
            new = operand.clone()
        Rewriter.insert_op(new, InsertPoint.before(plan.op))
        values.append(new.results[0])
    return values


def rewrite(plan: Lowering, layouts: Layouts) -> None:
    """Replace the planned op by its primitive, in the layout `layouts` chooses."""
    operands, properties = resolve(plan), dict(plan.properties)
    assert issubclass(plan.kernel, dnnl.DnnlOp)
    nhwc = layouts.choose(plan.kernel, operands, properties, plan.op)
    if plan.kernel is dnnl.ReorderOp:  # a reshape where only axes of extent 1 move
        src, dst = (string_property(properties, p, "") for p in ("src_layout", "dst_layout"))
        new = reorder(operands[0], src, dst)
    else:
        new = plan.kernel.make(operands, properties)
    if int_property(properties, "has_sum", 0):  # the sum post-op accumulates into its result
        new.attributes[REUSE_OPERAND] = IntegerAttr(len(operands) - 1, i64)
    Rewriter.insert_op(new, InsertPoint.before(plan.op))
    name = next((value.name_hint for value, source in plan.replaced if source is None), None)
    result = layouts.back(new) if nhwc else new.results[0]
    result.name_hint = name
    replace_planned(plan, result)


def is_dnnl_function(op: Operation) -> TypeGuard[func.FuncOp]:
    """A function with a body partitioned for dnnl (`Compiler = "dnnl"`)."""
    return is_target_function(op, TARGET)


def convert_module(module: ModuleOp, nhwc: bool = True) -> None:
    """Lower every dnnl function of `module`; DiagnosticError (module unchanged) on failure."""
    functions = [op for op in module.ops if is_dnnl_function(op)]
    plans: list[list[Lowering]] = []
    errors: list[Diagnostic] = []
    for function in functions:
        plans.append([])
        plan_function(function, plans[-1], errors)
    if errors:
        raise DiagnosticError(errors)
    for function_plans in plans:
        layouts = Layouts(nhwc)
        for plan in function_plans:
            rewrite(plan, layouts)
        layouts.finish()


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
