"""Reference semantics of the elementwise relay ops, in numpy."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import elementwise as e
from xrelay.dialects.relay.reference_scalar import float_to_int, int_divide, int_power
from xrelay.dialects.relay.types import numpy_dtype


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
    x, dtype = np.asarray(args[0]), numpy_dtype(op.dtype)
    if np.issubdtype(x.dtype, np.floating) and np.issubdtype(dtype, np.integer):
        return float_to_int(x, dtype)
    with np.errstate(all="ignore"):
        return x.astype(dtype)
