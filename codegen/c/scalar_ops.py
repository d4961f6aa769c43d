"""Elementwise relay ops as scalar C expressions, the pieces fused loop nests are made of.

Each `ScalarRule` gives, for one op, the C expression of one result element
from its operands' elements (C names of already computed scalars), which
operands it reads, and where in each operand the element comes from (numpy
broadcasting by default; `nn.bias_add` reads its bias at the data's `axis`).
The expressions follow the reference interpreter: NaN propagates through
`maximum`/`minimum`/`relu`/`clip` as in numpy, integer arithmetic wraps
(through the unsigned type, never signed overflow), integer division
truncates (TVM) and gives 0 for a zero divisor instead of trapping; a float ->
integer cast maps NaN to 0 and saturates (docs/semantics.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import cast

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Unsupported
from xrelay.codegen.c.scalars import Scalar, scalar_of
from xrelay.dialects.relay.base import get_float, get_int, properties_with_defaults

Index = tuple[int | None, ...]
"""Per dim of a value: the root loop axis its index is, or None for index 0."""


@dataclass(frozen=True)
class ScalarCall:
    """One element of an elementwise op: operand scalars (C names) and types."""

    op: Operation
    args: Sequence[str]
    """Per operand: the C name of its element ("" for an operand the op does not read)."""
    types: Sequence[Scalar]
    out: Scalar
    libraries: set[str] = field(default_factory=set[str])
    """Shared kernel library units the expression calls (`codegen/kernels`): the rule adds
    them, the loop's printer passes them on to the model (as `Kernel.libraries`)."""


ExprFn = Callable[[ScalarCall], str]


@dataclass(frozen=True)
class ScalarRule:
    """How an elementwise op computes one element."""

    expr: ExprFn
    reads: Callable[[Operation], Sequence[int]] | None = None
    """Operand positions read (None: all)."""
    index: Callable[[Operation, int, Index, Sequence[int]], Index] | None = None
    """Index of operand `k` (of that shape) for result index `idx` (None: broadcasting)."""


def broadcast_index(idx: Index, operand_shape: Sequence[int]) -> Index:
    """numpy broadcasting: dims align at the right, a 1-dim reads index 0."""
    shift = len(idx) - len(operand_shape)
    return tuple(None if d == 1 else idx[j + shift] for j, d in enumerate(operand_shape))


def _bias_index(op: Operation, k: int, idx: Index, shape: Sequence[int]) -> Index:
    if k == 0:
        return broadcast_index(idx, shape)
    axis = get_int(op.properties, "axis") % len(idx)
    return (None if shape[0] == 1 else idx[axis],)


def _float_prop(op: Operation, name: str) -> float:
    return get_float(op.properties, name)


# ---------------------------------------------------------------- arithmetic


def _arith(symbol: str, helper: str) -> ExprFn:
    def expr(c: ScalarCall) -> str:
        a, b = c.args
        t = c.out
        if t.is_float:
            return f"{a} {symbol} {b}"
        if t.kind == "bool":
            if helper == "add":
                return f"(uint8_t)({a} | {b})"
            if helper == "mul":
                return f"(uint8_t)({a} & {b})"
            raise Unsupported(f"no '{helper}' on booleans")
        return f"xr_{helper}_{t.suffix}({a}, {b})"

    return expr


def _divide(c: ScalarCall) -> str:
    a, b = c.args
    if c.out.is_float:
        return f"{a} / {b}"
    if c.out.kind == "bool":
        raise Unsupported("no 'divide' on booleans")
    return f"xr_div_{c.out.suffix}({a}, {b})"


def _power(c: ScalarCall) -> str:
    a, b = c.args
    if c.out.is_float:
        return c.out.math("pow", a, b)
    if c.out.kind == "bool":
        raise Unsupported("no 'power' on booleans")
    return f"xr_pow_{c.out.suffix}({a}, {b})"


def _extremum(symbol: str) -> ExprFn:
    def expr(c: ScalarCall) -> str:
        a, b = c.args
        if c.out.is_float:  # numpy: a NaN on either side wins
            return f"({a} != {a} || {a} {symbol} {b}) ? {a} : {b}"
        return f"{a} {symbol} {b} ? {a} : {b}"

    return expr


def _compare(symbol: str) -> ExprFn:
    return lambda c: f"(uint8_t)({c.args[0]} {symbol} {c.args[1]})"


# ---------------------------------------------------------------- unary


def _float_math(name: str) -> ExprFn:
    def expr(c: ScalarCall) -> str:
        if not c.out.is_float:
            raise Unsupported(f"'{name}' needs a floating-point operand")
        return c.out.math(name, c.args[0])

    return expr


