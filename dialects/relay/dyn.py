"""TVM's dynamic-shape ops (`relay.dyn.reshape`, `relay.dyn.tile`, ...): a shape as an operand.

`relay.reshape(x, shape_expr)` and its kin build these when the shape (reps, axes,
pad widths, topk's `k`) is an expression rather than a list, as TVM's builders do
(`python/tvm/relay/op/transform.py`). The shape operand is read at run time, so
the result dims are `?` (`tensor<?x?xf32>`); only the rank is known, from the
shape operand's static length, as in TVM's type relations
(`src/relay/op/dyn/tensor/transform.cc`). xrelay types have a static rank, so a
shape operand of unknown length is a type error.

`dynamic-to-static` (TVM's DynamicToStatic) replaces each of them whose shape
operand folds to a constant with the static op (`relay.reshape`, ...). The C
target compiles static shapes only.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    TupleType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xrelay.dialects.relay.algorithm import TopKOp, sort_axis
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    check_dtype,
    expect_tensor,
    get_str,
    operand_element_type,
)
from xrelay.dialects.relay.creation import expect_scalar
from xrelay.dialects.relay.nn import PAD_MODES
from xrelay.dialects.relay.tensor import FALSE
from xrelay.dialects.relay.types import (
    ANY,
    is_tuple,
    shape_of,
    tensor_element_type,
    tensor_type,
    tuple_elements,
    tuple_type,
)


def is_index_type(element: Attribute) -> bool:
    """An integer element type other than `i1` (bool)."""
    return isinstance(element, IntegerType) and element != i1


def shape_operand_length(operand_types: Sequence[Attribute], index: int, what: str) -> int:
    """The static length of a 1-D integer shape operand (`newshape`, `reps`, ...)."""
    shape = expect_tensor(operand_types, index, what)
    element = operand_element_type(operand_types, index)
    if not is_index_type(element):
        raise RelayTypeError(f"{what} must be a tensor of integers, got {operand_types[index]}")
    if len(shape) != 1:
        raise RelayTypeError(f"{what} must be 1-D, got {operand_types[index]}")
    if shape[0] == ANY:
        raise RelayTypeError(
            f"{what} must have a static length (xrelay types have a static rank), "
            f"got {operand_types[index]}"
        )
    return shape[0]


def dynamic_type(rank: int, element: Attribute) -> Attribute:
    """A tensor of `rank` dynamic dims."""
    return tensor_type([ANY] * rank, element)


class DynOp(RelayOp):
    """Base of the dynamic ops: pure, with a shape read at run time."""

    traits = traits_def(Pure())


@irdl_op_definition
class DynReshapeOp(DynOp):
    """`relay.dyn.reshape`: `relay.reshape` with `newshape` an int tensor (TVM's special
    values 0, -1, -2, -3, -4 included); the result rank is `newshape`'s length."""

    name = "relay.dyn.reshape"

    data = operand_def(TensorType)
    newshape = operand_def(TensorType)
    result = result_def(TensorType)
    allowzero = prop_def(IntegerAttr, FALSE)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0, "data")
        rank = shape_operand_length(operand_types, 1, "newshape")
        return [dynamic_type(rank, operand_element_type(operand_types, 0))]


@irdl_op_definition
class DynSqueezeOp(DynOp):
    """`relay.dyn.squeeze`: `relay.squeeze` with `axis` an int tensor; the result has
    `axis`'s length fewer dims than `data`."""

    name = "relay.dyn.squeeze"

    data = operand_def(TensorType)
    axis = operand_def(TensorType)
    result = result_def(TensorType)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        count = shape_operand_length(operand_types, 1, "axis")
        if count > len(data):
            raise RelayTypeError(f"cannot squeeze {count} axes of data of rank {len(data)}")
        return [dynamic_type(len(data) - count, operand_element_type(operand_types, 0))]


@irdl_op_definition
class DynTileOp(DynOp):
    """`relay.dyn.tile`: `relay.tile` with `reps` an int tensor; the result rank is the
    larger of `data`'s rank and `reps`' length."""

    name = "relay.dyn.tile"

    data = operand_def(TensorType)
    reps = operand_def(TensorType)
    result = result_def(TensorType)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        count = shape_operand_length(operand_types, 1, "reps")
        return [dynamic_type(max(len(data), count), operand_element_type(operand_types, 0))]


@irdl_op_definition
class DynBroadcastToOp(DynOp):
    """`relay.dyn.broadcast_to`: `relay.broadcast_to` with `shape` an int tensor."""

    name = "relay.dyn.broadcast_to"

    data = operand_def(TensorType)
    shape = operand_def(TensorType)
    result = result_def(TensorType)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        rank = shape_operand_length(operand_types, 1, "shape")
        if rank < len(data):
            raise RelayTypeError(f"cannot broadcast data of rank {len(data)} to rank {rank}")
        return [dynamic_type(rank, operand_element_type(operand_types, 0))]


