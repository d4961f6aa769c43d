"""Builder functions for the normalization `relay.nn` ops, with TVM's signatures and defaults."""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import nn_norm

__all__ = ["lrn"]


def lrn(
    data: Expr,
    size: int = 5,
    axis: int = 1,
    bias: float = 2.0,
    alpha: float = 0.00001,
    beta: float = 0.75,
) -> Call:
    """`relay.nn.lrn(data, size=5, axis=1, bias=2, alpha=.00001, beta=0.75)`:
    `data / (bias + alpha / size * sum of squares over the window) ** beta`."""
    props = {
        "size": attrs.int_(size),
        "axis": attrs.int_(axis),
        "bias": attrs.float_(bias),
        "alpha": attrs.float_(alpha),
        "beta": attrs.float_(beta),
    }
    return Call(nn_norm.LRNOp, [data], props)