def _vector_math(name: str) -> ExprFn:
    """float32: the shared library's vectorizable `xv_<name>f` (codegen/kernels/vmath.py, a
    few ulps); other floats: `<math.h>`."""
    fallback = _float_math(name)

    def expr(c: ScalarCall) -> str:
        if c.out.ctype != "float":
            return fallback(c)
        c.libraries.add("vmath")
        return f"xv_{name}f({c.args[0]})"

    return expr


def _negative(c: ScalarCall) -> str:
    (a,) = c.args
    if c.out.is_float:
        return f"-{a}"
    if c.out.kind == "bool":
        raise Unsupported("no 'negative' on booleans")
    return f"xr_neg_{c.out.suffix}({a})"


def _abs(c: ScalarCall) -> str:
    (a,) = c.args
    if c.out.is_float:
        return c.out.math("fabs", a)
    if c.out.kind in ("uint", "bool"):
        return a
    return f"xr_abs_{c.out.suffix}({a})"


def _rsqrt(c: ScalarCall) -> str:
    if not c.out.is_float:
        raise Unsupported("'rsqrt' needs a floating-point operand")
    return f"{c.out.literal(1.0)} / {c.out.math('sqrt', c.args[0])}"


def _sigmoid(c: ScalarCall) -> str:
    if not c.out.is_float:
        raise Unsupported("'sigmoid' needs a floating-point operand")
    if c.out.ctype == "float":
        return _vector_math("sigmoid")(c)
    one = c.out.literal(1.0)
    return f"{one} / ({one} + {c.out.math('exp', '-' + c.args[0])})"


def _relu(c: ScalarCall) -> str:
    (a,) = c.args
    zero = c.out.literal(0)
    if c.out.is_float:
        return f"({a} != {a} || {a} > {zero}) ? {a} : {zero}"
    return f"{a} > {zero} ? {a} : {zero}"


def _leaky_relu(c: ScalarCall) -> str:
    (a,) = c.args
    alpha = c.out.literal(_float_prop(c.op, "alpha"))
    return f"{a} > {c.out.literal(0)} ? {a} : {a} * {alpha}"


def _clip(c: ScalarCall) -> str:
    (a,) = c.args
    low, high = _float_prop(c.op, "a_min"), _float_prop(c.op, "a_max")
    if c.out.is_float:  # numpy rounds the bounds to the array's type; NaN stays NaN
        lo, hi = c.out.literal(low), c.out.literal(high)
        return f"{a} < {lo} ? {lo} : ({a} > {hi} ? {hi} : {a})"
    # Integers clip in double (numpy promotes), then truncate back.
    lo, hi, x = low.hex(), high.hex(), f"(double){a}"
    return f"({c.out.ctype})({x} < {lo} ? {lo} : ({x} > {hi} ? {hi} : {x}))"


def _cast(c: ScalarCall) -> str:
    (a,) = c.args
    if c.types[0].kind == "bf16" or c.out.kind == "bf16":  # only to and from f32 (half_floats.py)
        if c.types[0].kind == "bf16" and c.out.ctype == "float":
            return f"xr_bf16_to_f32({a})"
        if c.out.kind == "bf16" and c.types[0].ctype == "float":
            return f"xr_f32_to_bf16({a})"
        raise Unsupported(f"no cast from {c.types[0].suffix} to {c.out.suffix}")
    if c.out.kind == "bool":
        return f"(uint8_t)({a} != 0)"
    if c.types[0].is_float and not c.out.is_float:
        return _float_to_int(a, c.out)
    return f"({c.out.ctype}){a}"


def _cast_like(c: ScalarCall) -> str:
    """`cast_like` is `cast` of its first operand (the second is not read)."""
    return _cast(replace(c, args=c.args[:1], types=c.types[:1]))


def _float_to_int(a: str, out: Scalar) -> str:
    """NaN -> 0, saturated at the type's bounds, else truncated (C's conversion is undefined
    out of range)."""
    high = float(2 ** (out.bits if out.kind == "uint" else out.bits - 1)).hex()
    low = out.literal(0) if out.kind == "uint" else f"INT{out.bits}_MIN"
    top = f"UINT{out.bits}_MAX" if out.kind == "uint" else f"INT{out.bits}_MAX"
    floor = "0.0" if out.kind == "uint" else float(-(2 ** (out.bits - 1))).hex()
    return (
        f"({a} != {a} ? {out.literal(0)} : {a} >= {high} ? {top} : "
        f"{a} <= {floor} ? {low} : ({out.ctype}){a})"
    )


def _bias_add(c: ScalarCall) -> str:
    return _arith("+", "add")(c)


