"""Converters for ONNX's elementwise math, comparisons, logic and activations."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import nn_extra as NN_EXTRA
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.builder.tensor import expand_dims
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_registry import Node, Result, converter, dtype_of_value, fold

Binary = Callable[[Expr, Expr], Expr]
Unary = Callable[[Expr], Expr]


def scalar(value: float, like: Expr) -> Expr:
    """A scalar constant of `like`'s dtype."""
    return const(np.asarray(value), _dtype(like))


def _dtype(expr: Expr) -> str:
    return dtype_of_value(expr)


def _legacy_broadcast(node: Node) -> tuple[Expr, Expr]:
    """Opset < 7: `broadcast=1` aligns B at `axis` of A (default: trailing dims)."""
    a, b = node.expr(0), node.expr(1)
    if node.int_attr("broadcast", 0) == 0 or not node.attrs.get("axis"):
        return a, b
    rank_a, rank_b = node.rank(0), node.rank(1)
    axis = node.int_attr("axis", 0) % max(rank_a, 1)
    trailing = rank_a - axis - rank_b
    node.refuse(trailing < 0, f"B of rank {rank_b} does not fit A of rank {rank_a} at {axis}")
    return a, (expand_dims(b, rank_b, trailing) if trailing else b)


def _binary(op_types: tuple[str, ...], fn: Binary) -> None:
    def legacy(node: Node) -> Result:
        return fn(*_legacy_broadcast(node))

    def modern(node: Node) -> Result:
        return fn(node.expr(0), node.expr(1))

    for op_type in op_types:
        converter(op_type, 1)(legacy)
        converter(op_type, 7)(modern)


_binary(("Add",), E.add)
_binary(("Sub",), E.subtract)
_binary(("Mul",), E.multiply)
_binary(("Div",), E.divide)


def _comparison(op_type: str, version: int, fn: Binary) -> None:
    def convert(node: Node) -> Result:
        return fn(node.expr(0), node.expr(1))

    converter(op_type, version)(convert)


_comparison("Equal", 1, E.equal)
_comparison("Less", 1, E.less)
_comparison("Greater", 1, E.greater)
_comparison("LessOrEqual", 12, E.less_equal)
_comparison("GreaterOrEqual", 12, E.greater_equal)
_comparison("And", 1, E.logical_and)
_comparison("Or", 1, E.logical_or)
_comparison("Xor", 1, E.logical_xor)
_comparison("BitwiseAnd", 18, E.bitwise_and)
_comparison("BitwiseOr", 18, E.bitwise_or)
_comparison("BitwiseXor", 18, E.bitwise_xor)


@converter("Pow", 1)
def pow_v1(node: Node) -> Result:
    """Pow: the exponent is cast to the base's dtype (ONNX allows mixed types from v12)."""
    base, exponent = node.expr(0), node.expr(1)
    if node.dtype(1) != node.dtype(0):
        exponent = E.cast(exponent, node.dtype(0))
    return E.power(base, exponent)


@converter("Mod", 10)
def mod_v10(node: Node) -> Result:
    """Mod: `fmod=1` truncates (C's fmod), `fmod=0` takes the divisor's sign (Python's %)."""
    a, b = node.expr(0), node.expr(1)
    if node.int_attr("fmod", 0):
        return E.mod(a, b)
    return E.floor_mod(a, b)


@converter("BitShift", 11)
def bitshift_v11(node: Node) -> Result:
    """BitShift: `direction` LEFT or RIGHT."""
    direction = node.str_attr("direction", "")
    node.refuse(direction not in ("LEFT", "RIGHT"), f"direction '{direction}' is not LEFT/RIGHT")
    fn = E.left_shift if direction == "LEFT" else E.right_shift
    return fn(node.expr(0), node.expr(1))


def _unary(op_type: str, version: int, fn: Unary) -> None:
    def convert(node: Node) -> Result:
        return fn(node.expr(0))

    converter(op_type, version)(convert)


