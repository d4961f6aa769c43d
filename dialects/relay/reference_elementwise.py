"""Reference semantics of the elementwise relay ops, in numpy."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.ir import Attribute
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import elementwise as e
from xrelay.dialects.relay import elementwise_math as m
from xrelay.dialects.relay.reference_scalar import (
    float_to_int,
    int_divide,
    int_floor_divide,
    int_floor_mod,
    int_mod,
    int_power,
    left_shift,
    right_shift,
)
from xrelay.dialects.relay.types import (
    BFLOAT16,
    is_float_dtype,
    numpy_dtype,
    tensor_element_type,
)


def _is_int(a: Any) -> bool:
    return np.issubdtype(np.asarray(a).dtype, np.integer)


def _divide(a: Any, b: Any) -> Any:
    # TVM's integer divide truncates towards zero (C semantics), not numpy's floor.
    return int_divide(a, b) if _is_int(a) else np.true_divide(a, b)


def _power(a: Any, b: Any) -> Any:
    return int_power(a, b) if _is_int(a) else np.power(a, b)


_BINARY: dict[type[e.BinaryElementwiseOp], Callable[[Any, Any], Any]] = {
    e.AddOp: np.add,
    e.SubtractOp: np.subtract,
    e.MultiplyOp: np.multiply,
    e.DivideOp: _divide,
    e.PowerOp: _power,
    e.MaximumOp: np.maximum,
    e.MinimumOp: np.minimum,
    e.EqualOp: np.equal,
    e.NotEqualOp: np.not_equal,
    e.LessOp: np.less,
    e.LessEqualOp: np.less_equal,
    e.GreaterOp: np.greater,
    e.GreaterEqualOp: np.greater_equal,
}


@reference(*_BINARY)
def _binary(ev: Evaluator, op: e.BinaryElementwiseOp, args: list[Value]) -> Value:
    with np.errstate(all="ignore"):
        return _BINARY[type(op)](args[0], args[1])


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _sigmoid(x: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-x))


_UNARY: dict[type[e.UnaryElementwiseOp], Callable[[Any], Any]] = {
    e.NegativeOp: np.negative,
    e.AbsOp: np.abs,
    e.ExpOp: np.exp,
    e.LogOp: np.log,
    e.SqrtOp: np.sqrt,
    e.RsqrtOp: lambda x: 1.0 / np.sqrt(x),
    e.TanhOp: np.tanh,
    e.SigmoidOp: _sigmoid,
    e.ErfOp: lambda x: _erf(x).astype(np.asarray(x).dtype),
    e.FloorOp: np.floor,
    e.CeilOp: np.ceil,
}


@reference(*_UNARY)
def _unary(ev: Evaluator, op: e.UnaryElementwiseOp, args: list[Value]) -> Value:
    with np.errstate(all="ignore"):
        return _UNARY[type(op)](args[0])


@reference(e.ClipOp)
def _clip(ev: Evaluator, op: e.ClipOp, args: list[Value]) -> Value:
    return np.clip(args[0], op.a_min.value.data, op.a_max.value.data)


@reference(e.CastOp)
def _cast(ev: Evaluator, op: e.CastOp, args: list[Value]) -> Value:
    return cast_array(np.asarray(args[0]), op.result.type)


def cast_array(x: np.ndarray[Any, Any], result_type: Attribute) -> np.ndarray[Any, Any]:
    """`x` converted to the element type of `result_type` as `relay.cast` converts."""
    dtype = numpy_dtype(tensor_element_type(result_type))
    if is_float_dtype(x.dtype) and np.issubdtype(dtype, np.integer):
        return float_to_int(x, dtype)
    with np.errstate(all="ignore"):
        if dtype == BFLOAT16 and (x.dtype.itemsize > 4 or not is_float_dtype(x.dtype)):
            x = x.astype(np.float32)  # to bf16 through float32, as C converts
        return x.astype(dtype)


# ---------------------------------------------------------------- elementwise_math


def _round(x: Any) -> Any:
    """Halfway cases away from zero (C's `round`, TVM's), the sign of zero kept."""
    whole = np.trunc(x)
    fraction = x - whole  # exact
    step = np.where(np.abs(fraction) >= 0.5, np.sign(x), 0).astype(whole.dtype)
    return np.copysign(whole + step, x)


def _float_floor_mod(a: Any, b: Any) -> Any:
    """`fmod` moved into the divisor's sign; a zero result takes the divisor's sign."""
    x: npt.NDArray[Any] = np.asarray(a)
    y: npt.NDArray[Any] = np.asarray(b)
    r: npt.NDArray[Any] = np.fmod(x, y)
    moved = np.where((r != 0) & ((r < 0) != (y < 0)), r + y, r)
    return np.where(r == 0, np.copysign(np.zeros_like(r), y), moved)


def _by_kind(
    integer: Callable[[Any, Any], Any], real: Callable[[Any, Any], Any]
) -> Callable[[Any, Any], Any]:
    def apply(a: Any, b: Any) -> Any:
        return integer(a, b) if _is_int(a) else real(a, b)

    return apply


_MATH_UNARY: dict[type[e.UnaryElementwiseOp], Callable[[Any], Any]] = {
    m.SinOp: np.sin,
    m.CosOp: np.cos,
    m.TanOp: np.tan,
    m.AsinOp: np.arcsin,
    m.AcosOp: np.arccos,
    m.AtanOp: np.arctan,
    m.SinhOp: np.sinh,
    m.CoshOp: np.cosh,
    m.AsinhOp: np.arcsinh,
    m.AcoshOp: np.arccosh,
    m.AtanhOp: np.arctanh,
    m.TruncOp: np.trunc,
    m.RoundOp: _round,
    m.SignOp: np.sign,
    m.IsNanOp: np.isnan,
    m.IsInfOp: np.isinf,
    m.IsFiniteOp: np.isfinite,
    m.LogicalNotOp: np.logical_not,
    m.BitwiseNotOp: np.invert,
}


@reference(*_MATH_UNARY)
def _math_unary(ev: Evaluator, op: e.UnaryElementwiseOp, args: list[Value]) -> Value:
    with np.errstate(all="ignore"):
        x = np.asarray(args[0])
        return np.asarray(_MATH_UNARY[type(op)](x)).astype(
            np.bool_ if isinstance(op, m.FloatPredicateOp) else x.dtype
        )


_MATH_BINARY: dict[type[e.BinaryElementwiseOp], Callable[[Any, Any], Any]] = {
    m.ModOp: _by_kind(int_mod, np.fmod),
    m.FloorModOp: _by_kind(int_floor_mod, _float_floor_mod),
    m.FloorDivideOp: _by_kind(int_floor_divide, lambda a, b: np.floor(np.true_divide(a, b))),
    m.TruncDivideOp: _by_kind(int_divide, lambda a, b: np.trunc(np.true_divide(a, b))),
    m.BitwiseAndOp: np.bitwise_and,
    m.BitwiseOrOp: np.bitwise_or,
    m.BitwiseXorOp: np.bitwise_xor,
    m.LogicalAndOp: np.logical_and,
    m.LogicalOrOp: np.logical_or,
    m.LogicalXorOp: np.logical_xor,
    m.LeftShiftOp: left_shift,
    m.RightShiftOp: right_shift,
}


@reference(*_MATH_BINARY)
def _math_binary(ev: Evaluator, op: e.BinaryElementwiseOp, args: list[Value]) -> Value:
    with np.errstate(all="ignore"):
        a, b = np.asarray(args[0]), np.asarray(args[1])
        return np.asarray(_MATH_BINARY[type(op)](a, b)).astype(a.dtype)


@reference(m.WhereOp)
def _where(ev: Evaluator, op: m.WhereOp, args: list[Value]) -> Value:
    x = np.asarray(args[1])
    return np.where(np.asarray(args[0]), x, np.asarray(args[2])).astype(x.dtype)
