"""Builder functions for the fast math ops, with TVM's signatures (`tvm.relay.fast_exp`,
`fast_tanh`, `fast_erf`; `tvm.relay.nn.fast_softmax` is exported by `xrelay.relay.nn`)."""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import fast_math as fm

__all__ = ["fast_erf", "fast_exp", "fast_tanh"]


def fast_exp(data: Expr) -> Call:
    """`relay.fast_exp(data)`."""
    return Call(fm.FastExpOp, [data])


def fast_tanh(data: Expr) -> Call:
    """`relay.fast_tanh(data)`."""
    return Call(fm.FastTanhOp, [data])


def fast_erf(data: Expr) -> Call:
    """`relay.fast_erf(data)`."""
    return Call(fm.FastErfOp, [data])


def fast_softmax(data: Expr, axis: int = -1) -> Call:
    """`relay.nn.fast_softmax(data, axis=-1)`."""
    return Call(fm.FastSoftmaxOp, [data], {"axis": attrs.int_(axis)})
