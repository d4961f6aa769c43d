"""`simplify-inference` (TVM's `SimplifyInference`): batch_norm and dropout in their inference form.

Rewrites, in every optimizable function (a function pass, opt_level 0):

- `relay.nn.batch_norm %x, %gamma, %beta, %mean, %var {axis, epsilon, center, scale}`:
  each `relay.tuple_get_item ... {index = 0}` of it becomes `x * scale + shift`, with
  TVM's ops on the parameter values (so FoldConstant folds them when they are
  constants)::

      scale = multiply(divide(1, sqrt(add(var, epsilon))), gamma)   # no gamma if !scale
      shift = add(multiply(negative(mean), scale), beta)            # no beta if !center

  both widened with `relay.expand_dims {axis = 1, num_newaxis = ndim - axis - 1}`
  so they broadcast along `axis` (no expand_dims when `axis` is the last dim);
  the two scalars are constants of the data's dtype (`epsilon` rounded to it).
  One expansion serves all `[0]` projections of one batch_norm.
- `relay.nn.dropout` (both `relay.nn.dropout(x)` and `relay.nn.dropout_raw(x)[0]`
  of the builder): each `[0]` projection becomes the input.

Where it differs from TVM, and why:

- `[1]` and `[2]` of a batch_norm (the moving mean and variance outputs) become its
  `moving_mean` and `moving_var` operands, which is what the op computes at
  inference (`dialects/relay/reference_nn.py`; TOPI's `batch_norm` without
  `training`). TVM rewrites only `[0]` and leaves the batch_norm in place for the
  other fields, where it can no longer be compiled. So a batch_norm read only through
  projections disappears; one whose tuple is used whole (returned, put in a
  `relay.tuple`, passed to a call) stays, for those uses only.
- The dropout mask (`[1]`) is left reading the dropout, as TVM does; the dropout is
  erased once nothing reads it.
- A batch_norm whose `x * scale + shift` would not have the projection's type (a
  dynamic dim on `axis` made static by broadcasting against a static `gamma`) is
  left alone, so the function's types never change.
- `layer_norm`, `group_norm`, `instance_norm` and `l2_normalize`, which TVM also
  expands, are not relay ops in xrelay yet.

With `fold-constants=true` (what `optimize` runs), a batch_norm whose parameters are
constants gets its scale and shift as the two constants FoldConstant would later fold
them to, instead of the ops computing them, when FoldConstant and DeadCodeElimination
are enabled: the same module at the end of the pipeline, ~11 fewer ops built per
batch_norm (`passes/simplify_inference_fold.py` has the rules).

Ops a rewrite leaves without uses (the projections, the batch_norm, the dropout, then
pure ops that only fed them) are erased; other dead code is left to `dce`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xrelay.dialects.builder.attrs import int_
from xrelay.dialects.relay.base import RelayOp, RelayTypeError, get_bool, get_float, get_int
from xrelay.dialects.relay.elementwise import (
    AddOp,
    DivideOp,
    MultiplyOp,
    NegativeOp,
    SqrtOp,
)
from xrelay.dialects.relay.nn import BatchNormOp, DropoutOp
from xrelay.dialects.relay.structure import ConstantOp, TupleGetItemOp
from xrelay.dialects.relay.tensor import ExpandDimsOp
from xrelay.dialects.relay.types import (
    dense_from_numpy,
    numpy_dtype,
    rank_of,
    tensor_element_type,
)
from xrelay.passes.adapters import XdslFunctionPass, XdslPass, xdsl_pass_info
from xrelay.passes.dead_code_elimination import DeadCodeEliminationPass
from xrelay.passes.fold_constant import (
    DEFAULT_MAX_ELEMENTS,
    MAX_ELEMENTS_KEY,
    FoldConstantPass,
    folds_in,
)
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_context import PassContext
from xrelay.passes.pass_manager import Pass
from xrelay.passes.rewriting import erase_dead_ops
from xrelay.passes.simplify_inference_fold import BatchNormFolder


class _Emitter:
    """Relay ops built with their inferred result types, collected in emission order."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def op(
        self,
        cls: type[RelayOp],
        operands: Sequence[SSAValue],
        props: Mapping[str, Attribute] | None = None,
    ) -> SSAValue:
        op = cls.make(operands, props)
        self.ops.append(op)
        return op.results[0]

    def scalar(self, value: float, element_type: Attribute) -> SSAValue:
        array = np.asarray(value, dtype=numpy_dtype(element_type))
        op = ConstantOp(dense_from_numpy(array, element_type))
        self.ops.append(op)
        return op.result


def _projections(value: SSAValue) -> dict[int, list[TupleGetItemOp]]:
    """The `tuple_get_item` users of a tuple value, by index (other users are not listed)."""
    by_index: dict[int, list[TupleGetItemOp]] = {}
    for use in value.uses:
        user = use.operation
        if isinstance(user, TupleGetItemOp):
            by_index.setdefault(user.index.value.data, []).append(user)
    return by_index


def _unpack_batch_norm(op: BatchNormOp) -> _Emitter:
    """TVM's `BatchNormToInferUnpack`: the ops computing `x * scale + shift`, last one last."""
    return unpack_batch_norm(op.operands, dict(op.properties))


