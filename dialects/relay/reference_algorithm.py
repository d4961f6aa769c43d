"""Reference semantics of the sorting relay ops (`topk`, `argsort`, `sort`), in numpy.

One order for all three (docs/semantics.md, "Sorting"): stable along the axis
(equal values keep their index order, ascending and descending alike), NaN above
every number, -0.0 equal to 0.0.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import algorithm as a
from xrelay.dialects.relay.base import Props, get_bool, get_int, get_str
from xrelay.dialects.relay.reference_tensor import checked_reference
from xrelay.dialects.relay.types import numpy_dtype

Array = npt.NDArray[Any]


def stable_order(x: Array, axis: int, ascend: bool) -> Array:
    """The int64 indices that sort `x` along `axis` in the documented order."""
    if ascend:
        return np.argsort(x, axis=axis, kind="stable")
    # Descending with ties in index order: sort the reversed axis ascending (ties then
    # come in decreasing index order), reverse that order, map positions back.
    n = x.shape[axis]
    flipped = np.argsort(np.flip(x, axis=axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(flipped, axis=axis)


@checked_reference(a.TopKOp)
def _topk(ev: Evaluator, op: a.TopKOp, args: list[Value]) -> Value:
    return topk(np.asarray(args[0]), dict(op.properties))


def topk(x: Array, props: Props) -> Value:
    """`relay.topk` of `x` with the op's properties `props` (`k` included)."""
    axis = a.sort_axis(x.shape, props)
    count = a.topk_count(get_int(props, "k"), x.shape[axis], axis)
    order = np.take(stable_order(x, axis, get_bool(props, "is_ascend")), np.arange(count), axis)
    values = np.take_along_axis(x, order, axis=axis)
    indices = order.astype(numpy_dtype(a.index_dtype(props)))
    ret_type = get_str(props, "ret_type")
    if ret_type == "values":
        return values
    if ret_type == "indices":
        return indices
    return (values, indices)


@checked_reference(a.ArgsortOp)
def _argsort(ev: Evaluator, op: a.ArgsortOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    props = dict(op.properties)
    order = stable_order(x, a.sort_axis(x.shape, props), get_bool(props, "is_ascend"))
    return order.astype(numpy_dtype(a.index_dtype(props)))


@checked_reference(a.SortOp)
def _sort(ev: Evaluator, op: a.SortOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    props = dict(op.properties)
    axis = a.sort_axis(x.shape, props)
    return np.take_along_axis(x, stable_order(x, axis, get_bool(props, "is_ascend")), axis=axis)
