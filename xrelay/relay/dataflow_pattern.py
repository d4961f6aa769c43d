"""`xrelay.relay.dataflow_pattern`: TVM's `tvm.relay.dataflow_pattern` (the pattern language)."""

from __future__ import annotations

from xrelay.passes.dataflow_partition import partition
from xrelay.passes.dataflow_pattern import (
    AltPattern,
    AttrPattern,
    CallPattern,
    ConstantPattern,
    DataTypePattern,
    DFPattern,
    ExprPattern,
    ShapePattern,
    TupleGetItemPattern,
    TuplePattern,
    TypePattern,
    VarPattern,
    WildcardPattern,
    has_attr,
    has_dtype,
    has_shape,
    has_type,
    is_constant,
    is_expr,
    is_op,
    is_tuple,
    is_tuple_get_item,
    is_var,
    wildcard,
)
from xrelay.passes.dataflow_pattern_structural import (
    DominatorPattern,
    FunctionPattern,
    IfPattern,
    LetPattern,
    dominates,
    is_if,
    is_let,
)
from xrelay.passes.dataflow_rewrite import DFPatternCallback, rewrite


def match(pattern: DFPattern, expr: object) -> bool:
    """TVM's `match(pattern, expr)`: `pattern.match(expr)`."""
    return pattern.match(expr)


__all__ = [
    "AltPattern",
    "AttrPattern",
    "CallPattern",
    "ConstantPattern",
    "DFPattern",
    "DFPatternCallback",
    "DataTypePattern",
    "DominatorPattern",
    "ExprPattern",
    "FunctionPattern",
    "IfPattern",
    "LetPattern",
    "ShapePattern",
    "TupleGetItemPattern",
    "TuplePattern",
    "TypePattern",
    "VarPattern",
    "WildcardPattern",
    "dominates",
    "has_attr",
    "has_dtype",
    "has_shape",
    "has_type",
    "is_constant",
    "is_expr",
    "is_if",
    "is_let",
    "is_op",
    "is_tuple",
    "is_tuple_get_item",
    "is_var",
    "match",
    "partition",
    "rewrite",
    "wildcard",
]
