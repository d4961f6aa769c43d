"""Reference semantics of `nn_extra`'s `relay.nn` ops, in numpy."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import nn_extra
from xrelay.dialects.relay.base import (
    get_bool,
    get_int,
    get_ints,
    get_str,
    properties_with_defaults,
)
from xrelay.dialects.relay.reference_nn import to_layout
from xrelay.dialects.relay.reference_scalar import reduce_identity
from xrelay.dialects.relay.types import is_float_dtype, numpy_dtype

Array = npt.NDArray[Any]


@reference(nn_extra.BatchMatmulOp)
def _batch_matmul(ev: Evaluator, op: nn_extra.BatchMatmulOp, args: list[Value]) -> Value:
    x, y = np.asarray(args[0]), np.asarray(args[1])
    props = properties_with_defaults(op)
    if get_bool(props, "transpose_a"):
        x = np.swapaxes(x, 1, 2)
    if get_bool(props, "transpose_b"):
        y = np.swapaxes(y, 1, 2)
    if x.shape[0] != y.shape[0] and 1 not in (x.shape[0], y.shape[0]):
        raise ValueError(f"batch dims {x.shape[0]} and {y.shape[0]} differ and neither is 1")
    acc = np.float64 if is_float_dtype(x.dtype) else np.int64
    out = np.matmul(x.astype(acc), y.astype(acc))
    with np.errstate(over="ignore", invalid="ignore"):
        return out.astype(numpy_dtype(op.result.type.get_element_type()))


@reference(nn_extra.PReluOp)
def _prelu(ev: Evaluator, op: nn_extra.PReluOp, args: list[Value]) -> Value:
    x, alpha = np.asarray(args[0]), np.asarray(args[1])
    axis = get_int(properties_with_defaults(op), "axis") % x.ndim
    shape = [1] * x.ndim
    shape[axis] = alpha.shape[0]
    return np.where(x > 0, x, x * alpha.reshape(shape))


@reference(nn_extra.AdaptiveAvgPool2DOp, nn_extra.AdaptiveMaxPool2DOp)
def _adaptive_pool2d(ev: Evaluator, op: nn_extra.AdaptivePool2DOp, args: list[Value]) -> Value:
    props = properties_with_defaults(op)
    layout = get_str(props, "layout")
    x = to_layout(np.asarray(args[0]), layout, "NCHW")
    n, c, h, w = x.shape
    oh, ow = nn_extra.adaptive_out(get_ints(props, "output_size"), h, w)
    is_max = isinstance(op, nn_extra.AdaptiveMaxPool2DOp)
    out = np.zeros((n, c, oh, ow), x.dtype if is_max else np.float64)
    for i in range(oh):
        top, bottom = nn_extra.adaptive_window(i, oh, h)
        for j in range(ow):
            left, right = nn_extra.adaptive_window(j, ow, w)
            window = x[:, :, top:bottom, left:right]
            if is_max:
                out[:, :, i, j] = window.max(axis=(2, 3), initial=reduce_identity(x.dtype, True))
            else:  # an empty window: 0 / 0, NaN (integers: 0, as global_avg_pool2d)
                count = (bottom - top) * (right - left)
                count = count if count or is_float_dtype(x.dtype) else 1
                with np.errstate(all="ignore"):
                    out[:, :, i, j] = window.astype(np.float64).sum(axis=(2, 3)) / count
    return to_layout(out, "NCHW", layout)
