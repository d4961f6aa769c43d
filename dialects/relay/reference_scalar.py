"""The edge cases of elementwise arithmetic, in numpy, as `docs/semantics.md` defines them.

Integer `divide` truncates toward zero, exactly (computed in the integer type,
never through float64), a zero divisor gives 0 and `MIN / -1` wraps to MIN;
integer `power` wraps, and a negative exponent gives the truncated value of
b^e (1 for b = 1, +-1 for b = -1, else 0); a float -> integer `cast` maps NaN
to 0, saturates out-of-range values and otherwise truncates toward zero; an
empty max (min) is -inf (+inf), or the integer type's lowest (highest). The
C target computes the same (`codegen/c/abi.py`, `codegen/c/scalar_ops.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

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


def int_power(a: Any, b: Any) -> Array:
    """`a ** b` on integers, wrapping; for `b < 0` the truncated value of a^b."""
    x, y = _pair(a, b)
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
    if np.issubdtype(dtype, np.floating):
        return -np.inf if is_max else np.inf
    if dtype == np.bool_:
        return not is_max
    info = np.iinfo(dtype)
    return info.min if is_max else info.max
