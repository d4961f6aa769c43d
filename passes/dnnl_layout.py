"""NHWC activations in the functions `convert-relay-to-dnnl` lowers: where values are transposed.

oneDNN's convolutions and pools are fast on NHWC activations and fall back to
slow paths on NCHW ones (perf-anchors.md). Relay graphs arrive NCHW. So, once
the lowering patterns made a function's primitives (in relay's layouts),
`apply_layouts` walks them in order and `Layouts` decides per value:

- a `conv2d` (or pool) on NCHW data becomes the NHWC op: its data (and sum
  operand) are taken in NHWC, its result is NHWC;
- an eltwise op whose operand is available in NHWC, a binary op on 4-D
  operands one of which is, and a batch_norm of axis 1 on such data run on
  the NHWC values (the batch_norm along axis 3); anything else runs on the
  values as relay wrote them;
- an NHWC value that something reads as relay wrote it (a function result, a
  dense, a tuple) is read through one `dnnl.reorder` NHWC -> NCHW placed right
  after it; a value that an NHWC op needs and that is not available in NHWC
  goes through one `dnnl.reorder` NCHW -> NHWC before its first such use (a
  constant is transposed at compile time instead). A transposition that only
  moves axes of extent 1 (e.g. of a `1x8x1x1` tensor) is a `relay.reshape`:
  the same bytes.

Every NHWC result first gets its reorder back to NCHW, which replaces the
original value everywhere; an NHWC op reading such a value reads the reorder's
input instead, and `finish` erases the reorders nobody reads. So the
transforms are only at the function's boundary: its parameters in, its
results out, and around ops that need relay's layout. Each value is reordered
at most once in each direction: linear in the function's size.

This is one step over a whole function, not a rewrite pattern: whether a
primitive runs on NHWC depends on how every primitive before it was placed,
and the reorders back to NCHW go only once nothing reads them.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects import dnnl
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.tensor import ReshapeOp
from xrelay.dialects.relay.types import (
    dense_from_numpy,
    dense_to_numpy,
    rank_of,
    shape_of,
    tensor_element_type,
)

NCHW, NHWC = "NCHW", "NHWC"

LAYOUT_PROPERTY: dict[type[dnnl.DnnlOp], str] = {
    dnnl.Conv2DOp: "data_layout",
    dnnl.MaxPool2DOp: "layout",
    dnnl.AvgPool2DOp: "layout",
    dnnl.GlobalAvgPool2DOp: "layout",
}
"""The ops that run on NHWC activations, and the property naming their data layout."""


def reorder(value: SSAValue, src: str, dst: str) -> Operation:
    """`dnnl.reorder` of `value` from layout `src` to `dst`; a `relay.reshape` (the same
    bytes) when the transposition only moves axes of extent 1."""
    order = dnnl.permutation(src, dst)
    shape = shape_of(value.type)
    if [a for a in order if shape[a] != 1] == [a for a in range(len(shape)) if shape[a] != 1]:
        newshape = attrs.ints([shape[a] for a in order])
        return ReshapeOp.make([value], {"newshape": newshape})
    props = {"src_layout": attrs.str_(src), "dst_layout": attrs.str_(dst)}
    return dnnl.ReorderOp.make([value], props)


class Layouts:
    """Chooses NHWC or relay's layout for each value of one function as it is rewritten."""

    def __init__(self, nhwc: bool) -> None:
        self.nhwc = nhwc
        """False: every op runs in the layout relay wrote (no reorders)."""
        self._source: dict[SSAValue, SSAValue] = {}
        """The NCHW value a back reorder made -> its NHWC input."""
        self._forward: dict[SSAValue, SSAValue] = {}
        """An NCHW value -> its NHWC version (a reorder or a transposed constant)."""
        self._backs: list[Operation] = []

    def available(self, value: SSAValue) -> bool:
        """Whether `value` already exists in NHWC (an NHWC op computed it)."""
        return value in self._source

    def to_nhwc(self, value: SSAValue, before: Operation) -> SSAValue:
        """The NHWC version of the 4-D NCHW `value`, made before `before` if it is new."""
        if value in self._source:
            return self._source[value]
        if value in self._forward:
            return self._forward[value]
        owner = value.owner
        if isinstance(owner, ConstantOp):
            array = np.ascontiguousarray(dense_to_numpy(owner.value).transpose(0, 2, 3, 1))
            new: Operation = ConstantOp(
                dense_from_numpy(array, tensor_element_type(owner.result.type))
            )
        else:
            new = reorder(value, NCHW, NHWC)
        new.location = before.location  # made for the op that reads it
        Rewriter.insert_op(new, InsertPoint.before(before))
        self._forward[value] = new.results[0]
        return new.results[0]

    def choose(
        self,
        kernel: type[dnnl.DnnlOp],
        operands: list[SSAValue],
        properties: dict[str, Attribute],
        before: Operation,
    ) -> bool:
        """Rewrite `operands` / `properties` in place for NHWC; whether the result is NHWC."""
        if not self.nhwc:
            return False
        prop = LAYOUT_PROPERTY.get(kernel)
        if prop is not None:
            if string_property(properties, prop, NCHW) != NCHW:
                return False  # written NHWC: runs as it is
            properties[prop] = attrs.str_(NHWC)
            operands[0] = self.to_nhwc(operands[0], before)
            if kernel is dnnl.Conv2DOp and int_property(properties, "has_sum", 0):
                operands[-1] = self.to_nhwc(operands[-1], before)
            return True
        if issubclass(kernel, dnnl.EltwiseOp) and self.available(operands[0]):
            operands[0] = self._source[operands[0]]
            return True
        if issubclass(kernel, dnnl.BinaryOp):
            ranks = [rank_of(v.type) for v in operands]
            if ranks == [4, 4] and any(self.available(v) for v in operands):
                operands[:] = [self.to_nhwc(v, before) for v in operands]
                return True
            return False
        if kernel is dnnl.BatchNormOp and self.available(operands[0]):
            axis = int_property(properties, "axis", 1)
            if rank_of(operands[0].type) == 4 and axis % 4 == 1:
                operands[0] = self._source[operands[0]]
                properties["axis"] = attrs.int_(3)
                return True
        return False

    def back(self, new: Operation) -> SSAValue:
        """The NCHW value of `new`'s NHWC result: a reorder placed right after it."""
        back = reorder(new.results[0], NHWC, NCHW)
        back.location = new.location
        Rewriter.insert_op(back, InsertPoint.after(new))
        self._source[back.results[0]] = new.results[0]
        self._backs.append(back)
        return back.results[0]

    def finish(self) -> None:
        """Erase the reorders back to NCHW that nothing reads, and constants now unused."""
        for back in reversed(self._backs):
            if not back.results[0].uses:
                Rewriter.erase_op(back)
        self._backs.clear()
        for value in self._forward:  # a constant transposed for its every use is dead
            if isinstance(value.owner, ConstantOp) and not value.uses:
                Rewriter.erase_op(value.owner)
        self._forward.clear()


def apply_layouts(function: func.FuncOp) -> None:
    """Run the primitives of a lowered function on NHWC activations where `Layouts` chooses
    to, in order: each one it moves is rebuilt on the NHWC operands, read back through a
    reorder named like its result."""
    layouts = Layouts(True)
    for op in list(function.body.block.ops):
        if not isinstance(op, dnnl.DnnlOp):
            continue
        operands, properties = list(op.operands), dict(op.properties)
        if not layouts.choose(type(op), operands, properties, op):
            continue
        new = type(op).make(operands, properties, dict(op.attributes))
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.before(op))
        result = layouts.back(new)
        result.name_hint = op.results[0].name_hint
        op.results[0].replace_all_uses_with(result)
        Rewriter.erase_op(op)
    layouts.finish()


def string_property(properties: dict[str, Attribute], name: str, default: str) -> str:
    """The text of a string property, `default` when it is absent."""
    value = properties.get(name)
    return value.data if isinstance(value, StringAttr) else default


def int_property(properties: dict[str, Attribute], name: str, default: int) -> int:
    """The value of an integer (or boolean) property, `default` when it is absent."""
    value = properties.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else default
