"""`xrelay.relay.expr`: TVM's `relay.expr` expression classes and leaves."""

from __future__ import annotations

from xrelay.dialects.builder.core import const, var
from xrelay.dialects.builder.expr import (
    Call,
    Constant,
    Expr,
    Function,
    GlobalVar,
    If,
    Tuple,
    TupleGetItem,
    Var,
)

TupleWrapper = Expr
"""TVM wraps tuple-valued results; xrelay's are expressions that index and unpack themselves."""

__all__ = [
    "Call",
    "Constant",
    "Expr",
    "Function",
    "GlobalVar",
    "If",
    "Tuple",
    "TupleGetItem",
    "TupleWrapper",
    "Var",
    "const",
    "var",
]
