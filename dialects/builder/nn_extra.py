"""Builder functions for `nn_extra`'s `relay.nn` ops, with TVM's signatures and defaults."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import nn_extra

__all__ = ["adaptive_avg_pool2d", "adaptive_max_pool2d", "batch_matmul", "prelu"]


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


def _adaptive_props(
    output_size: int | Sequence[int] | None, layout: str, out_layout: str, op: str
) -> dict[str, Attribute]:
    if out_layout not in ("", layout):
        raise ValueError(
            f"{op}: out_layout '{out_layout}' differs from the input layout '{layout}'; "
            f"only the input layout is supported (convert with relay.layout_transform)"
        )
    sizes = (
        []
        if output_size is None
        else [output_size]
        if isinstance(output_size, int)
        else list(output_size)
    )
    return {"output_size": attrs.ints(sizes), "layout": attrs.str_(layout)}


def adaptive_avg_pool2d(
    data: Expr,
    output_size: int | Sequence[int] | None = None,
    layout: str = "NCHW",
    out_layout: str = "",
) -> Call:
    """`relay.nn.adaptive_avg_pool2d(data, output_size=None, layout="NCHW", out_layout="")`."""
    props = _adaptive_props(output_size, layout, out_layout, "adaptive_avg_pool2d")
    return Call(nn_extra.AdaptiveAvgPool2DOp, [data], props)


def adaptive_max_pool2d(
    data: Expr,
    output_size: int | Sequence[int] | None = None,
    layout: str = "NCHW",
    out_layout: str = "",
) -> Call:
    """`relay.nn.adaptive_max_pool2d(data, output_size=None, layout="NCHW", out_layout="")`."""
    props = _adaptive_props(output_size, layout, out_layout, "adaptive_max_pool2d")
    return Call(nn_extra.AdaptiveMaxPool2DOp, [data], props)