for _name, _fn in {
    "Sqrt": E.sqrt,
    "Exp": E.exp,
    "Log": E.log,
    "Neg": E.negative,
    "Abs": E.abs,
    "Floor": E.floor,
    "Ceil": E.ceil,
    "Relu": NN.relu,
    "Sigmoid": E.sigmoid,
    "Tanh": E.tanh,
    "Not": E.logical_not,
}.items():
    _unary(_name, 1, _fn)
for _name, _fn in {
    "Sin": E.sin,
    "Cos": E.cos,
    "Tan": E.tan,
    "Asin": E.asin,
    "Acos": E.acos,
    "Atan": E.atan,
}.items():
    _unary(_name, 7, _fn)
for _name, _fn in {
    "Sinh": E.sinh,
    "Cosh": E.cosh,
    "Asinh": E.asinh,
    "Acosh": E.acosh,
    "Atanh": E.atanh,
    "Erf": E.erf,
    "Sign": E.sign,
}.items():
    _unary(_name, 9, _fn)
_unary("BitwiseNot", 18, E.bitwise_not)


@converter("IsNaN", 9)
def isnan_v9(node: Node) -> Result:
    """IsNaN."""
    return E.isnan(node.expr(0))


@converter("IsInf", 10)
def isinf_v10(node: Node) -> Result:
    """IsInf with `detect_positive` / `detect_negative`."""
    x = node.expr(0)
    pos, neg = node.int_attr("detect_positive", 1), node.int_attr("detect_negative", 1)
    inf = E.isinf(x)
    if pos and neg:
        return inf
    if not pos and not neg:
        return E.logical_and(inf, E.logical_not(inf))
    zero = scalar(0, x)
    sign = E.greater(x, zero) if pos else E.less(x, zero)
    return E.logical_and(inf, sign)


@converter("Reciprocal", 1)
def reciprocal_v1(node: Node) -> Result:
    """Reciprocal = 1 / x."""
    x = node.expr(0)
    return E.divide(scalar(1, x), x)


@converter("Round", 11)
def round_v11(node: Node) -> Result:
    """Round half to even, from relay's round (half away from zero) on the ties."""
    x = node.expr(0)
    tie = E.equal(E.abs(E.subtract(x, E.trunc(x))), scalar(0.5, x))
    even = E.multiply(E.round(E.multiply(x, scalar(0.5, x))), scalar(2, x))
    return E.where(tie, even, E.round(x))


@converter("LeakyRelu", 1)
def leaky_relu_v1(node: Node) -> Result:
    """LeakyRelu(alpha=0.01)."""
    return NN.leaky_relu(node.expr(0), node.float_attr("alpha", 0.01))


@converter("PRelu", 1)
def prelu_v1(node: Node) -> Result:
    """PRelu: nn.prelu where the slope is one value per index of one axis, else
    where(x < 0, x * slope, x). Before opset 7 a 1-D slope is per channel (axis 1); from
    opset 7 it broadcasts to x as numpy's (unidirectionally)."""
    x, slope = node.expr(0), node.expr(1)
    x_shape, slope_shape = node.shape(0), node.shape(1)
    rank = len(x_shape)
    axis: int | None = None
    if node.opset < 7 and rank >= 2 and len(slope_shape) == 1 and slope_shape[0] == x_shape[1]:
        axis = 1
    elif 0 < len(slope_shape) <= rank:
        aligned = (1,) * (rank - len(slope_shape)) + slope_shape
        wide = [i for i, d in enumerate(aligned) if d != 1]
        if len(wide) == 1 and aligned[wide[0]] == x_shape[wide[0]] != ANY:
            axis = wide[0]
    if axis is not None:
        if node.dtype(0) in ("float16", "bfloat16", "float32", "float64"):
            return NN_EXTRA.prelu(x, T.reshape(slope, [x_shape[axis]]), axis)
        slope = T.reshape(slope, [x_shape[axis], *[1] * (rank - 1 - axis)])
    elif node.opset < 7 and len(slope_shape) == 1 and slope_shape[0] != 1:
        raise node.error(f"a slope of shape {list(slope_shape)} for input {list(x_shape)}")
    return E.where(E.less(x, scalar(0, x)), E.multiply(x, slope), x)


