"""Reference semantics of `nn_extra`'s `relay.nn` ops, in numpy."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import nn_extra
from xrelay.dialects.relay.base import get_bool, get_int, properties_with_defaults
from xrelay.dialects.relay.types import numpy_dtype

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
    acc = np.float64 if np.issubdtype(x.dtype, np.floating) else np.int64
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