# ---------------------------------------------------------------- elementwise_math


def _float_only(name: str, c: ScalarCall) -> None:
    if not c.types[0].is_float:
        raise Unsupported(f"'{name}' needs a floating-point operand")


def _round(c: ScalarCall) -> str:
    _float_only("round", c)
    return c.out.math("round", c.args[0])  # halfway away from zero, as TVM


def _sign(c: ScalarCall) -> str:
    (a,) = c.args
    one, zero = c.out.literal(1), c.out.literal(0)
    if c.out.is_float:  # NaN stays NaN; both zeros give +0 (numpy)
        return f"({a} > {zero} ? {one} : {a} < {zero} ? -{one} : {a} == {zero} ? {zero} : {a})"
    if c.out.kind == "uint":
        return f"({c.out.ctype})({a} > {zero})"
    if c.out.kind == "bool":
        raise Unsupported("no 'sign' on booleans")
    return f"({c.out.ctype})(({a} > {zero}) - ({a} < {zero}))"


def _is_nan(c: ScalarCall) -> str:
    _float_only("isnan", c)
    return f"(uint8_t)({c.args[0]} != {c.args[0]})"


def _is_inf(c: ScalarCall) -> str:
    _float_only("isinf", c)
    a = c.args[0]
    return f"(uint8_t)({a} == INFINITY || {a} == -INFINITY)"


def _is_finite(c: ScalarCall) -> str:
    _float_only("isfinite", c)
    a = c.args[0]
    return f"(uint8_t)({a} == {a} && {a} != INFINITY && {a} != -INFINITY)"


def _logical_not(c: ScalarCall) -> str:
    return f"(uint8_t)!{c.args[0]}"


def _bitwise_not(c: ScalarCall) -> str:
    if c.out.kind == "bool":
        return _logical_not(c)
    if c.out.is_float:
        raise Unsupported("no 'bitwise_not' on floats")
    return f"({c.out.ctype})~{c.args[0]}"


def _integer_helper(name: str, helper: str, real: Callable[[ScalarCall], str] | None) -> ExprFn:
    """`xr_<helper>_<type>(a, b)` on integers; `real` on floats (None: integers only)."""

    def expr(c: ScalarCall) -> str:
        a, b = c.args
        if c.out.is_float and real is not None:
            return real(c)
        if c.out.kind not in ("int", "uint"):
            raise Unsupported(f"no '{name}' on {c.out.ctype}")
        return f"xr_{helper}_{c.out.suffix}({a}, {b})"

    return expr


def _float_floor_mod(c: ScalarCall) -> str:
    a, b = c.args
    if c.out.bits == 64:
        return f"xr_floormod_f64({a}, {b})"
    if c.out.bits == 32:
        return f"xr_floormod_f32({a}, {b})"
    return f"({c.out.ctype})xr_floormod_f32((float){a}, (float){b})"


def _rounded_quotient(function: str) -> Callable[[ScalarCall], str]:
    return lambda c: c.out.math(function, f"({c.args[0]} / {c.args[1]})")


def _bitwise(symbol: str) -> ExprFn:
    def expr(c: ScalarCall) -> str:
        if c.out.is_float:
            raise Unsupported("no bitwise operation on floats")
        return f"({c.out.ctype})({c.args[0]} {symbol} {c.args[1]})"

    return expr


def _logical(symbol: str) -> ExprFn:
    return lambda c: f"(uint8_t)({c.args[0]} {symbol} {c.args[1]})"


def _where(c: ScalarCall) -> str:
    condition, x, y = c.args
    return f"({condition} ? {x} : {y})"


_MATH: dict[str, ExprFn] = {
    **{
        f"relay.{name}": _float_math(name)
        for name in (
            *("sin", "cos", "tan", "asin", "acos", "atan"),
            *("sinh", "cosh", "asinh", "acosh", "atanh", "trunc"),
        )
    },
    "relay.round": _round,
    "relay.sign": _sign,
    "relay.isnan": _is_nan,
    "relay.isinf": _is_inf,
    "relay.isfinite": _is_finite,
    "relay.logical_not": _logical_not,
    "relay.bitwise_not": _bitwise_not,
    "relay.mod": _integer_helper("mod", "mod", lambda c: c.out.math("fmod", *c.args)),
    "relay.floor_mod": _integer_helper("floor_mod", "floormod", _float_floor_mod),
    "relay.floor_divide": _integer_helper("floor_divide", "floordiv", _rounded_quotient("floor")),
    "relay.trunc_divide": _integer_helper("trunc_divide", "div", _rounded_quotient("trunc")),
    "relay.bitwise_and": _bitwise("&"),
    "relay.bitwise_or": _bitwise("|"),
    "relay.bitwise_xor": _bitwise("^"),
    "relay.logical_and": _logical("&&"),
    "relay.logical_or": _logical("||"),
    "relay.logical_xor": _logical("!="),
    "relay.left_shift": _integer_helper("left_shift", "shl", None),
    "relay.right_shift": _integer_helper("right_shift", "shr", None),
    "relay.where": _where,
}