@converter("ThresholdedRelu", 10)
def thresholded_relu_v10(node: Node) -> Result:
    """ThresholdedRelu: x where x > alpha, else 0."""
    x = node.expr(0)
    alpha = scalar(node.float_attr("alpha", 1.0), x)
    return E.where(E.greater(x, alpha), x, scalar(0, x))


@converter("Elu", 1)
def elu_v1(node: Node) -> Result:
    """Elu: alpha * (exp(x) - 1) for x < 0."""
    x = node.expr(0)
    alpha = scalar(node.float_attr("alpha", 1.0), x)
    neg = E.multiply(alpha, E.subtract(E.exp(x), scalar(1, x)))
    return E.where(E.less(x, scalar(0, x)), neg, x)


@converter("Celu", 12)
def celu_v12(node: Node) -> Result:
    """Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    x = node.expr(0)
    alpha = scalar(node.float_attr("alpha", 1.0), x)
    zero = scalar(0, x)
    neg = E.multiply(alpha, E.subtract(E.exp(E.divide(x, alpha)), scalar(1, x)))
    return E.add(E.maximum(x, zero), E.minimum(zero, neg))


@converter("Selu", 1)
def selu_v1(node: Node) -> Result:
    """Selu: gamma * (x if x > 0 else alpha * (exp(x) - 1))."""
    x = node.expr(0)
    alpha = scalar(node.float_attr("alpha", 1.67326319217681884765625), x)
    gamma = scalar(node.float_attr("gamma", 1.05070102214813232421875), x)
    neg = E.multiply(alpha, E.subtract(E.exp(x), scalar(1, x)))
    return E.multiply(gamma, E.where(E.greater(x, scalar(0, x)), x, neg))


@converter("HardSigmoid", 1)
def hard_sigmoid_v1(node: Node) -> Result:
    """HardSigmoid: clip(alpha * x + beta, 0, 1)."""
    x = node.expr(0)
    alpha = scalar(node.float_attr("alpha", 0.2), x)
    beta = scalar(node.float_attr("beta", 0.5), x)
    return E.clip(E.add(E.multiply(alpha, x), beta), 0.0, 1.0)


@converter("HardSwish", 14)
def hard_swish_v14(node: Node) -> Result:
    """HardSwish: x * clip(x / 6 + 0.5, 0, 1) (HardSigmoid with alpha 1/6)."""
    x = node.expr(0)
    alpha, beta = scalar(1 / 6, x), scalar(0.5, x)
    return E.multiply(x, E.clip(E.add(E.multiply(alpha, x), beta), 0.0, 1.0))


@converter("Softplus", 1)
def softplus_v1(node: Node) -> Result:
    """Softplus: log(exp(x) + 1)."""
    x = node.expr(0)
    return E.log(E.add(E.exp(x), scalar(1, x)))


@converter("Softsign", 1)
def softsign_v1(node: Node) -> Result:
    """Softsign: x / (1 + |x|)."""
    x = node.expr(0)
    return E.divide(x, E.add(scalar(1, x), E.abs(x)))


@converter("Mish", 18)
def mish_v18(node: Node) -> Result:
    """Mish: x * tanh(softplus(x))."""
    x = node.expr(0)
    return E.multiply(x, E.tanh(E.log(E.add(E.exp(x), scalar(1, x)))))


@converter("Swish", 24)
def swish_v24(node: Node) -> Result:
    """Swish: x * sigmoid(alpha * x)."""
    x = node.expr(0)
    return E.multiply(x, E.sigmoid(E.multiply(scalar(node.float_attr("alpha", 1.0), x), x)))


@converter("Gelu", 20)
def gelu_v20(node: Node) -> Result:
    """Gelu: exact (erf) or `approximate="tanh"`."""
    x = node.expr(0)
    half, one = scalar(0.5, x), scalar(1, x)
    if node.str_attr("approximate", "none") == "tanh":
        inner = E.multiply(
            scalar(np.sqrt(2 / np.pi), x),
            E.add(x, E.multiply(scalar(0.044715, x), E.power(x, scalar(3, x)))),
        )
        return E.multiply(E.multiply(half, x), E.add(one, E.tanh(inner)))
    erf = E.erf(E.multiply(x, scalar(1 / np.sqrt(2), x)))
    return E.multiply(E.multiply(half, x), E.add(one, erf))


@converter("Shrink", 9)
def shrink_v9(node: Node) -> Result:
    """Shrink: x + bias below -lambd, x - bias above lambd, else 0."""
    x = node.expr(0)
    lambd, bias = node.float_attr("lambd", 0.5), node.float_attr("bias", 0.0)
    low = E.where(E.less(x, scalar(-lambd, x)), E.add(x, scalar(bias, x)), scalar(0, x))
    return E.where(E.greater(x, scalar(lambd, x)), E.subtract(x, scalar(bias, x)), low)


def _clip_bound(node: Node, index: int, default: float) -> tuple[float | None, Expr | None]:
    """A Clip bound: a number when known, an expression otherwise, or the default."""
    if not node.has(index):
        return default, None
    data = node.known(index)
    if data is None:
        return None, node.expr(index)
    return float(data.reshape(-1)[0]), None


@converter("Clip", 1)
def clip_v1(node: Node) -> Result:
    """Clip with `min`/`max` attributes."""
    lo = node.float_attr("min", -np.inf)
    hi = node.float_attr("max", np.inf)
    return E.clip(node.expr(0), lo, hi)


@converter("Clip", 11)
def clip_v11(node: Node) -> Result:
    """Clip with optional `min`/`max` inputs: relay.clip when known, else maximum/minimum."""
    x = node.expr(0)
    lo, lo_expr = _clip_bound(node, 1, -np.inf)
    hi, hi_expr = _clip_bound(node, 2, np.inf)
    if lo_expr is not None or hi_expr is not None or not node.dtype(0).startswith("float"):
        out = x
        if lo_expr is not None or (lo is not None and np.isfinite(lo)):
            out = E.maximum(out, lo_expr if lo_expr is not None else scalar(lo or 0, x))
        if hi_expr is not None or (hi is not None and np.isfinite(hi)):
            out = E.minimum(out, hi_expr if hi_expr is not None else scalar(hi or 0, x))
        return out
    assert lo is not None
    assert hi is not None
    return E.clip(x, lo, hi)


def _variadic(op_type: str, fn: Binary, mean: bool = False) -> None:
    def convert(node: Node) -> Result:
        terms = node.exprs()
        out = terms[0]
        for term in terms[1:]:
            out = fn(out, term)
        if mean:
            out = E.divide(out, scalar(len(terms), out))
        return out

    converter(op_type, 1)(convert)


_variadic("Max", E.maximum)
_variadic("Min", E.minimum)
_variadic("Sum", E.add)
_variadic("Mean", E.add, mean=True)


@converter("Where", 9)
def where_v9(node: Node) -> Result:
    """Where(condition, X, Y)."""
    return E.where(node.expr(0), node.expr(1), node.expr(2))


@converter(("Identity",), 1)
def identity_v1(node: Node) -> Result:
    """Identity: the input itself."""
    return node.value(0)


@converter("Cast", 1)
def cast_v1(node: Node) -> Result:
    """Cast to the `to` dtype (a number; strings and other unrepresentable types refused)."""
    from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype

    to = node.int_attr("to", 0)
    dtype = relay_dtype(to)
    node.refuse(dtype is None, f"cannot cast to {onnx_type_name(to)}")
    assert dtype is not None
    node.refuse(node.int_attr("saturate", 1) == 0, "saturate=0 applies to float8 only")
    return E.cast(node.expr(0), dtype)


@converter("CastLike", 15)
def cast_like_v15(node: Node) -> Result:
    """CastLike: cast to the second input's dtype (known when the first input is)."""
    out = E.cast(node.expr(0), node.dtype(1))
    return fold(out) if node.known(0) is not None else out
