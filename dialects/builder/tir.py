"""TVM's `tir.IntImm`, `tir.FloatImm` and `tir.const`: typed scalars used as attribute values.

They are Python ints and floats (so every builder argument that takes an int or a float takes
them) that remember their dtype: a function attribute set to `IntImm("int64", 1)` is an
`i64` attribute, as in TVM.
"""

from __future__ import annotations

from xrelay.dialects.builder.expr import Any_


class IntImm(int):
    """`tir.IntImm(dtype, value)`: an int with a dtype."""

    dtype: str

    def __new__(cls, dtype: str, value: int) -> IntImm:
        out = super().__new__(cls, int(value))
        out.dtype = dtype
        return out

    @property
    def value(self) -> int:
        """The value as a plain int."""
        return int(self)

    def __repr__(self) -> str:
        return f"IntImm({self.dtype!r}, {int(self)})"


class FloatImm(float):
    """`tir.FloatImm(dtype, value)`: a float with a dtype."""

    dtype: str

    def __new__(cls, dtype: str, value: float) -> FloatImm:
        out = super().__new__(cls, float(value))
        out.dtype = dtype
        return out

    @property
    def value(self) -> float:
        """The value as a plain float."""
        return float(self)

    def __repr__(self) -> str:
        return f"FloatImm({self.dtype!r}, {float(self)})"


def const(value: int | float | bool, dtype: str | None = None) -> IntImm | FloatImm:
    """`tir.const(value, dtype=None)`: int32 for ints, float32 for floats, as in TVM."""
    if dtype is None:
        dtype = "float32" if isinstance(value, float) else "int32"
    if dtype.startswith("float") or dtype == "bfloat16":
        return FloatImm(dtype, float(value))
    return IntImm(dtype, int(value))


def Any() -> int:
    """`tir.Any()`: a dynamic dimension (as `relay.Any()`)."""
    return Any_()
