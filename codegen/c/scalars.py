"""Element types as C: the C type, the ABI's dtype, literals, and the math function names.

`scalar_of(element_type)` gives the `Scalar` of a relay dtype, or None for one
the C target cannot hold. Floats compute in their own type (`f16` through
`float`, as `_Float16` arithmetic does); every literal is exact (hex floats).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute


@dataclass(frozen=True)
class Scalar:
    """One element type in C."""

    ctype: str
    """The C type of an element (`float`, `int32_t`, `uint8_t` for `i1`)."""
    kind: str
    """`float`, `int` (signed), `uint` or `bool`."""
    bits: int
    abi: str | None
    """The `xrelay_dtype` enumerator, None if the ABI has no such dtype."""
    suffix: str = ""
    """Short name used in helper function names (`i32`, `u8`)."""

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def bytes(self) -> int:
        return max(1, self.bits // 8)

    def math(self, function: str, *args: str) -> str:
        """A call of the `<math.h>` function in this type (`expf(x)` for float)."""
        if self.ctype == "double":
            return f"{function}({', '.join(args)})"
        if self.ctype == "float":
            return f"{function}f({', '.join(args)})"
        widened = ", ".join(f"(float){a}" for a in args)
        return f"({self.ctype}){function}f({widened})"

    def literal(self, value: float | int | bool) -> str:
        """`value` as an exact C constant of this type."""
        if self.kind == "float":
            return self._float_literal(float(value))
        number = int(value)
        if self.kind == "bool":
            return "((uint8_t)1)" if number else "((uint8_t)0)"
        if self.kind == "int" and number == -(1 << (self.bits - 1)):
            return f"INT{self.bits}_MIN"
        if self.kind == "uint":
            return f"(({self.ctype}){number}ULL)"
        return f"(({self.ctype}){number}LL)" if number < 0 else f"(({self.ctype}){number})"

    def _float_literal(self, value: float) -> str:
        if self.bits < 64:
            with np.errstate(over="ignore"):
                value = float((np.float32 if self.bits == 32 else np.float16)(value))
        if math.isnan(value):
            text = "NAN"
        elif math.isinf(value):
            text = "INFINITY" if value > 0 else "(-INFINITY)"
        else:
            # The shortest decimal that reads back as this value of the type (C compilers
            # round literals correctly), e.g. 0.1f.
            if self.ctype == "double":
                text = repr(value)
            elif self.bits == 32:
                text = str(np.float32(value)) + "f"
            else:  # every half is exactly a float: no double rounding through float
                text = value.hex() + "f"
            if "e" not in text and "." not in text:
                text = text.replace("f", ".0f") if text.endswith("f") else text + ".0"
            text = f"({text})" if text.startswith("-") else text
        return text if self.ctype != "_Float16" else f"((_Float16){text})"

    def lowest(self) -> str:
        """The lowest finite value (TVM's `min_value`), as a C constant."""
        if self.kind == "float":
            return {"float": "(-FLT_MAX)", "double": "(-DBL_MAX)"}.get(
                self.ctype, "((_Float16)-65504.0f)"
            )
        if self.kind == "int":
            return f"INT{self.bits}_MIN"
        return f"(({self.ctype})0)"

    def accumulator(self) -> str:
        """The type sums and products accumulate in: `double` for floats, else `uint64_t`."""
        return "double" if self.is_float else "uint64_t"


_FLOATS = {
    16: Scalar("_Float16", "float", 16, "XRELAY_FLOAT16", "f16"),
    32: Scalar("float", "float", 32, "XRELAY_FLOAT32", "f32"),
    64: Scalar("double", "float", 64, "XRELAY_FLOAT64", "f64"),
}
_SIGNED = {
    8: Scalar("int8_t", "int", 8, "XRELAY_INT8", "i8"),
    16: Scalar("int16_t", "int", 16, "XRELAY_INT16", "i16"),
    32: Scalar("int32_t", "int", 32, "XRELAY_INT32", "i32"),
    64: Scalar("int64_t", "int", 64, "XRELAY_INT64", "i64"),
}
_UNSIGNED = {
    8: Scalar("uint8_t", "uint", 8, "XRELAY_UINT8", "u8"),
    16: Scalar("uint16_t", "uint", 16, "XRELAY_UINT16", "u16"),
    32: Scalar("uint32_t", "uint", 32, "XRELAY_UINT32", "u32"),
    64: Scalar("uint64_t", "uint", 64, "XRELAY_UINT64", "u64"),
}
BOOL = Scalar("uint8_t", "bool", 8, "XRELAY_BOOL", "b")
"""`i1`: one byte, 0 or 1."""

INDEX = "int64_t"
"""The C type of loop counters and offsets."""


def scalar_of(element_type: Attribute) -> Scalar | None:
    """The C form of a relay element type; None for one C cannot hold."""
    if isinstance(element_type, Float16Type):
        return _FLOATS[16]
    if isinstance(element_type, Float32Type):
        return _FLOATS[32]
    if isinstance(element_type, Float64Type):
        return _FLOATS[64]
    if isinstance(element_type, IntegerType):
        integer = cast(IntegerType, element_type)
        width = integer.width.data
        if width == 1:
            return BOOL
        table = _UNSIGNED if integer.signedness.data == Signedness.UNSIGNED else _SIGNED
        return table.get(width)
    return None


def tensor_scalar(type_: Attribute) -> Scalar | None:
    """The `Scalar` of a tensor type's elements; None if it is no tensor or C cannot hold it."""
    if not isinstance(type_, TensorType):
        return None
    return scalar_of(cast(TensorType[Attribute], type_).get_element_type())
