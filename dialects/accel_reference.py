"""Reference semantics of the `accel` ops, in numpy: the relay op, then bias, relu, clip.

Each kernel computes what its relay op computes (with relay's numpy helpers
from `relay/reference_nn.py`), cast to the result dtype as the interpreter casts
a relay op's value, then adds the bias along the output channels (and a conv2d's
residual) and clamps at zero, in the result dtype, as relay's `nn.bias_add` and `nn.relu` would: an
accel op gives the same numbers as the relay ops it replaces.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import FloatAttr
from xrelay.dialects import accel
from xrelay.dialects.accel_winograd import winograd_conv2d
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay.base import get_ints, properties_with_defaults
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.reference_nn import (
    batch_norm_data,
    conv2d_data,
    global_avg_pool_data,
    pool2d,
)
from xrelay.dialects.relay.types import is_float_dtype, numpy_dtype, tensor_element_type

Array = npt.NDArray[Any]


def result_dtype(op: accel.AccelOp | accel.Conv2DWinogradOp) -> np.dtype[Any]:
    """The numpy dtype of an accel op's (one) result."""
    return numpy_dtype(tensor_element_type(op.results[0].type))


def clip_bounds(op: accel.AccelOp | accel.Conv2DWinogradOp) -> tuple[float, float] | None:
    """The clip epilogue's `(clip_min, clip_max)`, None without one."""
    props = op.properties
    lo, hi = props.get("clip_min"), props.get("clip_max")
    if not (isinstance(lo, FloatAttr) and isinstance(hi, FloatAttr)):
        return None
    return lo.value.data, hi.value.data


def clipped(out: Array, op: accel.AccelOp | accel.Conv2DWinogradOp) -> Array:
    """`out` clamped by the op's clip epilogue (relay's `clip`: numpy's, NaN kept), if any."""
    bounds = clip_bounds(op)
    if bounds is None:
        return out
    return np.clip(out, out.dtype.type(bounds[0]), out.dtype.type(bounds[1]))


def epilogue(out: Array, bias: Value | None, axis: int, relu: bool) -> Array:
    """`out + bias` along `axis` (when a bias is given), then `max(., 0)` when `relu`."""
    if bias is not None:
        shape = [1] * out.ndim
        shape[axis] = -1
        out = out + np.asarray(bias, out.dtype).reshape(shape)
    if relu:
        out = np.maximum(out, np.zeros((), out.dtype))
    return out


@reference(accel.Conv2DOp)
def _conv2d(ev: Evaluator, op: accel.Conv2DOp, args: list[Value]) -> Value:
    channels = op.data_layout.data.index("C")
    out = conv2d_data(op, args, result_dtype(op))
    out = epilogue(out, args[2] if op.bias is not None else None, channels, False)
    if op.residual is not None:  # of the result's type: in the data layout too
        out = out + np.asarray(args[-1]).astype(out.dtype)
    return clipped(epilogue(out, None, channels, bool(op.has_relu.value.data)), op)


@reference(accel.DenseOp)
def _dense(ev: Evaluator, op: accel.DenseOp, args: list[Value]) -> Value:
    data, weight = np.asarray(args[0]), np.asarray(args[1])
    acc = np.float64 if is_float_dtype(data.dtype) else np.int64
    out = np.matmul(data.astype(acc), weight.astype(acc).T).astype(result_dtype(op))
    bias = args[2] if op.bias is not None else None
    return clipped(epilogue(out, bias, out.ndim - 1, bool(op.has_relu.value.data)), op)


@reference(accel.MaxPool2DOp, accel.AvgPool2DOp)
def _pool2d(ev: Evaluator, op: accel.Pool2DOp, args: list[Value]) -> Value:
    kind = "avg" if isinstance(op, accel.AvgPool2DOp) else "max"
    return pool2d(np.asarray(args[0]), properties_with_defaults(op), kind)


@reference(accel.GlobalAvgPool2DOp)
def _global_avg_pool2d(ev: Evaluator, op: accel.GlobalAvgPool2DOp, args: list[Value]) -> Value:
    return global_avg_pool_data(np.asarray(args[0]), op.layout.data)


_ELEMENTWISE: dict[type[accel.ElementwiseOp], Any] = {
    accel.AddOp: np.add,
    accel.SubtractOp: np.subtract,
    accel.MultiplyOp: np.multiply,
}


@reference(*_ELEMENTWISE)
def _elementwise(ev: Evaluator, op: accel.ElementwiseOp, args: list[Value]) -> Value:
    with np.errstate(all="ignore"):
        out = np.asarray(_ELEMENTWISE[type(op)](args[0], args[1]))
    return epilogue(out, None, 0, bool(op.has_relu.value.data))


@reference(accel.ReluOp)
def _relu(ev: Evaluator, op: accel.ReluOp, args: list[Value]) -> Value:
    return epilogue(np.asarray(args[0]), None, 0, True)


@reference(accel.ClipOp)
def _clip(ev: Evaluator, op: accel.ClipOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return np.clip(x, x.dtype.type(op.a_min.value.data), x.dtype.type(op.a_max.value.data))


@reference(accel.BatchNormOp)
def _batch_norm(ev: Evaluator, op: accel.BatchNormOp, args: list[Value]) -> Value:
    return batch_norm_data(op, args)


@reference(accel.Conv2DWinogradOp)
def _conv2d_winograd(ev: Evaluator, op: accel.Conv2DWinogradOp, args: list[Value]) -> Value:
    padding = pad_2d(get_ints(dict(op.properties), "padding"))
    out = winograd_conv2d(np.asarray(args[0]), np.asarray(args[1]), padding)
    out = epilogue(out.astype(result_dtype(op)), args[2] if op.bias is not None else None, 1, False)
    if op.residual is not None:
        out = out + np.asarray(args[-1]).astype(out.dtype)
    out = clipped(epilogue(out, None, 1, bool(op.has_relu.value.data)), op)
    if op.has_max_pool.value.data:
        n, k, h, w = out.shape
        out = out.reshape(n, k, h // 2, 2, w // 2, 2).max(axis=(3, 5))
    return out
