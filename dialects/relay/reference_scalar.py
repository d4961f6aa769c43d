"""The edge cases of elementwise arithmetic, in numpy, as `docs/semantics.md` defines them.

Integer `divide` truncates toward zero, exactly (computed in the integer type,
never through float64), a zero divisor gives 0 and `MIN / -1` wraps to MIN;
integer `power` wraps, and a negative exponent gives the truncated value of
b^e (1 for b = 1, +-1 for b = -1, else 0); `mod` / `floor_mod` / `floor_divide`
follow `divide` (0 for a zero divisor, `MIN mod -1 = 0`); shifts by a negative
amount or the width or more shift every bit out; a float -> integer `cast` maps NaN
to 0, saturates out-of-range values and otherwise truncates toward zero; an
empty max (min) is -inf (+inf), or the integer type's lowest (highest). The
C target computes the same (`codegen/c/abi.py`, `codegen/c/scalar_ops.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.relay.types import is_float_dtype

Array = npt.NDArray[Any]


def _pair(a: Any, b: Any) -> tuple[Array, Array]:
    x, y = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    return x, y.astype(x.dtype)


def int_divide(a: Any, b: Any) -> Array:
    """`a / b` on integers: truncated toward zero, `x / 0 = 0`, `MIN / -1 = MIN`."""
    x, y = _pair(a, b)
    with np.errstate(all="ignore"):
        if np.issubdtype(x.dtype, np.unsignedinteger):
            return np.where(y == 0, 0, x // np.where(y == 0, 1, y)).astype(x.dtype)
        special = (y == 0) | (y == -1)
        safe = np.where(special, 1, y)
        floor = x // safe
        inexact = (x - floor * safe != 0) & ((x < 0) != (safe < 0))
        quotient = floor + inexact.astype(x.dtype)  # floor -> truncation
        negated = np.negative(x)  # MIN / -1 wraps to MIN
        return np.where(y == 0, 0, np.where(y == -1, negated, quotient)).astype(x.dtype)


def int_mod(a: Any, b: Any) -> Array:
    """`a mod b` on integers, truncated (the dividend's sign): `x mod 0 = 0`, `MIN mod -1 = 0`."""
    x, y = _pair(a, b)
    with np.errstate(all="ignore"):
        remainder = x - int_divide(x, y) * y  # wraps for MIN / -1: MIN - MIN * -1 = 0
    return np.where(y == 0, 0, remainder).astype(x.dtype)


def _floor_adjust(x: Array, y: Array) -> Array:
    """Where truncation and flooring differ: a nonzero remainder of the other sign than `y`."""
    remainder = int_mod(x, y)
    return (remainder != 0) & ((remainder < 0) != (y < 0))


def int_floor_divide(a: Any, b: Any) -> Array:
    """`a // b` on integers, floored: `x // 0 = 0`, `MIN // -1 = MIN`."""
    x, y = _pair(a, b)
    with np.errstate(all="ignore"):
        return (int_divide(x, y) - _floor_adjust(x, y).astype(x.dtype)).astype(x.dtype)


def int_floor_mod(a: Any, b: Any) -> Array:
    """`a mod b` on integers, floored (the divisor's sign): `x mod 0 = 0`, `MIN mod -1 = 0`."""
    x, y = _pair(a, b)
    remainder = int_mod(x, y)
    with np.errstate(all="ignore"):
        return np.where(_floor_adjust(x, y), remainder + y, remainder).astype(x.dtype)


def _unsigned(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(f"u{dtype.itemsize}")


def left_shift(a: Any, b: Any) -> Array:
    """`a << b`, wrapping; 0 where `b` is negative or at least the bit width."""
    x, y = _pair(a, b)
    bits = x.dtype.itemsize * 8
    out = y.astype(np.int64)
    inside = (out >= 0) & (out < bits)
    amount = np.where(inside, out, 0).astype(_unsigned(x.dtype))
    shifted = np.left_shift(x.astype(_unsigned(x.dtype)), amount).astype(x.dtype)
    return np.where(inside, shifted, 0).astype(x.dtype)


def right_shift(a: Any, b: Any) -> Array:
    """`a >> b`, arithmetic for signed types; `b` negative or at least the bit width shifts
    every bit out (signed: -1 for a negative `a`, else 0)."""
    x, y = _pair(a, b)
    bits = x.dtype.itemsize * 8
    out = y.astype(np.int64)
    inside = (out >= 0) & (out < bits)
    amount = np.where(inside, out, bits - 1).astype(x.dtype)
    shifted = np.right_shift(x, amount)
    if np.issubdtype(x.dtype, np.unsignedinteger):
        shifted = np.where(inside, shifted, 0)
    return np.asarray(shifted).astype(x.dtype)


def int_power(a: Any, b: Any) -> Array:
    """`a ** b` on integers, wrapping; for `b < 0` the truncated value of a^b."""
    x, y = _pair(a, b)
    if np.issubdtype(x.dtype, np.unsignedinteger):  # no negative exponent; no int64 mixed in
        with np.errstate(all="ignore"):
            return np.power(x, y).astype(x.dtype)
    negative = y < 0
    with np.errstate(all="ignore"):
        direct = np.power(x, np.where(negative, 0, y))
    odd = (y & 1) == 1
    inverse = np.where(x == 1, 1, np.where(x == -1, np.where(odd, -1, 1), 0))
    return np.where(negative, inverse, direct).astype(x.dtype)


def float_to_int(x: Any, dtype: np.dtype[Any]) -> Array:
    """A float array cast to integer `dtype`: NaN -> 0, saturated, truncated toward zero."""
    wide = np.asarray(x).astype(np.float64)
    info = np.iinfo(dtype)
    high = float(2 ** (info.bits if info.min == 0 else info.bits - 1))  # first too large
    low = float(info.min)  # at or below: the minimum (trunc would give it or less)
    over, under, nan = wide >= high, wide <= low, np.isnan(wide)
    inside = np.where(over | under | nan, 0.0, np.trunc(wide)).astype(dtype)
    return np.where(over, info.max, np.where(under, info.min, inside)).astype(dtype)


def reduce_identity(dtype: np.dtype[Any], is_max: bool) -> Any:
    """The start value of a max (`is_max`) or min: -inf / +inf, or the type's lowest / highest."""
    if is_float_dtype(dtype):
        return -np.inf if is_max else np.inf
    if dtype == np.bool_:
        return not is_max
    info = np.iinfo(dtype)
    return info.min if is_max else info.max
