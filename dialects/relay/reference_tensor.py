"""Reference semantics of the tensor-manipulation, reduction and matmul relay ops, in numpy.

Output shapes come from the ops' own shape functions applied to the concrete
input shapes, so dynamic (`?`) dims are resolved at run time exactly as the
type inference would resolve them; a shape error that only shows at run time
(a `?` dim of the wrong size) is an evaluation error naming the op.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.ir import Operation
from xrelay.dialects.interpreter import Evaluator, ReferenceFn, Value, reference
from xrelay.dialects.relay import creation as c
from xrelay.dialects.relay import reduce as r
from xrelay.dialects.relay import tensor as t
from xrelay.dialects.relay.base import (
    RelayTypeError,
    get_bool,
    get_int,
    get_ints,
    get_opt_int,
    get_opt_ints,
)
from xrelay.dialects.relay.reference_scalar import float_to_int, int_divide, reduce_identity
from xrelay.dialects.relay.types import is_float_dtype, numpy_dtype

Array = npt.NDArray[Any]


def checked_reference(*op_types: type[Operation]) -> Callable[[ReferenceFn], ReferenceFn]:
    """`reference`, with shape errors found at run time raised as `ValueError`.

    The interpreter reports a `ValueError` as an evaluation error of the op.
    """

    def register(fn: ReferenceFn) -> ReferenceFn:
        @functools.wraps(fn)
        def checked(ev: Evaluator, op: Any, args: list[Value]) -> Value:
            try:
                return fn(ev, op, args)
            except RelayTypeError as error:
                raise ValueError(str(error.args[0])) from None

        reference(*op_types)(checked)
        return fn

    return register


def _shape(x: Array) -> tuple[int, ...]:
    return tuple(int(d) for d in x.shape)


@checked_reference(t.ReshapeOp)
def _reshape(ev: Evaluator, op: t.ReshapeOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    props = dict(op.properties)
    out = t.reshape_shape(_shape(x), get_ints(props, "newshape"), get_bool(props, "allowzero"))
    return x.reshape(out)


@checked_reference(t.TransposeOp)
def _transpose(ev: Evaluator, op: t.TransposeOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return np.transpose(x, t.transpose_axes(x.ndim, get_opt_ints(dict(op.properties), "axes")))


@checked_reference(t.SqueezeOp)
def _squeeze(ev: Evaluator, op: t.SqueezeOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    axes = t.squeeze_axes(_shape(x), get_opt_ints(dict(op.properties), "axis"))
    return np.squeeze(x, axis=tuple(axes))


@checked_reference(t.ExpandDimsOp)
def _expand_dims(ev: Evaluator, op: t.ExpandDimsOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    out = t.expand_dims_shape(_shape(x), op.axis.value.data, op.num_newaxis.value.data)
    return x.reshape(out)


@checked_reference(t.ConcatenateOp)
def _concatenate(ev: Evaluator, op: t.ConcatenateOp, args: list[Value]) -> Value:
    arrays = [np.asarray(a) for a in args]
    return np.concatenate(arrays, axis=op.axis.value.data)


@checked_reference(t.SplitOp)
def _split(ev: Evaluator, op: t.SplitOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    axis = op.axis.value.data % x.ndim
    sizes = t.split_sizes(x.shape[axis], t.get_indices_or_sections(dict(op.properties)), axis)
    points = np.cumsum(sizes)[:-1]
    return tuple(np.split(x, points, axis=axis))


def layout_transform_array(x: Array, src_layout: str, dst_layout: str) -> Array:
    """Re-lay an array from `src_layout` to `dst_layout` (blocked layouts included)."""
    t.layout_transform_shape(_shape(x), src_layout, dst_layout)  # checks sizes
    src = t.parse_layout(src_layout, "src_layout")
    dst = t.parse_layout(dst_layout, "dst_layout")
    names = [name for name, _ in src]
    primal = [name for name, factor in src if not factor]
    # 1. gather each primal axis with its sub-axis (outer, inner) and merge them
    perm: list[int] = []
    for name in primal:
        perm.append(names.index(name))
        if name.lower() in names:
            perm.append(names.index(name.lower()))
    sizes = [x.shape[names.index(n)] * t.layout_factor(src, n) for n in primal]
    y = np.transpose(x, perm).reshape(sizes)
    # 2. split each primal axis by its factor in dst_layout, then order as dst_layout
    split_shape: list[int] = []
    split_names: list[str] = []
    for name, size in zip(primal, sizes, strict=True):
        factor = t.layout_factor(dst, name)
        if any(n == name.lower() for n, _ in dst):
            split_shape += [size // factor, factor]
            split_names += [name, name.lower()]
        else:
            split_shape.append(size)
            split_names.append(name)
    y = y.reshape(split_shape)
    return np.transpose(y, [split_names.index(name) for name, _ in dst])


@checked_reference(t.LayoutTransformOp)
def _layout_transform(ev: Evaluator, op: t.LayoutTransformOp, args: list[Value]) -> Value:
    return layout_transform_array(np.asarray(args[0]), op.src_layout.data, op.dst_layout.data)


@checked_reference(t.StridedSliceOp)
def _strided_slice(ev: Evaluator, op: t.StridedSliceOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    for axis, (begin, end, stride) in t.slice_params(dict(op.properties), x.ndim).items():
        dim = x.shape[axis]
        count = t.slice_extent(dim, (begin, end, stride), axis)
        lo, hi = (-1, dim - 1) if stride < 0 else (0, dim)
        start = min(max(begin + dim if begin < 0 else begin, lo), hi)
        x = np.take(x, start + stride * np.arange(count, dtype=np.int64), axis=axis)
    return x


def _normalize_indices(indices: Array, size: int, mode: str) -> Array:
    if mode == "clip":
        return np.clip(indices, 0, max(size - 1, 0))
    if mode == "wrap":
        return np.mod(indices, size)
    if indices.size and (indices.min() < -size or indices.max() >= size):
        raise IndexError(f"index out of range for a dim of size {size} (mode 'fast')")
    return np.where(indices < 0, indices + size, indices)


@checked_reference(t.TakeOp)
def _take(ev: Evaluator, op: t.TakeOp, args: list[Value]) -> Value:
    data, indices = np.asarray(args[0]), np.asarray(args[1]).astype(np.int64)
    props = dict(op.properties)
    axis = get_opt_int(props, "axis")
    mode = op.mode.data
    if axis is None:
        flat = data.reshape(-1)
        return flat[_normalize_indices(indices, flat.size, mode)]
    axis %= data.ndim
    batch_dims = get_int(props, "batch_dims")
    batch_dims = batch_dims + indices.ndim if batch_dims < 0 else batch_dims
    indices = _normalize_indices(indices, data.shape[axis], mode)
    if batch_dims == 0:
        return np.take(data, indices, axis=axis)
    out_shape = t.take_shape(_shape(data), _shape(indices), axis, batch_dims)
    out = np.empty(out_shape, dtype=data.dtype)
    for batch in np.ndindex(*data.shape[:batch_dims]):
        out[batch] = np.take(data[batch], indices[batch], axis=axis - batch_dims)
    return out


@checked_reference(c.ZerosOp, c.OnesOp)
def _fill(ev: Evaluator, op: c.ZerosOp | c.OnesOp, args: list[Value]) -> Value:
    value = 0 if isinstance(op, c.ZerosOp) else 1
    return np.full(get_ints(dict(op.properties), "shape"), value, numpy_dtype(op.dtype))


def _fill_value(value: Value, dtype: np.dtype[Any]) -> Array:
    """A fill value converted to `dtype` as `cast` converts it (float -> integer saturates)."""
    x = np.asarray(value)
    if is_float_dtype(x.dtype) and np.issubdtype(dtype, np.integer):
        return float_to_int(x, dtype)
    return x


@checked_reference(c.FullOp)
def _full(ev: Evaluator, op: c.FullOp, args: list[Value]) -> Value:
    dtype = numpy_dtype(op.result.type.get_element_type())
    return np.full(get_ints(dict(op.properties), "shape"), _fill_value(args[0], dtype), dtype)


@checked_reference(c.FullLikeOp)
def _full_like(ev: Evaluator, op: c.FullLikeOp, args: list[Value]) -> Value:
    data = np.asarray(args[0])
    return np.full(data.shape, _fill_value(args[1], data.dtype), data.dtype)


@checked_reference(c.ZerosLikeOp, c.OnesLikeOp)
def _fill_like(ev: Evaluator, op: c.ZerosLikeOp | c.OnesLikeOp, args: list[Value]) -> Value:
    data = np.asarray(args[0])
    return np.full(data.shape, 0 if isinstance(op, c.ZerosLikeOp) else 1, data.dtype)


# --------------------------------------------------------------------------- #
# reductions, matmul
# --------------------------------------------------------------------------- #


def _mean(x: Array, axes: tuple[int, ...], keepdims: bool) -> Array:
    count = math.prod(x.shape[a] for a in axes)
    if is_float_dtype(x.dtype):  # an empty mean is 0 / 0: NaN
        with np.errstate(all="ignore"):
            total = np.sum(x, axis=axes, keepdims=keepdims, dtype=np.float64)
            return (total / count).astype(x.dtype)
    total = np.sum(x, axis=axes, keepdims=keepdims, dtype=np.int64)
    # TVM divides the integer sum by the count, truncating towards zero.
    return int_divide(total, count).astype(x.dtype)  # an empty mean: 0


@checked_reference(r.SumOp, r.MeanOp, r.MaxOp, r.MinOp, r.ProdOp)
def _reduce(ev: Evaluator, op: r.ReduceOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    axes_list, keepdims = r.reduce_params(dict(op.properties), x.ndim)
    axes = tuple(axes_list)
    if isinstance(op, r.MeanOp):
        return _mean(x, axes, keepdims)
    if isinstance(op, r.MaxOp | r.MinOp):
        is_max = isinstance(op, r.MaxOp)
        pick = np.max if is_max else np.min
        if math.prod(x.shape[a] for a in axes) == 0:  # empty: the identity of max / min
            return pick(x, axis=axes, keepdims=keepdims, initial=reduce_identity(x.dtype, is_max))
        return pick(x, axis=axes, keepdims=keepdims)
    # Sum and product wrap around in the data's dtype, as TVM's do.
    if isinstance(op, r.ProdOp):
        return np.prod(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
    return np.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)


@checked_reference(r.ArgmaxOp, r.ArgminOp)
def _arg_reduce(ev: Evaluator, op: r.ArgReduceOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    axes, keepdims = r.reduce_params(dict(op.properties), x.ndim)
    kept = [a for a in range(x.ndim) if a not in axes]
    count = math.prod(x.shape[a] for a in axes)
    moved = np.transpose(x, kept + axes).reshape([x.shape[a] for a in kept] + [count])
    pick = np.argmax if isinstance(op, r.ArgmaxOp) else np.argmin
    if count == 0:  # nothing to pick: -1
        return np.full(r.reduce_shape(_shape(x), axes, keepdims), -1, np.int32)
    if get_bool(dict(op.properties), "select_last_index"):
        index = count - 1 - pick(moved[..., ::-1], axis=-1)
    else:
        index = pick(moved, axis=-1)
    return index.reshape(r.reduce_shape(_shape(x), axes, keepdims)).astype(np.int32)


@checked_reference(r.MatmulOp)
def _matmul(ev: Evaluator, op: r.MatmulOp, args: list[Value]) -> Value:
    a, b = np.asarray(args[0]), np.asarray(args[1])
    if op.transpose_a.value.data:
        a = np.swapaxes(a, -1, -2)
    if op.transpose_b.value.data:
        b = np.swapaxes(b, -1, -2)
    acc = np.float64 if is_float_dtype(a.dtype) else np.int64
    out_dtype = numpy_dtype(op.result.type.get_element_type())
    return np.matmul(a.astype(acc), b.astype(acc)).astype(out_dtype)
