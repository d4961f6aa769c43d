"""TVM's `relay.ty` helpers beyond `TensorType` / `TupleType` / `FuncType`."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xrelay.dialects.builder.expr import TensorType_


def scalar_type(dtype: str) -> TensorType[Attribute]:
    """`relay.scalar_type(dtype)`: the rank-0 tensor type of `dtype`."""
    return TensorType_((), dtype)