# ---------------------------------------------------------------- creation


def _fill(value: int) -> ExprFn:
    return lambda c: c.out.literal(value)


def _fill_with(k: int) -> ExprFn:
    def expr(c: ScalarCall) -> str:
        a = c.args[k]
        if c.out.kind == "bool":
            return _cast_bool(a)
        if c.types[k].is_float and not c.out.is_float:  # as `cast` converts
            return _float_to_int(a, c.out)
        return f"({c.out.ctype}){a}"

    return expr


def _cast_bool(a: str) -> str:
    return f"(uint8_t)({a} != 0)"


def _none(op: Operation) -> Sequence[int]:
    return ()


def _only(k: int) -> Callable[[Operation], Sequence[int]]:
    return lambda op: (k,)


_BINARY: dict[str, ExprFn] = {
    "relay.add": _arith("+", "add"),
    "relay.subtract": _arith("-", "sub"),
    "relay.multiply": _arith("*", "mul"),
    "relay.divide": _divide,
    "relay.power": _power,
    "relay.maximum": _extremum(">"),
    "relay.minimum": _extremum("<"),
    "relay.equal": _compare("=="),
    "relay.not_equal": _compare("!="),
    "relay.less": _compare("<"),
    "relay.less_equal": _compare("<="),
    "relay.greater": _compare(">"),
    "relay.greater_equal": _compare(">="),
}
_UNARY: dict[str, ExprFn] = {
    "relay.negative": _negative,
    "relay.abs": _abs,
    "relay.exp": _vector_math("exp"),
    "relay.log": _vector_math("log"),
    "relay.sqrt": _float_math("sqrt"),
    "relay.rsqrt": _rsqrt,
    "relay.tanh": _vector_math("tanh"),
    "relay.sigmoid": _sigmoid,
    "relay.erf": _vector_math("erf"),
    "relay.floor": _float_math("floor"),
    "relay.ceil": _float_math("ceil"),
    "relay.clip": _clip,
    "relay.cast": _cast,
    "relay.nn.relu": _relu,
    "relay.nn.leaky_relu": _leaky_relu,
    "relay.fast_exp": _vector_math("exp"),
    "relay.fast_tanh": _vector_math("tanh"),
    "relay.fast_erf": _vector_math("erf"),
}


def _prelu(c: ScalarCall) -> str:
    a, alpha = c.args
    return f"{a} > {c.out.literal(0)} ? {a} : {a} * {alpha}"


def _prelu_index(op: Operation, k: int, idx: Index, shape: Sequence[int]) -> Index:
    """prelu reads its data as broadcast and alpha at the data's `axis` (default 1)."""
    if k == 0:
        return broadcast_index(idx, shape)
    axis = get_int(properties_with_defaults(cast(IRDLOperation, op)), "axis") % len(idx)
    return (None if shape[0] == 1 else idx[axis],)


SCALAR_RULES: Mapping[str, ScalarRule] = MappingProxyType(
    {
        **{name: ScalarRule(fn) for name, fn in (_BINARY | _UNARY | _MATH).items()},
        "relay.nn.bias_add": ScalarRule(_bias_add, index=_bias_index),
        "relay.zeros": ScalarRule(_fill(0), reads=_none),
        "relay.ones": ScalarRule(_fill(1), reads=_none),
        "relay.zeros_like": ScalarRule(_fill(0), reads=_none),
        "relay.ones_like": ScalarRule(_fill(1), reads=_none),
        "relay.full": ScalarRule(_fill_with(0), reads=_only(0)),
        "relay.full_like": ScalarRule(_fill_with(1), reads=_only(1)),
        "relay.nn.prelu": ScalarRule(_prelu, index=_prelu_index),
        "relay.cast_like": ScalarRule(_cast_like, reads=_only(0)),
    }
)
"""The elementwise ops the C target fuses, by op name."""


def element_scalar(type_: Attribute) -> Scalar:
    """The C element type of a tensor type; `Unsupported` otherwise."""
    if not isinstance(type_, TensorType):
        raise Unsupported(f"cannot emit type '{type_}'")
    found = scalar_of(cast(TensorType[Attribute], type_).get_element_type())
    if found is None:
        raise Unsupported(f"cannot emit type '{type_}'")
    return found
