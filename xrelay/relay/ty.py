"""`xrelay.relay.ty`: TVM's `relay.ty` (`relay.ty.TensorType(shape, dtype)`, ...)."""

from __future__ import annotations

from xrelay.dialects.builder.expr import Any_ as Any
from xrelay.dialects.builder.expr import FuncType
from xrelay.dialects.builder.expr import TensorType_ as TensorType
from xrelay.dialects.builder.expr import TupleType_ as TupleType
from xrelay.dialects.builder.ty import scalar_type

__all__ = ["Any", "FuncType", "TensorType", "TupleType", "scalar_type"]
