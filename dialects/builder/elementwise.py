"""Builder functions for the elementwise relay ops (`relay.add`, `relay.exp`, ...)."""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import elementwise as e


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
