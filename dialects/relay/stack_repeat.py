"""`relay.stack` and `relay.repeat`: TVM's ops (names, attributes, semantics) that
CombineParallelDense emits: stack tensors along a new axis, repeat elements along an axis.

Edge rules (docs/semantics.md): `stack` needs at least one tensor and all of them of one
shape and dtype (TVM's check skips one axis by mistake; numpy's rule, all equal, is kept),
`axis` in `[-(ndim + 1), ndim]`; `repeat` needs `repeats >= 1` and `axis` in
`[-ndim, ndim - 1]` (TVM's check admits `ndim`, which has no dim to repeat).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, TensorType, i64
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_int,
    normalize_axis,
    operand_element_type,
)
from xrelay.dialects.relay.types import ANY, Shape, format_shape, tensor_type


def stack_axis(axis: int, rank: int) -> int:
    """The position of the new axis in the output (`axis` in `[-(rank + 1), rank]`)."""
    if not -rank - 1 <= axis <= rank:
        raise RelayTypeError(f"axis {axis} is out of range [{-rank - 1}, {rank}] for rank {rank}")
    return axis + rank + 1 if axis < 0 else axis


def stack_shape(shapes: Sequence[Shape], axis: int) -> Shape:
    """The output shape of stacking tensors of `shapes` at `axis`."""
    if not shapes:
        raise RelayTypeError("expected at least one tensor to stack")
    first = shapes[0]
    out = list(first)
    for k, shape in enumerate(shapes[1:], start=1):
        if len(shape) != len(first):
            raise RelayTypeError(
                f"operand #{k} has rank {len(shape)}, expected {len(first)} like operand #0"
            )
        for d, (x, y) in enumerate(zip(first, shape, strict=True)):
            if ANY not in (x, y) and x != y:
                raise RelayTypeError(
                    f"operand #{k} shape {format_shape(shape)} differs from "
                    f"{format_shape(first)} of operand #0"
                )
            if out[d] == ANY:
                out[d] = y
    at = stack_axis(axis, len(first))
    return (*out[:at], len(shapes), *out[at:])


@irdl_op_definition
class StackOp(RelayOp):
    """`relay.stack`: join tensors of one shape along a new axis `axis` (variadic operands).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.stack
    """

    name = "relay.stack"

    data = var_operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr, IntegerAttr(0, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shapes = [expect_tensor(operand_types, k) for k in range(len(operand_types))]
        out = stack_shape(shapes, get_int(props, "axis"))
        dtype = operand_element_type(operand_types, 0)
        for k in range(1, len(operand_types)):
            if operand_element_type(operand_types, k) != dtype:
                raise RelayTypeError(
                    f"operand #{k} element type {operand_element_type(operand_types, k)} does not "
                    f"match {dtype} of operand #0"
                )
        return [tensor_type(out, dtype)]


def repeat_shape(shape: Shape, repeats: int, axis: int) -> Shape:
    """The output shape of `repeat`: the dim at `axis` times `repeats`."""
    if repeats < 1:
        raise RelayTypeError(f"repeats must be at least 1, got {repeats}")
    if not shape:
        raise RelayTypeError("cannot repeat a rank-0 tensor")
    at = normalize_axis(axis, len(shape))
    out = list(shape)
    out[at] = ANY if out[at] == ANY else out[at] * repeats
    return tuple(out)


@irdl_op_definition
class RepeatOp(RelayOp):
    """`relay.repeat`: each element `repeats` times in a row along `axis` (numpy's repeat).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.repeat
    """

    name = "relay.repeat"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    repeats = prop_def(IntegerAttr)
    axis = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        out = repeat_shape(shape, get_int(props, "repeats"), get_int(props, "axis"))
        return [tensor_type(out, operand_element_type(operand_types, 0))]


OPS = (StackOp, RepeatOp)
