"""Elementwise relay ops: broadcasting binary ops, comparisons, unary math, clip and cast.

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import FloatAttr, TensorType, i1
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    check_dtype,
    common_element_type,
    expect_float,
    expect_not_bool,
    expect_tensor,
    get_float,
)
from xrelay.dialects.relay.types import broadcast_shapes, format_shape, tensor_type


class BinaryElementwiseOp(RelayOp):
    """Base of binary ops with numpy broadcasting; both operands share one dtype."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    BOOL_RESULT: ClassVar[bool] = False
    NUMERIC_ONLY: ClassVar[bool] = False
    """Refuses booleans: arithmetic with no boolean form (`add` is `or`, `multiply` `and`)."""

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        lhs = expect_tensor(operand_types, 0)
        rhs = expect_tensor(operand_types, 1)
        lhs_et = common_element_type(operand_types, 0, 1)
        if cls.NUMERIC_ONLY:
            expect_not_bool(operand_types, 0)
        shape = broadcast_shapes(lhs, rhs)
        if shape is None:
            raise RelayTypeError(
                f"operand shapes {format_shape(lhs)} and {format_shape(rhs)} do not broadcast"
            )
        return [tensor_type(shape, i1 if cls.BOOL_RESULT else lhs_et)]


class ComparisonOp(BinaryElementwiseOp):
    """Base of comparisons: broadcasting, result is `i1`."""

    BOOL_RESULT: ClassVar[bool] = True


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    """`relay.add`: elementwise sum with broadcasting."""

    name = "relay.add"


@irdl_op_definition
class SubtractOp(BinaryElementwiseOp):
    """`relay.subtract`: elementwise difference with broadcasting."""

    name = "relay.subtract"
    NUMERIC_ONLY: ClassVar[bool] = True


@irdl_op_definition
class MultiplyOp(BinaryElementwiseOp):
    """`relay.multiply`: elementwise product with broadcasting."""

    name = "relay.multiply"


@irdl_op_definition
class DivideOp(BinaryElementwiseOp):
    """`relay.divide`: elementwise quotient (truncating for integers, as TVM)."""

    name = "relay.divide"
    NUMERIC_ONLY: ClassVar[bool] = True


@irdl_op_definition
class PowerOp(BinaryElementwiseOp):
    """`relay.power`: elementwise power with broadcasting."""

    name = "relay.power"
    NUMERIC_ONLY: ClassVar[bool] = True


@irdl_op_definition
class MaximumOp(BinaryElementwiseOp):
    """`relay.maximum`: elementwise maximum with broadcasting."""

    name = "relay.maximum"


@irdl_op_definition
class MinimumOp(BinaryElementwiseOp):
    """`relay.minimum`: elementwise minimum with broadcasting."""

    name = "relay.minimum"


@irdl_op_definition
class EqualOp(ComparisonOp):
    """`relay.equal`: elementwise `==`, result `i1`."""

    name = "relay.equal"


@irdl_op_definition
class NotEqualOp(ComparisonOp):
    """`relay.not_equal`: elementwise `!=`, result `i1`."""

    name = "relay.not_equal"


@irdl_op_definition
class LessOp(ComparisonOp):
    """`relay.less`: elementwise `<`, result `i1`."""

    name = "relay.less"


@irdl_op_definition
class LessEqualOp(ComparisonOp):
    """`relay.less_equal`: elementwise `<=`, result `i1`."""

    name = "relay.less_equal"


@irdl_op_definition
class GreaterOp(ComparisonOp):
    """`relay.greater`: elementwise `>`, result `i1`."""

    name = "relay.greater"


@irdl_op_definition
class GreaterEqualOp(ComparisonOp):
    """`relay.greater_equal`: elementwise `>=`, result `i1`."""

    name = "relay.greater_equal"


class UnaryElementwiseOp(RelayOp):
    """Base of unary elementwise ops: the result has the operand's type."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    FLOAT_ONLY: ClassVar[bool] = False
    NUMERIC_ONLY: ClassVar[bool] = False
    """Refuses booleans (`negative`)."""

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0)
        if cls.FLOAT_ONLY:
            expect_float(operand_types, 0)
        if cls.NUMERIC_ONLY:
            expect_not_bool(operand_types, 0)
        return [operand_types[0]]


class FloatUnaryOp(UnaryElementwiseOp):
    """Base of unary math defined on floats only."""

    FLOAT_ONLY: ClassVar[bool] = True


@irdl_op_definition
class NegativeOp(UnaryElementwiseOp):
    """`relay.negative`: `-x`."""

    name = "relay.negative"
    NUMERIC_ONLY: ClassVar[bool] = True


@irdl_op_definition
class AbsOp(UnaryElementwiseOp):
    """`relay.abs`: `|x|`."""

    name = "relay.abs"


@irdl_op_definition
class ExpOp(FloatUnaryOp):
    """`relay.exp`: `e^x`."""

    name = "relay.exp"


@irdl_op_definition
class LogOp(FloatUnaryOp):
    """`relay.log`: natural logarithm."""

    name = "relay.log"


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    """`relay.sqrt`: square root."""

    name = "relay.sqrt"


@irdl_op_definition
class RsqrtOp(FloatUnaryOp):
    """`relay.rsqrt`: `1 / sqrt(x)`."""

    name = "relay.rsqrt"


@irdl_op_definition
class TanhOp(FloatUnaryOp):
    """`relay.tanh`: hyperbolic tangent."""

    name = "relay.tanh"


@irdl_op_definition
class SigmoidOp(FloatUnaryOp):
    """`relay.sigmoid`: `1 / (1 + e^-x)`."""

    name = "relay.sigmoid"


@irdl_op_definition
class ErfOp(FloatUnaryOp):
    """`relay.erf`: the Gauss error function."""

    name = "relay.erf"


@irdl_op_definition
class FloorOp(FloatUnaryOp):
    """`relay.floor`: round towards minus infinity."""

    name = "relay.floor"


@irdl_op_definition
class CeilOp(FloatUnaryOp):
    """`relay.ceil`: round towards plus infinity."""

    name = "relay.ceil"


@irdl_op_definition
class ClipOp(UnaryElementwiseOp):
    """`relay.clip`: clamp into `[a_min, a_max]`."""

    name = "relay.clip"

    a_min = prop_def(FloatAttr)
    a_max = prop_def(FloatAttr)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        lo, hi = get_float(props, "a_min"), get_float(props, "a_max")
        if lo > hi:
            raise RelayTypeError(f"a_min ({lo}) must not exceed a_max ({hi})")
        return super().infer_result_types(operand_types, props)


@irdl_op_definition
class CastOp(RelayOp):
    """`relay.cast`: convert elements to `dtype`."""

    name = "relay.cast"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    dtype = prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0)
        return [tensor_type(shape, check_dtype(props["dtype"]))]


BINARY_OPS = (
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivideOp,
    PowerOp,
    MaximumOp,
    MinimumOp,
    EqualOp,
    NotEqualOp,
    LessOp,
    LessEqualOp,
    GreaterOp,
    GreaterEqualOp,
)

UNARY_OPS = (
    NegativeOp,
    AbsOp,
    ExpOp,
    LogOp,
    SqrtOp,
    RsqrtOp,
    TanhOp,
    SigmoidOp,
    ErfOp,
    FloorOp,
    CeilOp,
    ClipOp,
    CastOp,
)

OPS = (*BINARY_OPS, *UNARY_OPS)
