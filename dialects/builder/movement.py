"""Builder functions for the data-movement, indexing, scan and shape relay ops added for the
ONNX frontend (`relay.broadcast_to`, `relay.gather`, `relay.cumsum`, ...).

Signatures and defaults are TVM's; `xrelay.relay` re-exports everything in `__all__`.
Where TVM takes a scalar expression for what is a static property here (`trilu`'s `k`,
`arange`'s bounds), a number or a scalar `relay.const` is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs, dyn
from xrelay.dialects.builder.expr import Call, Constant, Expr
from xrelay.dialects.relay import indexing as ix
from xrelay.dialects.relay import movement as m
from xrelay.dialects.relay import scan as s
from xrelay.dialects.relay.types import shape_of as type_shape

__all__ = [
    "arange",
    "broadcast_to",
    "cumprod",
    "cumsum",
    "gather",
    "gather_nd",
    "ndarray_size",
    "one_hot",
    "reverse",
    "scatter_elements",
    "scatter_nd",
    "shape_of",
    "tile",
    "trilu",
]


def _number(value: float | Expr, what: str) -> float:
    """A number, or the value of a scalar constant expression."""
    if isinstance(value, Constant):
        if value.data.ndim != 0:
            raise ValueError(f"{what} must be a scalar, got shape {value.data.shape}")
        return float(value.data)
    if isinstance(value, Expr):
        raise ValueError(f"{what} must be a number or a constant, got a computed expression")
    return float(value)


def broadcast_to(data: Expr, shape: Sequence[int] | Expr) -> Call:
    """`relay.broadcast_to(data, shape)`: numpy broadcasting to a static shape; an expression
    shape builds `relay.dyn.broadcast_to`."""
    static = dyn.static_ints(shape)
    if isinstance(static, Expr):
        return dyn.broadcast_to(data, static)
    return Call(m.BroadcastToOp, [data], {"shape": attrs.ints(static)})


def tile(data: Expr, reps: Sequence[int] | Expr) -> Call:
    """`relay.tile(data, reps)`; an expression `reps` builds `relay.dyn.tile`."""
    static = dyn.static_ints(reps)
    if isinstance(static, Expr):
        return dyn.tile(data, static)
    return Call(m.TileOp, [data], {"reps": attrs.ints(static)})


def reverse(data: Expr, axis: int) -> Call:
    """`relay.reverse(data, axis)`."""
    return Call(m.ReverseOp, [data], {"axis": attrs.int_(axis)})


def trilu(data: Expr, k: int | Expr, upper: bool = True) -> Call:
    """`relay.trilu(data, k, upper=True)`; `k` is an int or a scalar integer constant."""
    offset = _number(k, "k")
    if offset != int(offset):
        raise ValueError(f"k must be an integer, got {offset}")
    props = {"k": attrs.int_(int(offset)), "upper": attrs.bool_(upper)}
    return Call(m.TriluOp, [data], props)


def gather(data: Expr, axis: int, indices: Expr) -> Call:
    """`relay.gather(data, axis, indices)` (ONNX's GatherElements)."""
    return Call(ix.GatherOp, [data, indices], {"axis": attrs.int_(axis)})


def gather_nd(
    data: Expr, indices: Expr, batch_dims: int = 0, index_rank: int | None = None
) -> Call:
    """`relay.gather_nd(data, indices, batch_dims=0, index_rank=None)`: the index tuple on the
    first axis of `indices`; `index_rank`, if given, must be that axis' static size."""
    call = Call(ix.GatherNDOp, [data, indices], {"batch_dims": attrs.int_(batch_dims)})
    depth = type_shape(indices.checked_type)[0]
    if index_rank is not None and index_rank != depth:
        raise ValueError(f"index_rank {index_rank} differs from indices' first dim {depth}")
    return call


def scatter_elements(
    data: Expr, indices: Expr, updates: Expr, axis: int = 0, reduction: str = "update"
) -> Call:
    """`relay.scatter_elements(data, indices, updates, axis=0, reduction="update")`."""
    props = {"axis": attrs.int_(axis), "reduction": attrs.str_(reduction)}
    return Call(ix.ScatterElementsOp, [data, indices, updates], props)


def scatter_nd(data: Expr, indices: Expr, updates: Expr, mode: str = "update") -> Call:
    """`relay.scatter_nd(data, indices, updates, mode="update")`."""
    return Call(ix.ScatterNDOp, [data, indices, updates], {"mode": attrs.str_(mode)})


def one_hot(
    indices: Expr, on_value: Expr, off_value: Expr, depth: int, axis: int, dtype: str
) -> Call:
    """`relay.one_hot(indices, on_value, off_value, depth, axis, dtype)`."""
    props = {"depth": attrs.int_(depth), "axis": attrs.int_(axis), "dtype": attrs.dtype(dtype)}
    return Call(ix.OneHotOp, [indices, on_value, off_value], props)


def _scan_props(
    axis: int | None, dtype: str | None, exclusive: bool | None
) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {"exclusive": attrs.bool_(bool(exclusive))}
    if axis is not None:
        props["axis"] = attrs.int_(axis)
    if dtype is not None:
        props["dtype"] = attrs.dtype(dtype)
    return props


def cumsum(
    data: Expr, axis: int | None = None, dtype: str | None = None, exclusive: bool | None = None
) -> Call:
    """`relay.cumsum(data, axis=None, dtype=None, exclusive=None)`."""
    return Call(s.CumsumOp, [data], _scan_props(axis, dtype, exclusive))


def cumprod(
    data: Expr, axis: int | None = None, dtype: str | None = None, exclusive: bool | None = None
) -> Call:
    """`relay.cumprod(data, axis=None, dtype=None, exclusive=None)`."""
    return Call(s.CumprodOp, [data], _scan_props(axis, dtype, exclusive))


def arange(
    start: float | Expr,
    stop: float | Expr | None = None,
    step: float | Expr | None = None,
    dtype: str = "float32",
) -> Call:
    """`relay.arange(start, stop=None, step=None, dtype="float32")`: numbers or scalar
    constants (one argument: `arange(stop)`)."""
    first = _number(start, "start")
    low, high = (0.0, first) if stop is None else (first, _number(stop, "stop"))
    props = {
        "start": attrs.float_(low),
        "stop": attrs.float_(high),
        "step": attrs.float_(1.0 if step is None else _number(step, "step")),
        "dtype": attrs.dtype(dtype),
    }
    return Call(s.ArangeOp, [], props)


def shape_of(data: Expr, dtype: str = "int32") -> Call:
    """`relay.shape_of(data, dtype="int32")`."""
    return Call(s.ShapeOfOp, [data], {"dtype": attrs.dtype(dtype)})


def ndarray_size(data: Expr, dtype: str = "int32") -> Call:
    """`relay.ndarray_size(data, dtype="int32")`."""
    return Call(s.NdarraySizeOp, [data], {"dtype": attrs.dtype(dtype)})
