"""More elementwise relay ops, as TVM Relay has them: trigonometry, rounding, sign, float
predicates, logical and bitwise ops, modulo and floored division, shifts, and `where`.

Each op says which element kinds it takes (float, integer, boolean); the rest of
the type rules (broadcasting, one dtype for both operands) are those of
`elementwise.py`. Semantics of the integer edge cases: docs/semantics.md.
See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    common_element_type,
    expect_float,
    expect_tensor,
    operand_element_type,
)
from xrelay.dialects.relay.elementwise import (
    BinaryElementwiseOp,
    FloatUnaryOp,
    UnaryElementwiseOp,
)
from xrelay.dialects.relay.types import (
    broadcast_shapes,
    format_shape,
    is_bool,
    is_float,
    tensor_type,
)

FLOAT, INT, BOOL = "float", "int", "bool"

_WORDS = {
    frozenset({FLOAT, INT}): "a numeric (not boolean)",
    frozenset({INT, BOOL}): "an integer or boolean",
    frozenset({INT}): "an integer",
    frozenset({BOOL}): "a boolean",
}


def element_kind(element: Attribute) -> str:
    """`float`, `bool` (i1) or `int` (every other integer type)."""
    return FLOAT if is_float(element) else BOOL if is_bool(element) else INT


def expect_kinds(types: Sequence[Attribute], index: int, kinds: frozenset[str]) -> None:
    """Operand `index` must be a tensor whose elements are of one of `kinds`."""
    element = operand_element_type(types, index)
    if element_kind(element) not in kinds:
        raise RelayTypeError(f"expected {_WORDS[kinds]} operand, got {element}")


NUMERIC = frozenset({FLOAT, INT})
INTEGRAL = frozenset({INT, BOOL})
INTEGER = frozenset({INT})
BOOLEAN = frozenset({BOOL})

# ---------------------------------------------------------------- unary float math


@irdl_op_definition
class SinOp(FloatUnaryOp):
    """`relay.sin`: sine."""

    name = "relay.sin"


@irdl_op_definition
class CosOp(FloatUnaryOp):
    """`relay.cos`: cosine."""

    name = "relay.cos"


@irdl_op_definition
class TanOp(FloatUnaryOp):
    """`relay.tan`: tangent."""

    name = "relay.tan"


@irdl_op_definition
class AsinOp(FloatUnaryOp):
    """`relay.asin`: arc sine (NaN outside [-1, 1])."""

    name = "relay.asin"


@irdl_op_definition
class AcosOp(FloatUnaryOp):
    """`relay.acos`: arc cosine (NaN outside [-1, 1])."""

    name = "relay.acos"


@irdl_op_definition
class AtanOp(FloatUnaryOp):
    """`relay.atan`: arc tangent."""

    name = "relay.atan"


@irdl_op_definition
class SinhOp(FloatUnaryOp):
    """`relay.sinh`: hyperbolic sine."""

    name = "relay.sinh"


@irdl_op_definition
class CoshOp(FloatUnaryOp):
    """`relay.cosh`: hyperbolic cosine."""

    name = "relay.cosh"


@irdl_op_definition
class AsinhOp(FloatUnaryOp):
    """`relay.asinh`: inverse hyperbolic sine."""

    name = "relay.asinh"


@irdl_op_definition
class AcoshOp(FloatUnaryOp):
    """`relay.acosh`: inverse hyperbolic cosine (NaN below 1)."""

    name = "relay.acosh"


@irdl_op_definition
class AtanhOp(FloatUnaryOp):
    """`relay.atanh`: inverse hyperbolic tangent (±inf at ±1, NaN beyond)."""

    name = "relay.atanh"


@irdl_op_definition
class TruncOp(FloatUnaryOp):
    """`relay.trunc`: round toward zero."""

    name = "relay.trunc"


@irdl_op_definition
class RoundOp(FloatUnaryOp):
    """`relay.round`: round to nearest, halfway cases away from zero (TVM's, C's `round`)."""

    name = "relay.round"


class KindUnaryOp(UnaryElementwiseOp):
    """Base of unary ops on some element kinds; the result has the operand's type."""

    KINDS: ClassVar[frozenset[str]] = NUMERIC

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0)
        expect_kinds(operand_types, 0, cls.KINDS)
        return [operand_types[0]]


@irdl_op_definition
class SignOp(KindUnaryOp):
    """`relay.sign`: -1, 0 or 1 by the sign of `x` (floats: NaN stays NaN, ±0 gives +0)."""

    name = "relay.sign"


@irdl_op_definition
class LogicalNotOp(KindUnaryOp):
    """`relay.logical_not`: boolean not."""

    name = "relay.logical_not"

    KINDS: ClassVar[frozenset[str]] = BOOLEAN


@irdl_op_definition
class BitwiseNotOp(KindUnaryOp):
    """`relay.bitwise_not`: `~x` (on booleans: not)."""

    name = "relay.bitwise_not"

    KINDS: ClassVar[frozenset[str]] = INTEGRAL


class FloatPredicateOp(UnaryElementwiseOp):
    """Base of tests of float elements: the result is `i1` of the operand's shape."""

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0)
        expect_float(operand_types, 0)
        return [tensor_type(shape, i1)]


@irdl_op_definition
class IsNanOp(FloatPredicateOp):
    """`relay.isnan`: whether an element is NaN."""

    name = "relay.isnan"


