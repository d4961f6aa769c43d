"""Python values to relay property attributes, for the builder functions."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute
from xrelay.dialects.relay.base import int_list_attr
from xrelay.dialects.relay.types import element_type_of


def ints(values: int | Sequence[int]) -> DenseArrayBase[IntegerType]:
    """An integer-list property; a single int becomes a one-element list."""
    if isinstance(values, int):
        return int_list_attr([values])
    return int_list_attr([int(v) for v in values])


def int_(value: int) -> IntegerAttr[IntegerType]:
    """An integer property (`i64`)."""
    return IntegerAttr(int(value), i64)


def float_(value: float) -> FloatAttr:
    """A float property (`f64`)."""
    return FloatAttr(float(value), f64)


def bool_(value: bool) -> IntegerAttr[IntegerType]:
    """A boolean property (`i1`)."""
    return IntegerAttr(int(bool(value)), i1)


def str_(value: str) -> StringAttr:
    """A string property."""
    return StringAttr(value)


def dtype(value: str) -> Attribute:
    """A dtype property (`"float16"` -> `f16`)."""
    return element_type_of(value)


def pairs(values: int | Sequence[int], n: int) -> tuple[int, ...]:
    """Normalize `2` or `(2, 3)` to an n-tuple (TVM accepts both for strides etc.)."""
    if isinstance(values, int):
        return (values,) * n
    flat = [int(v) for v in values]
    if len(flat) == 1:
        return (flat[0],) * n
    return tuple(flat)
