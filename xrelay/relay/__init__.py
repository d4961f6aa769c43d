"""`xrelay.relay`: the Relay-style Python builder (mirrors `tvm.relay`)."""

from __future__ import annotations

from xrelay.dialects.builder.core import const, var
from xrelay.dialects.builder.elementwise import (
    abs,  # noqa: A004
    add,
    cast,
    ceil,
    clip,
    divide,
    equal,
    erf,
    exp,
    floor,
    greater,
    greater_equal,
    less,
    less_equal,
    log,
    maximum,
    minimum,
    multiply,
    negative,
    not_equal,
    power,
    rsqrt,
    sigmoid,
    sqrt,
    subtract,
    tanh,
)
from xrelay.dialects.builder.expr import Any_ as Any  # noqa: A004
from xrelay.dialects.builder.expr import (
    Call,
    Constant,
    Expr,
    FuncType,
    Function,
    GlobalCall,
    GlobalVar,
    If,
    Tuple,
    TupleGetItem,
    Var,
)
from xrelay.dialects.builder.expr import TensorType_ as TensorType
from xrelay.dialects.builder.expr import TupleType_ as TupleType
from xrelay.dialects.builder.tensor import *  # noqa: F403
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.relay import nn

__all__ = [
    "Any",
    "Call",
    "Constant",
    "Expr",
    "FuncType",
    "Function",
    "GlobalCall",
    "GlobalVar",
    "If",
    "RelayTypeError",
    "TensorType",
    "Tuple",
    "TupleGetItem",
    "TupleType",
    "Var",
    "abs",
    "add",
    "cast",
    "ceil",
    "clip",
    "const",
    "divide",
    "equal",
    "erf",
    "exp",
    "floor",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "log",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "nn",
    "not_equal",
    "power",
    "rsqrt",
    "sigmoid",
    "sqrt",
    "subtract",
    "tanh",
    "var",
]
