"""Creation relay ops: `zeros`, `ones`, `full` and their `_like` forms.

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, TensorType
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
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    check_dtype,
    expect_tensor,
    get_ints,
    operand_element_type,
)
from xrelay.dialects.relay.tensor import TensorOpBase
from xrelay.dialects.relay.types import Shape, format_shape, tensor_type

# --------------------------------------------------------------------------- #
# zeros, ones, full and their _like forms
# --------------------------------------------------------------------------- #


def static_shape(props: Props) -> Shape:
    """The `shape` property of a creation op: non-negative static dims."""
    shape = get_ints(props, "shape")
    if any(d < 0 for d in shape):
        raise RelayTypeError(f"shape must be non-negative, got {list(shape)}")
    return shape


class _FillOp(RelayOp):
    """Base of `relay.zeros` / `relay.ones`: no operands, a `shape` and a `dtype`."""

    result = result_def(TensorType)
    shape = prop_def(DenseArrayBase)
    dtype = prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        return [tensor_type(static_shape(props), check_dtype(props["dtype"]))]


@irdl_op_definition
class ZerosOp(_FillOp):
    """`relay.zeros`: a tensor of zeros of static `shape` and `dtype`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.zeros
    """

    name = "relay.zeros"


@irdl_op_definition
class OnesOp(_FillOp):
    """`relay.ones`: a tensor of ones of static `shape` and `dtype`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.ones
    """

    name = "relay.ones"


def expect_scalar(operand_types: Sequence[Attribute], index: int) -> None:
    """Operand `index` must be a rank-0 tensor (a fill value)."""
    shape = expect_tensor(operand_types, index, "fill_value")
    if shape:
        raise RelayTypeError(f"fill_value must be a scalar, got shape {format_shape(shape)}")


@irdl_op_definition
class FullOp(RelayOp):
    """`relay.full`: a tensor of `shape` filled with a scalar (dtype defaults to its type).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.full
    """

    name = "relay.full"

    fill_value = operand_def(TensorType)
    result = result_def(TensorType)
    shape = prop_def(DenseArrayBase)
    dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_scalar(operand_types, 0)
        dtype = props.get("dtype") or operand_element_type(operand_types, 0)
        return [tensor_type(static_shape(props), check_dtype(dtype))]


@irdl_op_definition
class FullLikeOp(RelayOp):
    """`relay.full_like`: a tensor of `data`'s type filled with a scalar `fill_value`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.full_like
    """

    name = "relay.full_like"

    data = operand_def(TensorType)
    fill_value = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0, "data")
        expect_scalar(operand_types, 1)
        return [operand_types[0]]


class _LikeOp(TensorOpBase):
    """Base of `relay.zeros_like` / `relay.ones_like`: the result has `data`'s type."""

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0, "data")
        return [operand_types[0]]


@irdl_op_definition
class ZerosLikeOp(_LikeOp):
    """`relay.zeros_like`: zeros of `data`'s shape and dtype.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.zeros_like
    """

    name = "relay.zeros_like"


@irdl_op_definition
class OnesLikeOp(_LikeOp):
    """`relay.ones_like`: ones of `data`'s shape and dtype.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.ones_like
    """

    name = "relay.ones_like"


OPS = (ZerosOp, OnesOp, FullOp, FullLikeOp, ZerosLikeOp, OnesLikeOp)