class _DynFillOp(DynOp):
    """Base of `relay.dyn.zeros` / `relay.dyn.ones`: a shape operand and a `dtype`."""

    shape = operand_def(TensorType)
    result = result_def(TensorType)
    dtype = prop_def(TypeAttribute)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        rank = shape_operand_length(operand_types, 0, "shape")
        return [dynamic_type(rank, check_dtype(props["dtype"]))]


@irdl_op_definition
class DynZerosOp(_DynFillOp):
    """`relay.dyn.zeros`: zeros of a shape read at run time."""

    name = "relay.dyn.zeros"


@irdl_op_definition
class DynOnesOp(_DynFillOp):
    """`relay.dyn.ones`: ones of a shape read at run time."""

    name = "relay.dyn.ones"


@irdl_op_definition
class DynFullOp(DynOp):
    """`relay.dyn.full`: a scalar `fill_value` broadcast to a shape read at run time
    (`dtype` defaults to the fill value's)."""

    name = "relay.dyn.full"

    fill_value = operand_def(TensorType)
    shape = operand_def(TensorType)
    result = result_def(TensorType)
    dtype = opt_prop_def(TypeAttribute)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_scalar(operand_types, 0)
        rank = shape_operand_length(operand_types, 1, "shape")
        dtype = props.get("dtype") or operand_element_type(operand_types, 0)
        return [dynamic_type(rank, check_dtype(dtype))]


@irdl_op_definition
class DynPadOp(DynOp):
    """`relay.dyn.nn.pad`: `relay.nn.pad` with `pad_width` an int tensor of shape
    `[rank, 2]` (before, after per axis) and `pad_value` a scalar tensor."""

    name = "relay.dyn.nn.pad"

    data = operand_def(TensorType)
    pad_width = operand_def(TensorType)
    pad_value = operand_def(TensorType)
    result = result_def(TensorType)
    pad_mode = prop_def(StringAttr, StringAttr("constant"))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        widths = expect_tensor(operand_types, 1, "pad_width")
        element = operand_element_type(operand_types, 1)
        if not is_index_type(element):
            raise RelayTypeError(f"pad_width must be a tensor of integers, got {operand_types[1]}")
        if len(widths) != 2 or widths[1] not in (2, ANY) or widths[0] not in (len(data), ANY):
            raise RelayTypeError(
                f"pad_width must have shape [{len(data)}, 2] (one pair per axis), "
                f"got {operand_types[1]}"
            )
        shape = expect_tensor(operand_types, 2, "pad_value")
        if shape:
            raise RelayTypeError(f"pad_value must be a scalar, got {operand_types[2]}")
        mode = get_str(props, "pad_mode")
        if mode not in PAD_MODES:
            raise RelayTypeError(
                f"unknown pad_mode '{mode}'; expected one of {', '.join(PAD_MODES)}"
            )
        return [dynamic_type(len(data), operand_element_type(operand_types, 0))]


@irdl_op_definition
class DynTopKOp(DynOp):
    """`relay.dyn.topk`: `relay.topk` with `k` an integer tensor of shape `[]` or `[1]` read
    at run time (`k < 1` keeps the whole axis); the kept axis is `?` in the result."""

    name = "relay.dyn.topk"

    data = operand_def(TensorType)
    k = operand_def(TensorType)
    result = result_def(TensorType | TupleType)
    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    ret_type = prop_def(StringAttr, StringAttr("both"))
    is_ascend = prop_def(IntegerAttr, IntegerAttr(0, i1))
    dtype = prop_def(TypeAttribute, i32)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        k = expect_tensor(operand_types, 1, "k")
        if k not in ((), (1,)) or not is_index_type(operand_element_type(operand_types, 1)):
            raise RelayTypeError(
                f"k must be an integer scalar or a tensor of shape [1], got {operand_types[1]}"
            )
        whole = {**props, "k": IntegerAttr(0, i64)}  # the static op's types, axis kept whole
        (static,) = TopKOp.infer_result_types(operand_types[:1], whole)
        axis = sort_axis(shape, props)
        fields = tuple_elements(static) if is_tuple(static) else (static,)
        out = [
            tensor_type(
                [ANY if i == axis else d for i, d in enumerate(shape_of(f))],
                tensor_element_type(f),
            )
            for f in fields
        ]
        return [tuple_type(out) if is_tuple(static) else out[0]]


OPS = (
    DynReshapeOp,
    DynSqueezeOp,
    DynTileOp,
    DynBroadcastToOp,
    DynZerosOp,
    DynOnesOp,
    DynFullOp,
    DynPadOp,
    DynTopKOp,
)
