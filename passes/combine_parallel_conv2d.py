"""`combine-parallel-conv2d` (TVM's `CombineParallelConv2D`): one conv2d for parallel ones.

Parallel `nn.conv2d`s (groups 1) reading the same data, with the same strides,
padding, dilation, layouts and `out_dtype` and the same kernel height and width,
become one conv2d over their weights concatenated along the kernel's `O` axis
(`channels` the sum). The elementwise and broadcast ops that follow every branch
alike are combined too, their other operands concatenated along the channel
axis (which must be present in them, not broadcast). Each branch's output is a
`strided_slice` (`slice_mode="size"`) of the combined result along the channel
axis. Groups smaller than `min_num_branches` (default 3) are left alone. See
`passes/combine_parallel.py` for the branch rules. Opt level 4, as TVM's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Attribute, Operation, SSAValue
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay.base import get_int, get_str
from xrelay.dialects.relay.nn import Conv2DOp
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

SAME_PROPS = ("strides", "padding", "dilation", "groups", "data_layout", "kernel_layout")


def _kernel_layout(op: Operation) -> str:
    return get_str(props_of(op), "kernel_layout")


def out_channels(conv: Operation) -> int:
    """The conv2d's output channels: its weight's `O` extent."""
    return shape(conv.operands[1])[_kernel_layout(conv).index("O")]


class Conv2DCombiner(ParallelOpCombiner):
    """TVM's `ParallelConv2DCombiner`."""

    op_name = Conv2DOp.name

    def __init__(self, min_num_branches: int) -> None:
        super().__init__(min_num_branches)
        self.channel_pos = 1

    def is_supported(self, op: Operation) -> bool:
        return get_int(props_of(op), "groups") == 1

    def can_combine(self, a: Operation, b: Operation) -> bool:
        pa, pb = props_of(a), props_of(b)
        if any(pa.get(k) != pb.get(k) for k in (*SAME_PROPS, "out_dtype")):
            return False
        layout = _kernel_layout(a)
        wa, wb = shape(a.operands[1]), shape(b.operands[1])
        return all(wa[layout.index(d)] == wb[layout.index(d)] for d in "HW")

    def make_combined(self, group: Group) -> SSAValue:
        root = group[0][0]
        props = props_of(root)
        weights = [branch[0].operands[1] for branch in group]
        axis = _kernel_layout(root).index("O")
        weight = self.emit(ConcatenateOp.make(weights, {"axis": attrs.int_(axis)}))
        new: dict[str, Attribute] = {k: props[k] for k in SAME_PROPS}
        for key in ("kernel_size", "out_dtype"):
            if key in props:
                new[key] = props[key]
        new["channels"] = attrs.int_(sum(out_channels(b[0]) for b in group))
        self.channel_pos = get_str(props, "data_layout").index("C")
        return self.emit(Conv2DOp.make([root.operands[0], weight], new))

    def _arg_channel_pos(self, call: Operation, index: int) -> int:
        return self.channel_pos - len(shape(result(call))) + len(shape(call.operands[index]))

    def is_arg_compatible(self, a: Operation, b: Operation, index: int) -> bool:
        ta, tb = a.operands[index], b.operands[index]
        sa, sb = shape(ta), shape(tb)
        if element(ta) != element(tb) or len(sa) != len(sb):
            return False
        pos = self._arg_channel_pos(a, index)
        if pos < 0:
            return False
        if (
            sa[pos] != shape(result(a))[self.channel_pos]
            or sb[pos] != shape(result(b))[self.channel_pos]
        ):
            return False
        return all(sa[i] == sb[i] for i in range(len(sa)) if i != pos)

    def make_following(
        self, data: SSAValue, group: Group, depth: int, parent_index: int
    ) -> SSAValue:
        call = group[0][depth]
        operands: list[SSAValue] = []
        for i in range(len(call.operands)):
            if i == parent_index:
                operands.append(data)
                continue
            axis = attrs.int_(self._arg_channel_pos(call, i))
            pieces = [branch[depth].operands[i] for branch in group]
            operands.append(self.emit(ConcatenateOp.make(pieces, {"axis": axis})))
        return self.emit(remade(call, operands))

    def split_outputs(self, data: SSAValue, group: Group, depth: int) -> list[SSAValue]:
        outputs: list[SSAValue] = []
        index = 0
        for branch in group:
            channels = out_channels(branch[0])
            begin = [0] * self.channel_pos + [index]
            end = [-1] * self.channel_pos + [channels]
            outputs.append(self.emit_slice(data, begin, end))
            index += channels
        return outputs


@dataclass(frozen=True)
class CombineParallelConv2DPass(XdslFunctionPass):
    """Combine parallel conv2ds reading the same data into one conv2d and slices."""

    name = "combine-parallel-conv2d"
    tvm_name: ClassVar[str] = "CombineParallelConv2D"
    opt_level: ClassVar[int] = 4

    min_num_branches: int = 3

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        Conv2DCombiner(self.min_num_branches).combine(function)


def CombineParallelConv2D(min_num_branches: int = 3) -> Pass:
    """TVM's `relay.transform.CombineParallelConv2D(min_num_branches=3)`."""
    return XdslPass(CombineParallelConv2DPass(min_num_branches=min_num_branches))