def unpack_batch_norm(operands: Sequence[SSAValue], props: Mapping[str, Attribute]) -> _Emitter:
    """The ops of `_unpack_batch_norm` on a batch_norm's operands and properties.

    `operands` are (data, gamma, beta, moving_mean, moving_var), as the op's.
    """
    data, gamma, beta, moving_mean, moving_var = operands
    element = tensor_element_type(data.type)
    ndim = rank_of(data.type)
    axis = get_int(props, "axis")
    axis = axis + ndim if axis < 0 else axis
    emit = _Emitter()
    one = emit.scalar(1.0, element)
    epsilon = emit.scalar(get_float(props, "epsilon"), element)
    var_add_eps = emit.op(AddOp, [moving_var, epsilon])
    scale = emit.op(DivideOp, [one, emit.op(SqrtOp, [var_add_eps])])
    if get_bool(props, "scale"):
        scale = emit.op(MultiplyOp, [scale, gamma])
    num_newaxis = ndim - axis - 1
    expand = {"axis": int_(1), "num_newaxis": int_(num_newaxis)}
    wide_scale = emit.op(ExpandDimsOp, [scale], expand) if num_newaxis > 0 else scale
    out = emit.op(MultiplyOp, [data, wide_scale])
    shift = emit.op(MultiplyOp, [emit.op(NegativeOp, [moving_mean]), scale])
    if get_bool(props, "center"):
        shift = emit.op(AddOp, [shift, beta])
    wide_shift = emit.op(ExpandDimsOp, [shift], expand) if num_newaxis > 0 else shift
    emit.op(AddOp, [out, wide_shift])
    return emit


def _unpacked_ops(operands: Sequence[SSAValue], props: Mapping[str, Attribute]) -> list[Operation]:
    return unpack_batch_norm(operands, props).ops


@dataclass
class SimplifyBatchNorm(RewritePattern):
    """`batch_norm(...)[0]` -> `x * scale + shift`; `[1]`, `[2]` -> `moving_mean`, `moving_var`."""

    folder: BatchNormFolder | None = None
    """Emit scale and shift as the constants FoldConstant would make (`simplify_inference_fold`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BatchNormOp, rewriter: PatternRewriter, /) -> None:
        by_index = _projections(op.result)
        if not by_index:
            return
        replacement: dict[int, SSAValue] = {1: op.moving_mean, 2: op.moving_var}
        outputs = by_index.get(0, [])
        folded = None
        if self.folder is not None and any(getitem.result.uses for getitem in outputs):
            folded = self.folder.fold(op)
        if folded is not None:
            rewriter.insert(folded, InsertPoint.before(op))
            replacement[0] = folded[-1].results[0]
        elif any(getitem.result.uses for getitem in outputs):
            try:
                emit = _unpack_batch_norm(op)
            except RelayTypeError:
                emit = None
            if emit is not None and emit.ops[-1].results[0].type == op.data.type:
                rewriter.insert(emit.ops, InsertPoint.before(op))
                replacement[0] = emit.ops[-1].results[0]
        for index, getitems in by_index.items():
            for getitem in getitems:
                if not getitem.result.uses:
                    rewriter.erase(getitem)
                elif index in replacement:
                    rewriter.replace(getitem, [], [replacement[index]])
        erase_dead_ops([op], rewriter.erase)


class SimplifyDropout(RewritePattern):
    """`dropout(x)[0]` -> `x` (the mask, `[1]`, keeps reading the dropout)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DropoutOp, rewriter: PatternRewriter, /) -> None:
        by_index = _projections(op.result)
        outputs = by_index.get(0, [])
        if not outputs:
            return
        for getitem in outputs:
            rewriter.replace(getitem, [], [op.data])
        erase_dead_ops([op], rewriter.erase)


@dataclass(frozen=True)
class SimplifyInferencePass(XdslFunctionPass):
    """Rewrite batch_norm and dropout into their inference form (TVM's SimplifyInference)."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "simplify-inference"
    tvm_name: ClassVar[str] = "SimplifyInference"
    opt_level: ClassVar[int] = 0

    fold_constants: bool = False
    """Emit a batch_norm's scale and shift as the constants a later FoldConstant would fold
    them to, when that FoldConstant is enabled here (`optimize` sets it: same IR, fewer ops
    built; see `passes/simplify_inference_fold.py`)."""

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        folder = None
        if self.fold_constants and _fold_constant_runs(function):
            max_elements = PassContext.current().get_config(MAX_ELEMENTS_KEY)
            if not isinstance(max_elements, int):
                max_elements = DEFAULT_MAX_ELEMENTS
            folder = BatchNormFolder(max_elements, _unpacked_ops, function)
        rewrite_greedily(
            function.body, [SimplifyBatchNorm(folder), SimplifyDropout()], unsettling=_settled
        )


def _settled(op: Operation) -> bool:
    """No change calls for a confirming sweep (`passes/greedy.py`): a batch_norm or dropout
    matches when it has `tuple_get_item` projections, and no rewrite of this pass makes one,
    so every op that can match is rewritten by the first sweep (a second offering of one whose
    expansion failed changes nothing)."""
    return False


def _fold_constant_runs(function: func.FuncOp) -> bool:
    """Whether FoldConstant, run in the current PassContext, would fold in `function`, and
    DeadCodeElimination would erase what the folded form leaves unused."""
    context = PassContext.current()
    return (
        folds_in(function)
        and context.pass_enabled(xdsl_pass_info(FoldConstantPass))
        and context.pass_enabled(xdsl_pass_info(DeadCodeEliminationPass))
    )


def SimplifyInference() -> Pass:
    """TVM's `relay.transform.SimplifyInference()`."""
    return XdslPass(SimplifyInferencePass())
