"""Reference semantics of `cumsum`, `cumprod`, `arange`, `shape_of` and `ndarray_size`, in numpy
(`scan.py` has the shape rules).

Scans convert the data to the result dtype first (as `cast`), then accumulate floats in
float64 (each output rounded once to the dtype, as the reductions do) and integers in
64 bits, wrapping to the dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import scan as s
from xrelay.dialects.relay.base import get_float, get_opt_int
from xrelay.dialects.relay.reference_scalar import float_to_int
from xrelay.dialects.relay.reference_tensor import checked_reference
from xrelay.dialects.relay.types import is_float_dtype, numpy_dtype

Array = npt.NDArray[Any]


def convert(x: Array, dtype: np.dtype[Any]) -> Array:
    """`x` converted to `dtype` as `cast` converts (float -> integer saturates, NaN is 0)."""
    if is_float_dtype(x.dtype) and np.issubdtype(dtype, np.integer):
        return float_to_int(x, dtype)
    with np.errstate(all="ignore"):
        return x.astype(dtype)


def scan(x: Array, axis: int | None, dtype: np.dtype[Any], product: bool, exclusive: bool) -> Array:
    """A running sum or product of `x` along `axis` (None: flattened), in `dtype`."""
    x = convert(x, dtype)
    if axis is None:
        x, axis = x.reshape(-1), 0
    wide = np.float64 if dtype.kind == "f" else (np.uint64 if dtype.kind == "u" else np.int64)
    y = x.astype(wide)
    if exclusive:
        identity = np.ones_like if product else np.zeros_like
        head = np.zeros(1, np.int64)
        first = identity(np.take(y, head, axis=axis)) if y.shape[axis] else y
        rest = np.take(y, np.arange(y.shape[axis] - 1, dtype=np.int64), axis=axis)
        y = np.concatenate([first, rest], axis)
    with np.errstate(all="ignore"):
        out = np.cumprod(y, axis=axis) if product else np.cumsum(y, axis=axis)
        return out.astype(dtype)


@checked_reference(s.CumsumOp, s.CumprodOp)
def _scan(ev: Evaluator, op: s.CumsumOp | s.CumprodOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    dtype = numpy_dtype(op.result.type.get_element_type())
    axis = get_opt_int(dict(op.properties), "axis")
    axis = None if axis is None else axis % x.ndim
    exclusive = op.exclusive.value.data != 0
    return scan(x, axis, dtype, isinstance(op, s.CumprodOp), exclusive)


@checked_reference(s.ArangeOp)
def _arange(ev: Evaluator, op: s.ArangeOp, args: list[Value]) -> Value:
    props = dict(op.properties)
    start, stop, step = (get_float(props, k) for k in ("start", "stop", "step"))
    values = start + np.arange(s.arange_length(start, stop, step), dtype=np.float64) * step
    return convert(values, numpy_dtype(op.dtype))


@checked_reference(s.ShapeOfOp)
def _shape_of(ev: Evaluator, op: s.ShapeOfOp, args: list[Value]) -> Value:
    return np.array(np.shape(args[0]), dtype=numpy_dtype(op.dtype))


@checked_reference(s.NdarraySizeOp)
def _ndarray_size(ev: Evaluator, op: s.NdarraySizeOp, args: list[Value]) -> Value:
    return np.array(np.size(args[0]), dtype=numpy_dtype(op.dtype))