@irdl_op_definition
class IsInfOp(FloatPredicateOp):
    """`relay.isinf`: whether an element is +inf or -inf."""

    name = "relay.isinf"


@irdl_op_definition
class IsFiniteOp(FloatPredicateOp):
    """`relay.isfinite`: whether an element is neither NaN nor infinite."""

    name = "relay.isfinite"


# ---------------------------------------------------------------- binary


class KindBinaryOp(BinaryElementwiseOp):
    """Base of broadcasting binary ops on some element kinds."""

    KINDS: ClassVar[frozenset[str]] = NUMERIC

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        result = super().infer_result_types(operand_types, props)
        expect_kinds(operand_types, 0, cls.KINDS)
        return result


@irdl_op_definition
class ModOp(KindBinaryOp):
    """`relay.mod`: truncated remainder, the sign of the dividend (floats: C's `fmod`)."""

    name = "relay.mod"


@irdl_op_definition
class FloorModOp(KindBinaryOp):
    """`relay.floor_mod`: floored remainder, the sign of the divisor."""

    name = "relay.floor_mod"


@irdl_op_definition
class FloorDivideOp(KindBinaryOp):
    """`relay.floor_divide`: quotient rounded toward minus infinity."""

    name = "relay.floor_divide"


@irdl_op_definition
class TruncDivideOp(KindBinaryOp):
    """`relay.trunc_divide`: quotient rounded toward zero."""

    name = "relay.trunc_divide"


@irdl_op_definition
class BitwiseAndOp(KindBinaryOp):
    """`relay.bitwise_and`: `a & b`."""

    name = "relay.bitwise_and"

    KINDS: ClassVar[frozenset[str]] = INTEGRAL


@irdl_op_definition
class BitwiseOrOp(KindBinaryOp):
    """`relay.bitwise_or`: `a | b`."""

    name = "relay.bitwise_or"

    KINDS: ClassVar[frozenset[str]] = INTEGRAL


@irdl_op_definition
class BitwiseXorOp(KindBinaryOp):
    """`relay.bitwise_xor`: `a ^ b`."""

    name = "relay.bitwise_xor"

    KINDS: ClassVar[frozenset[str]] = INTEGRAL


@irdl_op_definition
class LogicalAndOp(KindBinaryOp):
    """`relay.logical_and`: boolean and."""

    name = "relay.logical_and"

    KINDS: ClassVar[frozenset[str]] = BOOLEAN


@irdl_op_definition
class LogicalOrOp(KindBinaryOp):
    """`relay.logical_or`: boolean or."""

    name = "relay.logical_or"

    KINDS: ClassVar[frozenset[str]] = BOOLEAN


@irdl_op_definition
class LogicalXorOp(KindBinaryOp):
    """`relay.logical_xor`: boolean exclusive or."""

    name = "relay.logical_xor"

    KINDS: ClassVar[frozenset[str]] = BOOLEAN


@irdl_op_definition
class LeftShiftOp(KindBinaryOp):
    """`relay.left_shift`: `a << b`, wrapping; 0 when `b` is negative or at least the width."""

    name = "relay.left_shift"

    KINDS: ClassVar[frozenset[str]] = INTEGER


@irdl_op_definition
class RightShiftOp(KindBinaryOp):
    """`relay.right_shift`: `a >> b` (arithmetic for signed types); a `b` that is negative or
    at least the width shifts every bit out (signed: the sign fills)."""

    name = "relay.right_shift"

    KINDS: ClassVar[frozenset[str]] = INTEGER


# ---------------------------------------------------------------- where


@irdl_op_definition
class WhereOp(RelayOp):
    """`relay.where`: `x` where `condition` (i1) holds, else `y`, the three broadcast."""

    name = "relay.where"

    condition = operand_def(TensorType)
    x = operand_def(TensorType)
    y = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shapes = [expect_tensor(operand_types, k) for k in range(3)]
        condition = operand_element_type(operand_types, 0)
        if not is_bool(condition):
            raise RelayTypeError(f"expected an i1 condition, got {condition}")
        element = common_element_type(operand_types, 1, 2)
        shape: tuple[int, ...] | None = shapes[0]
        for other in shapes[1:]:
            shape = None if shape is None else broadcast_shapes(shape, other)
        if shape is None:
            listed = ", ".join(format_shape(s) for s in shapes)
            raise RelayTypeError(f"operand shapes {listed} do not broadcast")
        return [tensor_type(shape, element)]


UNARY_OPS = (
    SinOp,
    CosOp,
    TanOp,
    AsinOp,
    AcosOp,
    AtanOp,
    SinhOp,
    CoshOp,
    AsinhOp,
    AcoshOp,
    AtanhOp,
    TruncOp,
    RoundOp,
    SignOp,
    IsNanOp,
    IsInfOp,
    IsFiniteOp,
    LogicalNotOp,
    BitwiseNotOp,
)

BINARY_OPS = (
    ModOp,
    FloorModOp,
    FloorDivideOp,
    TruncDivideOp,
    BitwiseAndOp,
    BitwiseOrOp,
    BitwiseXorOp,
    LogicalAndOp,
    LogicalOrOp,
    LogicalXorOp,
    LeftShiftOp,
    RightShiftOp,
)

OPS = (*UNARY_OPS, *BINARY_OPS, WhereOp)
