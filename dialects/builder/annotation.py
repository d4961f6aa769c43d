"""`relay.annotation.compiler_begin/compiler_end` (BYOC region boundaries, built by hand) and
`relay.annotation.stop_fusion` (a fusion barrier)."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay.annotation import StopFusionOp
from xrelay.dialects.relay.structure import CompilerBeginOp, CompilerEndOp


def compiler_begin(data: Expr, compiler: str) -> Call:
    """`relay.annotation.compiler_begin(data, compiler)`: `data` enters `compiler`'s region."""
    return Call(CompilerBeginOp, [data], {"compiler": StringAttr(compiler)})


def compiler_end(data: Expr, compiler: str) -> Call:
    """`relay.annotation.compiler_end(data, compiler)`: `data` leaves `compiler`'s region."""
    return Call(CompilerEndOp, [data], {"compiler": StringAttr(compiler)})


def stop_fusion(data: Expr) -> Call:
    """`relay.annotation.stop_fusion(data)`: `data` itself, where FuseOps stops a group."""
    return Call(StopFusionOp, [data], {})
