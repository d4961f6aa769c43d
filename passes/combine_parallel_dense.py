"""`combine-parallel-dense` (TVM's `CombineParallelDense`): parallel denses as one op.

Parallel `nn.dense`s reading the same data (see `passes/combine_parallel.py` for
branches and groups) combine in one of two ways, TVM's:

- `to_batch=True` (default): denses with weights of one shape and the same
  `out_dtype` become one `nn.batch_matmul` of the stacked data and the stacked
  weights (`stack(..., axis=0)`); the elementwise and broadcast ops that follow
  every branch alike are combined with their other operands (of one shape and dtype
  across branches) stacked too, a rank-1 operand first given a leading unit dim
  (`expand_dims(b, 0)`) so it broadcasts per row. Each branch's output is a
  `split` of axis 0, `squeeze`d. Where TVM emits ill-typed IR, xrelay does not
  combine: data of rank other than 2 (the stack is no batch_matmul operand) and
  following operands of rank 0 or above 2 (stacked, they do not broadcast per
  branch) end the combined levels.
- `to_batch=False`: denses with the same reduction dim and `out_dtype` (output
  dims may differ) become one dense over the weights concatenated on axis 0 (`units`
  their sum). Following ops combine when their other operands agree on every dim but
  the last; those are concatenated on their last axis, a scalar first made rank 1
  and a size-1 last dim repeated to the branch's width (`repeat`) so the broadcast
  stays right. Each branch's output is a `strided_slice` (`slice_mode="size"`) on the
  last axis of its output whose extent is the dense's width (TVM's rule, which can
  pick the wrong axis after a reshape that makes another dim equal to it).

Groups smaller than `min_num_branches` (default 3) are left alone. Opt level 4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Attribute, Operation, SSAValue
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay.nn import DenseOp
from xrelay.dialects.relay.nn_extra import BatchMatmulOp
from xrelay.dialects.relay.stack_repeat import RepeatOp, StackOp
from xrelay.dialects.relay.structure import TupleGetItemOp
from xrelay.dialects.relay.tensor import (
    ConcatenateOp,
    ExpandDimsOp,
    SplitOp,
    SqueezeOp,
)
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.combine_parallel import (
    Group,
    ParallelOpCombiner,
    element,
    props_of,
    remade,
    result,
    same_tensor_type,
    shape,
)
from xrelay.passes.pass_manager import Pass


def _out_dtype(props: dict[str, Attribute]) -> dict[str, Attribute]:
    return {"out_dtype": props["out_dtype"]} if "out_dtype" in props else {}


class DenseToBatchCombiner(ParallelOpCombiner):
    """TVM's `ParallelDenseToBatchCombiner` (a `ParallelOpBatchCombiner`)."""

    op_name = DenseOp.name

    def can_combine(self, a: Operation, b: Operation) -> bool:
        return (
            props_of(a).get("out_dtype") == props_of(b).get("out_dtype")
            and shape(a.operands[1])[:2] == shape(b.operands[1])[:2]
            and len(shape(a.operands[0])) == len(shape(b.operands[0])) == 2
        )

    def _stack(self, values: list[SSAValue]) -> SSAValue:
        return self.emit(StackOp.make(values, {"axis": attrs.int_(0)}))

    def make_combined(self, group: Group) -> SSAValue:
        stacked = [self._stack([b[0].operands[i] for b in group]) for i in range(2)]
        return self.emit(BatchMatmulOp.make(stacked, _out_dtype(props_of(group[0][0]))))

    def is_arg_compatible(self, a: Operation, b: Operation, index: int) -> bool:
        rank = len(shape(a.operands[index]))
        return rank in (1, 2) and same_tensor_type(a.operands[index], b.operands[index])

    def make_following(
        self, data: SSAValue, group: Group, depth: int, parent_index: int
    ) -> SSAValue:
        call = group[0][depth]
        operands: list[SSAValue] = []
        for i in range(len(call.operands)):
            if i == parent_index:
                operands.append(data)
                continue
            pieces: list[SSAValue] = []
            for branch in group:
                arg = branch[depth].operands[i]
                if len(shape(arg)) == 1:
                    props = {"axis": attrs.int_(0), "num_newaxis": attrs.int_(1)}
                    arg = self.emit(ExpandDimsOp.make([arg], props))
                pieces.append(arg)
            operands.append(self._stack(pieces))
        return self.emit(remade(call, operands))

    def split_outputs(self, data: SSAValue, group: Group, depth: int) -> list[SSAValue]:
        props = {"indices_or_sections": attrs.int_(len(group)), "axis": attrs.int_(0)}
        split = self.emit(SplitOp.make([data], props))
        outputs: list[SSAValue] = []
        for index in range(len(group)):
            piece = self.emit(TupleGetItemOp.make([split], {"index": attrs.int_(index)}))
            outputs.append(self.emit(SqueezeOp.make([piece], {"axis": attrs.ints([0])})))
        return outputs


