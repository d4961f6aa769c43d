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
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xrelay.codegen.c.kernel_api import Unsupported
from xrelay.codegen.c.scalars import Scalar, scalar_of
from xrelay.dialects.relay.base import get_float, get_int

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
    if c.out.kind == "bool":
        return f"(uint8_t)({a} != 0)"
    if c.types[0].is_float and not c.out.is_float:
        return _float_to_int(a, c.out)
    return f"({c.out.ctype}){a}"


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
    "relay.exp": _float_math("exp"),
    "relay.log": _float_math("log"),
    "relay.sqrt": _float_math("sqrt"),
    "relay.rsqrt": _rsqrt,
    "relay.tanh": _float_math("tanh"),
    "relay.sigmoid": _sigmoid,
    "relay.erf": _float_math("erf"),
    "relay.floor": _float_math("floor"),
    "relay.ceil": _float_math("ceil"),
    "relay.clip": _clip,
    "relay.cast": _cast,
    "relay.nn.relu": _relu,
    "relay.nn.leaky_relu": _leaky_relu,
}

SCALAR_RULES: Mapping[str, ScalarRule] = MappingProxyType(
    {
        **{name: ScalarRule(fn) for name, fn in (_BINARY | _UNARY).items()},
        "relay.nn.bias_add": ScalarRule(_bias_add, index=_bias_index),
        "relay.zeros": ScalarRule(_fill(0), reads=_none),
        "relay.ones": ScalarRule(_fill(1), reads=_none),
        "relay.zeros_like": ScalarRule(_fill(0), reads=_none),
        "relay.ones_like": ScalarRule(_fill(1), reads=_none),
        "relay.full": ScalarRule(_fill_with(0), reads=_only(0)),
        "relay.full_like": ScalarRule(_fill_with(1), reads=_only(1)),
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
