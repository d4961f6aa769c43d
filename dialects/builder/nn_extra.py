"""Builder functions for `nn_extra`'s `relay.nn` ops, with TVM's signatures and defaults."""

from __future__ import annotations

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import nn_extra

__all__ = ["batch_matmul", "prelu"]


def batch_matmul(
    x: Expr,
    y: Expr,
    out_dtype: str = "",
    transpose_a: bool = False,
    transpose_b: bool = True,
) -> Call:
    """`relay.nn.batch_matmul(x, y, out_dtype="", transpose_a=False, transpose_b=True)`:
    `x @ y^T` per batch by default (`x` is `[B, M, K]`, `y` is `[B, N, K]`)."""
    props: dict[str, Attribute] = {
        "transpose_a": attrs.bool_(transpose_a),
        "transpose_b": attrs.bool_(transpose_b),
    }
    if out_dtype:
        props["out_dtype"] = attrs.dtype(out_dtype)
    return Call(nn_extra.BatchMatmulOp, [x, y], props)


def prelu(data: Expr, alpha: Expr, axis: int = 1) -> Call:
    """`relay.nn.prelu(data, alpha, axis=1)`: `x if x > 0 else x * alpha[c]` along `axis`."""
    return Call(nn_extra.PReluOp, [data, alpha], {"axis": attrs.int_(axis)})
