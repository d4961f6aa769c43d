"""Builder functions for the elementwise relay ops (`relay.add`, `relay.exp`, ...)."""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import elementwise as e
from xrelay.dialects.relay import elementwise_math as m


def add(lhs: Expr, rhs: Expr) -> Call:
    """`relay.add(lhs, rhs)`."""
    return Call(e.AddOp, [lhs, rhs])


def subtract(lhs: Expr, rhs: Expr) -> Call:
    """`relay.subtract(lhs, rhs)`."""
    return Call(e.SubtractOp, [lhs, rhs])


def multiply(lhs: Expr, rhs: Expr) -> Call:
    """`relay.multiply(lhs, rhs)`."""
    return Call(e.MultiplyOp, [lhs, rhs])


def divide(lhs: Expr, rhs: Expr) -> Call:
    """`relay.divide(lhs, rhs)`."""
    return Call(e.DivideOp, [lhs, rhs])


def power(lhs: Expr, rhs: Expr) -> Call:
    """`relay.power(lhs, rhs)`."""
    return Call(e.PowerOp, [lhs, rhs])


def maximum(lhs: Expr, rhs: Expr) -> Call:
    """`relay.maximum(lhs, rhs)`."""
    return Call(e.MaximumOp, [lhs, rhs])


def minimum(lhs: Expr, rhs: Expr) -> Call:
    """`relay.minimum(lhs, rhs)`."""
    return Call(e.MinimumOp, [lhs, rhs])


def equal(lhs: Expr, rhs: Expr) -> Call:
    """`relay.equal(lhs, rhs)`."""
    return Call(e.EqualOp, [lhs, rhs])


def not_equal(lhs: Expr, rhs: Expr) -> Call:
    """`relay.not_equal(lhs, rhs)`."""
    return Call(e.NotEqualOp, [lhs, rhs])


def less(lhs: Expr, rhs: Expr) -> Call:
    """`relay.less(lhs, rhs)`."""
    return Call(e.LessOp, [lhs, rhs])


def less_equal(lhs: Expr, rhs: Expr) -> Call:
    """`relay.less_equal(lhs, rhs)`."""
    return Call(e.LessEqualOp, [lhs, rhs])


def greater(lhs: Expr, rhs: Expr) -> Call:
    """`relay.greater(lhs, rhs)`."""
    return Call(e.GreaterOp, [lhs, rhs])


def greater_equal(lhs: Expr, rhs: Expr) -> Call:
    """`relay.greater_equal(lhs, rhs)`."""
    return Call(e.GreaterEqualOp, [lhs, rhs])


def negative(data: Expr) -> Call:
    """`relay.negative(data)`."""
    return Call(e.NegativeOp, [data])


def abs(data: Expr) -> Call:
    """`relay.abs(data)`."""
    return Call(e.AbsOp, [data])


def exp(data: Expr) -> Call:
    """`relay.exp(data)`."""
    return Call(e.ExpOp, [data])


def log(data: Expr) -> Call:
    """`relay.log(data)`."""
    return Call(e.LogOp, [data])


def sqrt(data: Expr) -> Call:
    """`relay.sqrt(data)`."""
    return Call(e.SqrtOp, [data])


def rsqrt(data: Expr) -> Call:
    """`relay.rsqrt(data)`."""
    return Call(e.RsqrtOp, [data])


def tanh(data: Expr) -> Call:
    """`relay.tanh(data)`."""
    return Call(e.TanhOp, [data])


def sigmoid(data: Expr) -> Call:
    """`relay.sigmoid(data)`."""
    return Call(e.SigmoidOp, [data])


def erf(data: Expr) -> Call:
    """`relay.erf(data)`."""
    return Call(e.ErfOp, [data])


def floor(data: Expr) -> Call:
    """`relay.floor(data)`."""
    return Call(e.FloorOp, [data])


def ceil(data: Expr) -> Call:
    """`relay.ceil(data)`."""
    return Call(e.CeilOp, [data])


def clip(a: Expr, a_min: float, a_max: float) -> Call:
    """`relay.clip(a, a_min, a_max)`."""
    return Call(e.ClipOp, [a], {"a_min": attrs.float_(a_min), "a_max": attrs.float_(a_max)})


def cast(data: Expr, dtype: str) -> Call:
    """`relay.cast(data, dtype)`."""
    return Call(e.CastOp, [data], {"dtype": attrs.dtype(dtype)})


def sin(data: Expr) -> Call:
    """`relay.sin(data)`."""
    return Call(m.SinOp, [data])


def cos(data: Expr) -> Call:
    """`relay.cos(data)`."""
    return Call(m.CosOp, [data])


