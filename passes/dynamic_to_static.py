"""`dynamic-to-static` (TVM's `DynamicToStatic`): dynamic ops whose shape folds become static.

Each `relay.dyn.*` op (`dialects/relay/dyn.py`) whose shape operands (newshape,
reps, axis, shape, pad_width and pad_value) have a value known at compile time is
replaced by its static op (`relay.reshape`, `relay.tile`, ..., the table in
`dialects/relay/dyn_static.py`, TVM's in `src/relay/transforms/dynamic_to_static.cc`).
A shape operand's value is known when it is:

- a `relay.constant`;
- `relay.shape_of` of a value whose type is fully static, whatever computes it;
- a pure relay op (FoldConstant's rule: `FoldConstantCall.foldable`) with a static
  result of at most `MAX_SHAPE_ELEMENTS` elements, on operands whose values are known
  (evaluated with the op's reference semantics, as FoldConstant does).

The function is visited once, in order: each replaced op's result type is static,
and the ops after it are re-typed as InferType would, so a later `shape_of` of it is
static too (a chain `reshape(reshape(x, shape_of(y)), shape_of(...))` folds in one
pass, as TVM's pass does by re-running FoldConstant and InferType per op). The
shape computations left unused are erased when pure; the function's signature is
re-derived. A dynamic op whose shape is not known, or whose known shape its static
op rejects (a reshape to a size that does not fit), is left as it is: the
interpreter reports it at run time, the C target at build time.

Differs from TVM: TVM runs FoldConstant over the whole function for each dynamic
op; here only the shape operands' producers are evaluated, so the rest of the
function is left to `fold-constant`. `optimize` runs this pass early (before
SimplifyExpr and FoldConstant), at TVM's opt_level 2; a function without a dynamic
op costs one walk over its ops.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay.base import RelayOp, RelayTypeError
from xrelay.dialects.relay.dyn import DynOp
from xrelay.dialects.relay.dyn_static import SHAPE_OPERANDS, static_form
from xrelay.dialects.relay.scan import ShapeOfOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import numpy_dtype
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.fold_constant import FoldConstantCall, constant_value, element_count
from xrelay.passes.infer_type import TypeInferencer
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic

MAX_SHAPE_ELEMENTS = 4096
"""The largest value (in elements) evaluated while folding a shape operand."""


class ShapeValues:
    """The compile-time values of shape operands, memoized per function."""

    def __init__(self) -> None:
        self.evaluator = Evaluator(ModuleOp([]))
        self.known: dict[SSAValue, Any] = {}

    def value(self, value: SSAValue) -> Any:
        """The numpy value of `value` if known at compile time (module doc), else None."""
        if value in self.known:
            return self.known[value]
        result = self._compute(value)
        self.known[value] = result
        return result

    def _compute(self, value: SSAValue) -> Any:
        owner = value.owner
        if isinstance(owner, ConstantOp):
            return constant_value(value)
        if isinstance(owner, ShapeOfOp):
            ty: Attribute = owner.data.type
            if not isinstance(ty, TensorType) or element_count(owner.data.type) is None:
                return None
            shape = cast(TensorType[Attribute], ty).get_shape()
            return np.array(shape, dtype=numpy_dtype(owner.dtype))
        if not isinstance(owner, RelayOp) or len(owner.results) != 1:
            return None
        count = element_count(value.type)
        if count is None or count > MAX_SHAPE_ELEMENTS or not FoldConstantCall.foldable(owner):
            return None
        args: list[Value] = []
        for operand in owner.operands:
            known = self.value(operand)
            if known is None:
                return None
            args.append(known)
        try:
            with np.errstate(all="ignore"):
                return self.evaluator.eval_op(owner, args, {})[0]
        except Exception:  # the interpreter cannot evaluate it: not known
            return None


def _erase_unused(values: Iterable[SSAValue]) -> None:
    """Erase the pure ops defining `values` that have no uses left, and so on upward."""
    stack = list(values)
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, Operation) or owner.parent is None or owner.regions:
            continue
        if not is_trivially_dead(owner):
            continue
        operands = list(owner.operands)
        Rewriter.erase_op(owner)
        stack.extend(operands)


@dataclass
class _Rewrite:
    """One function's rewrite: replace what folds, re-type what follows a replacement."""

    inferencer: TypeInferencer
    values: ShapeValues
    replaced: int = 0

    def block(self, block: Block) -> None:
        for op in list(block.ops):
            if op.parent is None:
                continue  # erased with an unused shape computation
            for region in op.regions:
                for inner in region.blocks:
                    self.block(inner)
            if isinstance(op, DynOp) and self.replace(op):
                continue
            if self.replaced:
                self.inferencer.infer_op(op)

    def replace(self, op: DynOp) -> bool:
        """Replace `op` by its static form if its shape operands are known; whether it was."""
        known: list[Any] = []
        for index in SHAPE_OPERANDS[type(op)]:
            value = self.values.value(op.operands[index])
            if value is None:
                return False
            known.append(value)
        try:
            form = static_form(op, known)
            kept = [op.operands[i] for i in form.kept]
            new = form.op_class.make(kept, form.properties)
        except RelayTypeError:
            return False  # a shape the static op rejects: left for run time to report
        released = list(op.operands)
        Rewriter.replace_op(op, new)
        _erase_unused(released)
        self.replaced += 1
        return True


def _has_dynamic_op(region: Region) -> bool:
    """Whether a dynamic op is in `region` (a loop over the blocks' ops, descending only into
    ops with regions: about twice as fast as `walk()`, the pass's whole cost without one)."""
    stack = [region]
    while stack:
        for block in stack.pop().blocks:
            for op in block.ops:
                if isinstance(op, DynOp):
                    return True
                if op.regions:
                    stack.extend(op.regions)
    return False


@dataclass(frozen=True)
class DynamicToStaticPass(XdslFunctionPass):
    """Replace dynamic ops whose shape folds to a constant by their static ops."""

    name = "dynamic-to-static"
    tvm_name: ClassVar[str] = "DynamicToStatic"
    opt_level: ClassVar[int] = 2

    replaced: ClassVar[Statistic] = Statistic("num-replaced", "Dynamic ops made static")

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        if not _has_dynamic_op(function.body):
            return
        module = function.parent_op()
        inferencer = TypeInferencer(module if isinstance(module, ModuleOp) else ModuleOp([]))
        rewrite = _Rewrite(inferencer, ShapeValues())
        for block in function.body.blocks:
            rewrite.block(block)
        if rewrite.replaced:
            inferencer.set_signature(function, None, inferencer.returned_types(function))
            self.replaced.add(rewrite.replaced)


def DynamicToStatic() -> Pass:
    """TVM's `relay.transform.DynamicToStatic`: the `dynamic-to-static` pass."""
    return XdslPass(DynamicToStaticPass())
