"""Builder functions for the sorting relay ops (`relay.topk`, `relay.argsort`, `relay.sort`).

Signatures and defaults are TVM's (`tvm.relay.topk`, ...); `xrelay.relay`
re-exports them. `k` is a static attribute; an expression `k` (not a constant) builds
`relay.dyn.topk`, as in TVM. ONNX's `k` input is folded by the frontend.
"""

from __future__ import annotations

from xrelay.dialects.builder import attrs, dyn
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import algorithm as a


def topk(
    data: Expr,
    k: int | Expr = 1,
    axis: int = -1,
    ret_type: str = "both",
    is_ascend: bool = False,
    dtype: str = "int32",
) -> Call:
    """`relay.topk(data, k=1, axis=-1, ret_type="both", is_ascend=False, dtype="int32")`.

    With `ret_type="both"` the call is tuple-typed: `topk(x, 2)[0]` are the values,
    `[1]` the indices, as TVM's `TupleWrapper`. A `relay.const` `k` is read as the number; any
    other expression builds `relay.dyn.topk` (the kept extent known at run time).
    """
    given = dyn.static_ints(k)
    if isinstance(given, Expr):
        return dyn.topk(data, given, axis, ret_type, is_ascend, dtype)
    if not isinstance(given, int):
        if len(given) != 1:
            raise TypeError(f"k must be one int or an expression, got {list(given)}")
        given = given[0]
    props = {
        "k": attrs.int_(given),
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
