"""Reference semantics of the elementwise relay ops, in numpy."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import elementwise as e
from xrelay.dialects.relay.types import numpy_dtype


def _divide(a: Any, b: Any) -> Any:
    if np.issubdtype(np.asarray(a).dtype, np.integer):
        # TVM's integer divide truncates towards zero (C semantics), not numpy's floor.
        return np.trunc(np.true_divide(a, b)).astype(np.asarray(a).dtype)
    return np.true_divide(a, b)


_BINARY: dict[type[e.BinaryElementwiseOp], Callable[[Any, Any], Any]] = {
    e.AddOp: np.add,
    e.SubtractOp: np.subtract,
    e.MultiplyOp: np.multiply,
    e.DivideOp: _divide,
    e.PowerOp: np.power,
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
    return np.asarray(args[0]).astype(numpy_dtype(op.dtype))
