"""`combine-parallel-batch-matmul` (TVM's `CombineParallelBatchMatmul`).

Parallel `nn.batch_matmul`s (`transpose_a` false, `transpose_b` true, TVM's
only supported form) reading the same `x`, whose rank-3 `y`s have the same
batch and element type and whose results have the same element type and
`out_dtype`, become one batch_matmul over the `y`s concatenated on axis 1. The
elementwise and broadcast ops that follow every branch alike are combined, their
other operands concatenated on the last axis. Each branch's output is a
`strided_slice` (`slice_mode="size"`) of the last axis. Groups smaller than
`min_num_branches` (default 3) are left alone; see `passes/combine_parallel.py`.
Opt level 4, as TVM's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Attribute, Operation, SSAValue
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay.base import get_bool
from xrelay.dialects.relay.nn_extra import BatchMatmulOp
from xrelay.dialects.relay.tensor import ConcatenateOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.combine_parallel import (
    Group,
    ParallelOpCombiner,
    element,
    props_of,
    remade,
    result,
    shape,
)
from xrelay.passes.pass_manager import Pass


class BatchMatmulCombiner(ParallelOpCombiner):
    """TVM's `ParallelBatchMatmulCombiner`."""

    op_name = BatchMatmulOp.name

    def can_combine(self, a: Operation, b: Operation) -> bool:
        pa, pb = props_of(a), props_of(b)
        for p in (pa, pb):
            if get_bool(p, "transpose_a") or not get_bool(p, "transpose_b"):
                return False
        ya, yb = a.operands[1], b.operands[1]
        return (
            element(ya) == element(yb)
            and element(result(a)) == element(result(b))
            and len(shape(ya)) == 3
            and len(shape(yb)) == 3
            and shape(ya)[0] == shape(yb)[0]
            and pa.get("out_dtype") == pb.get("out_dtype")
        )

    def make_combined(self, group: Group) -> SSAValue:
        root = group[0][0]
        weights = [branch[0].operands[1] for branch in group]
        weight = self.emit(ConcatenateOp.make(weights, {"axis": attrs.int_(1)}))
        props = props_of(root)
        new: dict[str, Attribute] = {k: props[k] for k in ("transpose_a", "transpose_b")}
        if "out_dtype" in props:
            new["out_dtype"] = props["out_dtype"]
        return self.emit(BatchMatmulOp.make([root.operands[0], weight], new))

    def is_arg_compatible(self, a: Operation, b: Operation, index: int) -> bool:
        del a, b, index
        return True

    def make_following(
        self, data: SSAValue, group: Group, depth: int, parent_index: int
    ) -> SSAValue:
        call = group[0][depth]
        operands: list[SSAValue] = []
        for i in range(len(call.operands)):
            if i == parent_index:
                operands.append(data)
                continue
            pieces = [branch[depth].operands[i] for branch in group]
            operands.append(self.emit(ConcatenateOp.make(pieces, {"axis": attrs.int_(-1)})))
        return self.emit(remade(call, operands))

    def split_outputs(self, data: SSAValue, group: Group, depth: int) -> list[SSAValue]:
        outputs: list[SSAValue] = []
        index = 0
        for branch in group:
            features = shape(branch[0].operands[1])[1]
            outputs.append(self.emit_slice(data, [0, 0, index], [-1, -1, features]))
            index += features
        return outputs


@dataclass(frozen=True)
class CombineParallelBatchMatmulPass(XdslFunctionPass):
    """Combine parallel batch_matmuls reading the same `x` into one and slices."""

    name = "combine-parallel-batch-matmul"
    tvm_name: ClassVar[str] = "CombineParallelBatchMatmul"
    opt_level: ClassVar[int] = 4

    min_num_branches: int = 3

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        BatchMatmulCombiner(self.min_num_branches).combine(function)


def CombineParallelBatchMatmul(min_num_branches: int = 3) -> Pass:
    """TVM's `relay.transform.CombineParallelBatchMatmul(min_num_branches=3)`."""
    return XdslPass(CombineParallelBatchMatmulPass(min_num_branches=min_num_branches))
