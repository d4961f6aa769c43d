"""Converters for ONNX's shape computations, folded at import when shapes are static.

`Shape` and `Size` of a static input are known arrays, of a dynamic one
`relay.shape_of` / `relay.ndarray_size`; `ConstantOfShape` and `Range` need
known inputs and give a known array, or `relay.full` / `relay.arange` when the
result is large.
"""

from __future__ import annotations

import numpy as np

from xrelay.dialects.builder import movement as M
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_ops_tensor import known_full
from xrelay.relay.frontend.onnx_registry import FOLD_LIMIT, Node, Result, converter


@converter("Shape", 1)
def shape_v1(node: Node) -> Result:
    """Shape (v15: `start`/`end` slice it), an int64 array when the shape is static."""
    shape = list(node.shape(0))
    rank = len(shape)
    start = node.int_attr("start", 0)
    end = node.int_attr("end", rank)
    start = min(max(start + rank if start < 0 else start, 0), rank)
    end = min(max(end + rank if end < 0 else end, 0), rank)
    dims = shape[start:end]
    if ANY not in dims:
        return np.array(dims, dtype=np.int64)
    out = M.shape_of(node.expr(0), "int64")
    if (start, end) == (0, rank):
        return out
    return T.strided_slice(out, [start], [max(end, start)], [1], [0])


@converter("Size", 1)
def size_v1(node: Node) -> Result:
    """Size: the element count, an int64 scalar (relay.ndarray_size when dynamic)."""
    shape = node.shape(0)
    if ANY in shape:
        return M.ndarray_size(node.expr(0), "int64")
    return np.array(int(np.prod(shape, dtype=np.int64)), dtype=np.int64)


@converter("ConstantOfShape", 9)
def constant_of_shape_v9(node: Node) -> Result:
    """ConstantOfShape: `value` (default float32 0) filling a known shape."""
    shape = node.ints(0, "the shape")
    node.refuse(any(d < 0 for d in shape), f"negative dims in {shape}")
    value = node.attr("value")
    fill = np.zeros(1, np.float32) if value is None else np.asarray(value)
    return known_full(fill, shape)


@converter("Range", 11)
def range_v11(node: Node) -> Result:
    """Range(start, limit, delta) with known inputs: an array, or relay.arange when long."""
    start, limit, delta = (
        node.const(i, what) for i, what in enumerate(("the start", "the limit", "the delta"))
    )
    for value, what in ((start, "the start"), (limit, "the limit"), (delta, "the delta")):
        node.refuse(value.size != 1, f"{what} has {value.size} elements; needs a scalar")
    start, limit, delta = start.reshape(()), limit.reshape(()), delta.reshape(())
    node.refuse(float(delta) == 0, "delta is zero")
    count = max(int(np.ceil((float(limit) - float(start)) / float(delta))), 0)
    if count > FOLD_LIMIT:
        bounds = (float(start), float(limit), float(delta))
        return M.arange(*bounds, dtype=start.dtype.name)
    out = start + np.arange(count).astype(start.dtype) * delta
    return np.asarray(out, dtype=start.dtype)


@converter("EyeLike", 9)
def eye_like_v9(node: Node) -> Result:
    """EyeLike: a known identity-like matrix of the input's shape, diagonal `k`."""
    from xrelay.relay.frontend.onnx_dtypes import relay_dtype

    rows, cols = node.static_shape(0, "EyeLike")
    dtype = node.dtype(0)
    if "dtype" in node.attrs:
        chosen = relay_dtype(node.int_attr("dtype", 1))
        node.refuse(chosen is None, "unsupported dtype")
        dtype = chosen or dtype
    return np.eye(rows, cols, k=node.int_attr("k", 0), dtype=dtype)
