"""Builder functions for the sorting relay ops (`relay.topk`, `relay.argsort`, `relay.sort`).

Signatures and defaults are TVM's (`tvm.relay.topk`, ...); `xrelay.relay`
re-exports them. `k` is a static attribute: ONNX's `k` input is folded by the
frontend.
"""

from __future__ import annotations

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import algorithm as a


def topk(
    data: Expr,
    k: int = 1,
    axis: int = -1,
    ret_type: str = "both",
    is_ascend: bool = False,
    dtype: str = "int32",
) -> Call:
    """`relay.topk(data, k=1, axis=-1, ret_type="both", is_ascend=False, dtype="int32")`.

    With `ret_type="both"` the call is tuple-typed: `topk(x, 2)[0]` are the values,
    `[1]` the indices, as TVM's `TupleWrapper`.
    """
    props = {
        "k": attrs.int_(k),
        "axis": attrs.int_(axis),
        "ret_type": attrs.str_(ret_type),
        "is_ascend": attrs.bool_(is_ascend),
        "dtype": attrs.dtype(dtype),
    }
    return Call(a.TopKOp, [data], props)


def argsort(data: Expr, axis: int = -1, is_ascend: bool = True, dtype: str = "int32") -> Call:
    """`relay.argsort(data, axis=-1, is_ascend=True, dtype="int32")` (stable)."""
    props = {
        "axis": attrs.int_(axis),
        "is_ascend": attrs.bool_(is_ascend),
        "dtype": attrs.dtype(dtype),
    }
    return Call(a.ArgsortOp, [data], props)


def sort(data: Expr, axis: int = -1, is_ascend: bool = True) -> Call:
    """`relay.sort(data, axis=-1, is_ascend=True)` (stable)."""
    props = {"axis": attrs.int_(axis), "is_ascend": attrs.bool_(is_ascend)}
    return Call(a.SortOp, [data], props)
