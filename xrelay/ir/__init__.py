"""`xrelay.ir`: the part of TVM's `tvm.ir` Relay code uses.

`register_op_attr` (BYOC), `IRModule`, `structural_equal` / `assert_structural_equal` (graph
aware and alpha-equivalent, as TVM's), `instrument` (`tvm.ir.instrument`) and `Span` /
`SourceName` (an expression's source, as an op location).
"""

from __future__ import annotations

from xrelay.dialects.builder.span import SourceName, Span
from xrelay.dialects.builder.structural_equal import assert_structural_equal, structural_equal
from xrelay.dialects.ir_module import IRModule
from xrelay.ir import instrument
from xrelay.passes.byoc_registry import register_op_attr

__all__ = [
    "IRModule",
    "SourceName",
    "Span",
    "assert_structural_equal",
    "instrument",
    "register_op_attr",
    "structural_equal",
]