def tan(data: Expr) -> Call:
    """`relay.tan(data)`."""
    return Call(m.TanOp, [data])


def asin(data: Expr) -> Call:
    """`relay.asin(data)`."""
    return Call(m.AsinOp, [data])


def acos(data: Expr) -> Call:
    """`relay.acos(data)`."""
    return Call(m.AcosOp, [data])


def atan(data: Expr) -> Call:
    """`relay.atan(data)`."""
    return Call(m.AtanOp, [data])


def sinh(data: Expr) -> Call:
    """`relay.sinh(data)`."""
    return Call(m.SinhOp, [data])


def cosh(data: Expr) -> Call:
    """`relay.cosh(data)`."""
    return Call(m.CoshOp, [data])


def asinh(data: Expr) -> Call:
    """`relay.asinh(data)`."""
    return Call(m.AsinhOp, [data])


def acosh(data: Expr) -> Call:
    """`relay.acosh(data)`."""
    return Call(m.AcoshOp, [data])


def atanh(data: Expr) -> Call:
    """`relay.atanh(data)`."""
    return Call(m.AtanhOp, [data])


def trunc(data: Expr) -> Call:
    """`relay.trunc(data)`."""
    return Call(m.TruncOp, [data])


def round(data: Expr) -> Call:
    """`relay.round(data)`."""
    return Call(m.RoundOp, [data])


def sign(data: Expr) -> Call:
    """`relay.sign(data)`."""
    return Call(m.SignOp, [data])


def isnan(data: Expr) -> Call:
    """`relay.isnan(data)`."""
    return Call(m.IsNanOp, [data])


def isinf(data: Expr) -> Call:
    """`relay.isinf(data)`."""
    return Call(m.IsInfOp, [data])


def isfinite(data: Expr) -> Call:
    """`relay.isfinite(data)`."""
    return Call(m.IsFiniteOp, [data])


def logical_not(data: Expr) -> Call:
    """`relay.logical_not(data)`."""
    return Call(m.LogicalNotOp, [data])


def bitwise_not(data: Expr) -> Call:
    """`relay.bitwise_not(data)`."""
    return Call(m.BitwiseNotOp, [data])


def mod(lhs: Expr, rhs: Expr) -> Call:
    """`relay.mod(lhs, rhs)`."""
    return Call(m.ModOp, [lhs, rhs])


def floor_mod(lhs: Expr, rhs: Expr) -> Call:
    """`relay.floor_mod(lhs, rhs)`."""
    return Call(m.FloorModOp, [lhs, rhs])


def floor_divide(lhs: Expr, rhs: Expr) -> Call:
    """`relay.floor_divide(lhs, rhs)`."""
    return Call(m.FloorDivideOp, [lhs, rhs])


def trunc_divide(lhs: Expr, rhs: Expr) -> Call:
    """`relay.trunc_divide(lhs, rhs)`."""
    return Call(m.TruncDivideOp, [lhs, rhs])


def bitwise_and(lhs: Expr, rhs: Expr) -> Call:
    """`relay.bitwise_and(lhs, rhs)`."""
    return Call(m.BitwiseAndOp, [lhs, rhs])


def bitwise_or(lhs: Expr, rhs: Expr) -> Call:
    """`relay.bitwise_or(lhs, rhs)`."""
    return Call(m.BitwiseOrOp, [lhs, rhs])


def bitwise_xor(lhs: Expr, rhs: Expr) -> Call:
    """`relay.bitwise_xor(lhs, rhs)`."""
    return Call(m.BitwiseXorOp, [lhs, rhs])


def logical_and(lhs: Expr, rhs: Expr) -> Call:
    """`relay.logical_and(lhs, rhs)`."""
    return Call(m.LogicalAndOp, [lhs, rhs])


def logical_or(lhs: Expr, rhs: Expr) -> Call:
    """`relay.logical_or(lhs, rhs)`."""
    return Call(m.LogicalOrOp, [lhs, rhs])


def logical_xor(lhs: Expr, rhs: Expr) -> Call:
    """`relay.logical_xor(lhs, rhs)`."""
    return Call(m.LogicalXorOp, [lhs, rhs])


def left_shift(lhs: Expr, rhs: Expr) -> Call:
    """`relay.left_shift(lhs, rhs)`."""
    return Call(m.LeftShiftOp, [lhs, rhs])


def right_shift(lhs: Expr, rhs: Expr) -> Call:
    """`relay.right_shift(lhs, rhs)`."""
    return Call(m.RightShiftOp, [lhs, rhs])


def where(condition: Expr, x: Expr, y: Expr) -> Call:
    """`relay.where(condition, x, y)`."""
    return Call(m.WhereOp, [condition, x, y])