class DenseToDenseCombiner(ParallelOpCombiner):
    """TVM's `ParallelDenseToDenseCombiner`."""

    op_name = DenseOp.name

    def can_combine(self, a: Operation, b: Operation) -> bool:
        return (
            props_of(a).get("out_dtype") == props_of(b).get("out_dtype")
            and shape(a.operands[1])[1] == shape(b.operands[1])[1]
        )

    def make_combined(self, group: Group) -> SSAValue:
        weights = [branch[0].operands[1] for branch in group]
        weight = self.emit(ConcatenateOp.make(weights, {"axis": attrs.int_(0)}))
        units = sum(shape(w)[0] for w in weights)
        props = {"units": attrs.int_(units), **_out_dtype(props_of(group[0][0]))}
        return self.emit(DenseOp.make([group[0][0].operands[0], weight], props))

    def is_arg_compatible(self, a: Operation, b: Operation, index: int) -> bool:
        ta, tb = a.operands[index], b.operands[index]
        sa, sb = shape(ta), shape(tb)
        if element(ta) != element(tb) or len(sa) != len(sb):
            return False
        if len(shape(result(a))) < len(sa) or len(shape(result(b))) < len(sb):
            return False  # not broadcast/elemwise
        return sa[:-1] == sb[:-1]

    def make_following(
        self, data: SSAValue, group: Group, depth: int, parent_index: int
    ) -> SSAValue:
        call = group[0][depth]
        operands: list[SSAValue] = []
        for i in range(len(call.operands)):
            if i == parent_index:
                operands.append(data)
                continue
            rank = len(shape(call.operands[i]))
            axis = 0 if rank == 0 else rank - 1
            pieces: list[SSAValue] = []
            for branch in group:
                out_dim = shape(branch[depth].operands[parent_index])[-1]
                arg = branch[depth].operands[i]
                repeat = rank == 0 or (out_dim > 1 and shape(arg)[-1] == 1)
                if rank == 0:
                    props = {"axis": attrs.int_(-1), "num_newaxis": attrs.int_(1)}
                    arg = self.emit(ExpandDimsOp.make([arg], props))
                if repeat:
                    props = {"repeats": attrs.int_(out_dim), "axis": attrs.int_(axis)}
                    arg = self.emit(RepeatOp.make([arg], props))
                pieces.append(arg)
            operands.append(self.emit(ConcatenateOp.make(pieces, {"axis": attrs.int_(axis)})))
        return self.emit(remade(call, operands))

    def split_outputs(self, data: SSAValue, group: Group, depth: int) -> list[SSAValue]:
        outputs: list[SSAValue] = []
        index = 0
        for branch in group:
            out_shape = shape(result(branch[depth]))
            width = shape(result(branch[0]))[1]
            axis = max(i for i, d in enumerate(out_shape) if d == width)
            begin, end = [0] * len(out_shape), [-1] * len(out_shape)
            begin[axis], end[axis] = index, width
            outputs.append(self.emit_slice(data, begin, end))
            index += width
        return outputs


@dataclass(frozen=True)
class CombineParallelDensePass(XdslFunctionPass):
    """Combine parallel denses reading the same data into a batch_matmul (or one dense)."""

    name = "combine-parallel-dense"
    tvm_name: ClassVar[str] = "CombineParallelDense"
    opt_level: ClassVar[int] = 4

    min_num_branches: int = 3
    to_batch: bool = True

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        combiner = DenseToBatchCombiner if self.to_batch else DenseToDenseCombiner
        combiner(self.min_num_branches).combine(function)


def CombineParallelDense(min_num_branches: int = 3, to_batch: bool = True) -> Pass:
    """TVM's `relay.transform.CombineParallelDense(min_num_branches=3, to_batch=True)`."""
    return XdslPass(CombineParallelDensePass(min_num_branches=min_num_branches, to_batch=to_batch))
