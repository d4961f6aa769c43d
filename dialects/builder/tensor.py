"""Builder functions for tensor-manipulation, reduction and matmul relay ops (`relay.reshape`, ...).

Signatures and defaults are TVM's (`tvm.relay.reshape`, `tvm.relay.sum`, ...);
`xrelay.relay` re-exports everything in `__all__` at its top level.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs, dyn
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Call, Expr, Tuple, TupleGetItem
from xrelay.dialects.relay import creation as c
from xrelay.dialects.relay import reduce as r
from xrelay.dialects.relay import tensor as t
from xrelay.dialects.relay.types import is_tuple, tuple_elements

__all__ = [
    "argmax",
    "argmin",
    "concatenate",
    "expand_dims",
    "full",
    "full_like",
    "layout_transform",
    "matmul",
    "max",
    "mean",
    "min",
    "ones",
    "ones_like",
    "prod",
    "reshape",
    "split",
    "squeeze",
    "strided_slice",
    "sum",
    "take",
    "transpose",
    "zeros",
    "zeros_like",
]

IntOrSeq = int | Sequence[int]


def reshape(data: Expr, newshape: IntOrSeq | Expr, allowzero: bool = False) -> Call:
    """`relay.reshape(data, newshape, allowzero=False)`; 0, -1, -2, -3, -4 are special.

    An expression `newshape` (not a constant) builds `relay.dyn.reshape`, as in TVM."""
    newshape = dyn.static_ints(newshape)
    if isinstance(newshape, Expr):
        return dyn.reshape(data, newshape, allowzero)
    props: dict[str, Attribute] = {
        "newshape": attrs.ints(newshape),
        "allowzero": attrs.bool_(allowzero),
    }
    return Call(t.ReshapeOp, [data], props)


def transpose(data: Expr, axes: Sequence[int] | None = None) -> Call:
    """`relay.transpose(data, axes=None)`: None reverses the dims."""
    props: dict[str, Attribute] = {} if axes is None else {"axes": attrs.ints(axes)}
    return Call(t.TransposeOp, [data], props)


def squeeze(data: Expr, axis: IntOrSeq | Expr | None = None) -> Call:
    """`relay.squeeze(data, axis=None)`: None removes every static 1-dim; an expression
    `axis` builds `relay.dyn.squeeze`."""
    axis = dyn.static_ints(axis)
    if isinstance(axis, Expr):
        return dyn.squeeze(data, axis)
    props: dict[str, Attribute] = {} if axis is None else {"axis": attrs.ints(axis)}
    return Call(t.SqueezeOp, [data], props)


def expand_dims(data: Expr, axis: int, num_newaxis: int = 1) -> Call:
    """`relay.expand_dims(data, axis, num_newaxis=1)`."""
    props = {"axis": attrs.int_(axis), "num_newaxis": attrs.int_(num_newaxis)}
    return Call(t.ExpandDimsOp, [data], props)


def _fields(data: Expr | Sequence[Expr]) -> list[Expr]:
    """The tensors of a list, a `Tuple` expression, or any tuple-typed expression."""
    if isinstance(data, Tuple):
        return list(data.fields)
    if isinstance(data, Expr):
        if not is_tuple(data.checked_type):
            raise TypeError(f"expected a list or tuple of expressions, got {data.checked_type}")
        return [TupleGetItem(data, i) for i in range(len(tuple_elements(data.checked_type)))]
    return list(data)


def concatenate(data: Expr | Sequence[Expr], axis: int) -> Call:
    """`relay.concatenate(data, axis)`: `data` is a list/tuple of exprs or a tuple expr."""
    return Call(t.ConcatenateOp, _fields(data), {"axis": attrs.int_(axis)})


def split(data: Expr, indices_or_sections: IntOrSeq, axis: int = 0) -> Call:
    """`relay.split(data, indices_or_sections, axis=0)`: a tuple-typed expression.

    Index it (`split(x, 2)[0]`) as TVM's `TupleWrapper`; `.astuple()` is itself.
    """
    ios: Attribute = (
        attrs.int_(indices_or_sections)
        if isinstance(indices_or_sections, int)
        else attrs.ints(indices_or_sections)
    )
    return Call(t.SplitOp, [data], {"indices_or_sections": ios, "axis": attrs.int_(axis)})


def layout_transform(data: Expr, src_layout: str, dst_layout: str) -> Call:
    """`relay.layout_transform(data, src_layout, dst_layout)`."""
    props = {"src_layout": attrs.str_(src_layout), "dst_layout": attrs.str_(dst_layout)}
    return Call(t.LayoutTransformOp, [data], props)


def strided_slice(
    data: Expr,
    begin: IntOrSeq,
    end: IntOrSeq,
    strides: IntOrSeq | None = None,
    axes: IntOrSeq | None = None,
    slice_mode: str = "end",
) -> Call:
    """`relay.strided_slice(data, begin, end, strides=None, axes=None, slice_mode="end")`."""
    props: dict[str, Attribute] = {
        "begin": attrs.ints(begin),
        "end": attrs.ints(end),
        "slice_mode": attrs.str_(slice_mode),
    }
    if strides is not None:
        props["strides"] = attrs.ints(strides)
    if axes is not None:
        props["axes"] = attrs.ints(axes)
    return Call(t.StridedSliceOp, [data], props)


def take(
    data: Expr, indices: Expr, axis: int | None = None, batch_dims: int = 0, mode: str = "clip"
) -> Call:
    """`relay.take(data, indices, axis=None, batch_dims=0, mode="clip")`."""
    props: dict[str, Attribute] = {} if axis is None else {"axis": attrs.int_(axis)}
    props["batch_dims"] = attrs.int_(batch_dims)
    props["mode"] = attrs.str_(mode)
    return Call(t.TakeOp, [data, indices], props)


def _shape_props(shape: IntOrSeq) -> dict[str, Attribute]:
    return {"shape": attrs.ints(shape)}


def zeros(shape: IntOrSeq | Expr, dtype: str) -> Call:
    """`relay.zeros(shape, dtype)`; an expression shape builds `relay.dyn.zeros`."""
    shape = dyn.static_ints(shape)
    if isinstance(shape, Expr):
        return dyn.zeros(shape, dtype)
    return Call(c.ZerosOp, [], {**_shape_props(shape), "dtype": attrs.dtype(dtype)})


def ones(shape: IntOrSeq | Expr, dtype: str) -> Call:
    """`relay.ones(shape, dtype)`; an expression shape builds `relay.dyn.ones`."""
    shape = dyn.static_ints(shape)
    if isinstance(shape, Expr):
        return dyn.ones(shape, dtype)
    return Call(c.OnesOp, [], {**_shape_props(shape), "dtype": attrs.dtype(dtype)})


def _scalar(value: Expr | float) -> Expr:
    return value if isinstance(value, Expr) else const(np.asarray(value))


def full(fill_value: Expr | float, shape: IntOrSeq | Expr = (), dtype: str = "") -> Call:
    """`relay.full(fill_value, shape=(), dtype="")`; "" takes the fill value's dtype; an
    expression shape builds `relay.dyn.full`."""
    shape = dyn.static_ints(shape)
    if isinstance(shape, Expr):
        return dyn.full(_scalar(fill_value), shape, dtype)
    props = _shape_props(shape)
    if dtype:
        props["dtype"] = attrs.dtype(dtype)
    return Call(c.FullOp, [_scalar(fill_value)], props)


def full_like(data: Expr, fill_value: Expr | float) -> Call:
    """`relay.full_like(data, fill_value)`."""
    return Call(c.FullLikeOp, [data, _scalar(fill_value)])


def zeros_like(data: Expr) -> Call:
    """`relay.zeros_like(data)`."""
    return Call(c.ZerosLikeOp, [data])


def ones_like(data: Expr) -> Call:
    """`relay.ones_like(data)`."""
    return Call(c.OnesLikeOp, [data])


def _reduce_props(axis: IntOrSeq | None, keepdims: bool, exclude: bool) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {} if axis is None else {"axis": attrs.ints(axis)}
    props["keepdims"] = attrs.bool_(keepdims)
    props["exclude"] = attrs.bool_(exclude)
    return props


def sum(
    data: Expr, axis: IntOrSeq | None = None, keepdims: bool = False, exclude: bool = False
) -> Call:
    """`relay.sum(data, axis=None, keepdims=False, exclude=False)`."""
    return Call(r.SumOp, [data], _reduce_props(axis, keepdims, exclude))


def mean(
    data: Expr, axis: IntOrSeq | None = None, keepdims: bool = False, exclude: bool = False
) -> Call:
    """`relay.mean(data, axis=None, keepdims=False, exclude=False)`."""
    return Call(r.MeanOp, [data], _reduce_props(axis, keepdims, exclude))


def max(
    data: Expr, axis: IntOrSeq | None = None, keepdims: bool = False, exclude: bool = False
) -> Call:
    """`relay.max(data, axis=None, keepdims=False, exclude=False)`."""
    return Call(r.MaxOp, [data], _reduce_props(axis, keepdims, exclude))


def min(
    data: Expr, axis: IntOrSeq | None = None, keepdims: bool = False, exclude: bool = False
) -> Call:
    """`relay.min(data, axis=None, keepdims=False, exclude=False)`."""
    return Call(r.MinOp, [data], _reduce_props(axis, keepdims, exclude))


def prod(
    data: Expr, axis: IntOrSeq | None = None, keepdims: bool = False, exclude: bool = False
) -> Call:
    """`relay.prod(data, axis=None, keepdims=False, exclude=False)`."""
    return Call(r.ProdOp, [data], _reduce_props(axis, keepdims, exclude))


def argmax(
    data: Expr,
    axis: IntOrSeq | None = None,
    keepdims: bool = False,
    exclude: bool = False,
    select_last_index: bool = False,
) -> Call:
    """`relay.argmax(data, axis=None, keepdims=False, exclude=False, select_last_index=False)`."""
    props = _reduce_props(axis, keepdims, exclude)
    props["select_last_index"] = attrs.bool_(select_last_index)
    return Call(r.ArgmaxOp, [data], props)


def argmin(
    data: Expr,
    axis: IntOrSeq | None = None,
    keepdims: bool = False,
    exclude: bool = False,
    select_last_index: bool = False,
) -> Call:
    """`relay.argmin(data, axis=None, keepdims=False, exclude=False, select_last_index=False)`."""
    props = _reduce_props(axis, keepdims, exclude)
    props["select_last_index"] = attrs.bool_(select_last_index)
    return Call(r.ArgminOp, [data], props)


def matmul(
    tensor_a: Expr,
    tensor_b: Expr,
    transpose_a: bool = False,
    transpose_b: bool = False,
    out_dtype: str = "",
) -> Call:
    """`relay.matmul(tensor_a, tensor_b, transpose_a=False, transpose_b=False, out_dtype="")`.

    numpy-style: operands of rank >= 2 with broadcast batch dims.
    """
    props: dict[str, Attribute] = {
        "transpose_a": attrs.bool_(transpose_a),
        "transpose_b": attrs.bool_(transpose_b),
    }
    if out_dtype:
        props["out_dtype"] = attrs.dtype(out_dtype)
    return Call(r.MatmulOp, [tensor_a, tensor_b], props)
