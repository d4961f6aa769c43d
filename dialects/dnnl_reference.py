"""Reference semantics of the `dnnl` ops, in numpy: the relay op, then the post-ops.

Each primitive computes what its relay op computes (with relay's numpy helpers
from `relay/reference_*.py`), cast to the result dtype as the interpreter casts
a relay op's value; conv2d and dense then add the bias along the output
channels, the sum operand, and apply the eltwise post-op, each step in the
result dtype, as the relay ops `nn.bias_add`, `add` and `nn.relu` / `tanh` /
`sigmoid` / `clip` would: a dnnl op gives the same numbers as the relay ops it replaces.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects import dnnl
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay.base import get_bool, get_float, properties_with_defaults
from xrelay.dialects.relay.reference_nn import (
    batch_norm_data,
    conv2d_data,
    global_avg_pool_data,
    pool2d,
)
from xrelay.dialects.relay.reference_nn_norm import norm_data
from xrelay.dialects.relay.types import is_float_dtype, numpy_dtype, tensor_element_type

Array = npt.NDArray[Any]


def _relu(x: Array) -> Array:
    return np.maximum(x, np.zeros((), x.dtype))


def _sigmoid(x: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-x))


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _gelu_erf(x: Array) -> Array:
    """`x * 0.5 * (1 + erf(x / sqrt(2)))` in float64, as relay's ops compute it."""
    wide = np.asarray(x, np.float64)
    return wide * 0.5 * (1.0 + _erf(wide / math.sqrt(2.0)))


ELTWISE: dict[str, Callable[[Array], Array]] = {
    "relu": _relu,
    "tanh": np.tanh,
    "sigmoid": _sigmoid,
    "gelu_erf": _gelu_erf,
    "gelu_erf_x2": lambda x: 2.0 * _gelu_erf(x),
}
"""The eltwise functions by post-op name, as relay's references compute them."""


def result_dtype(op: dnnl.DnnlOp) -> np.dtype[Any]:
    """The numpy dtype of a dnnl op's (one) result."""
    return numpy_dtype(tensor_element_type(op.results[0].type))


def post_ops(op: dnnl.PostOpKernel, out: Array, args: list[Value], axis: int) -> Array:
    """`out` (the kernel's value) `+ bias` along `axis`, `+ sum`, then the eltwise."""
    dtype = result_dtype(op)
    out = out.astype(dtype)
    extra = iter(args[2:])
    if op.has_bias.value.data:
        shape = [1] * out.ndim
        shape[axis] = -1
        out = (out + np.asarray(next(extra)).reshape(shape)).astype(dtype)
    if op.has_sum.value.data:
        out = (out + np.asarray(next(extra))).astype(dtype)
    eltwise = dnnl.eltwise_of(op)
    if eltwise == "clip":
        return np.clip(out, *dnnl.clip_bounds(op)).astype(dtype)  # NaN stays NaN
    if eltwise is not None:
        with np.errstate(all="ignore"):
            out = np.asarray(ELTWISE[eltwise](out)).astype(dtype)
    return out


@reference(dnnl.Conv2DOp)
def _conv2d(ev: Evaluator, op: dnnl.Conv2DOp, args: list[Value]) -> Value:
    out = conv2d_data(op, args, result_dtype(op))
    data_layout = op.data_layout.data
    return post_ops(op, out, args, data_layout.index("C"))


@reference(dnnl.DenseOp)
def _dense(ev: Evaluator, op: dnnl.DenseOp, args: list[Value]) -> Value:
    data, weight = np.asarray(args[0]), np.asarray(args[1])
    acc = np.float64 if is_float_dtype(data.dtype) else np.int64
    out = np.matmul(data.astype(acc), weight.astype(acc).T)
    return post_ops(op, out, args, out.ndim - 1)


@reference(dnnl.ReluOp, dnnl.TanhOp, dnnl.SigmoidOp)
def _eltwise(ev: Evaluator, op: dnnl.EltwiseOp, args: list[Value]) -> Value:
    with np.errstate(all="ignore"):
        return ELTWISE[op.name.removeprefix("dnnl.")](np.asarray(args[0]))


_BINARY: dict[type[dnnl.BinaryOp], Callable[[Any, Any], Any]] = {
    dnnl.AddOp: np.add,
    dnnl.SubtractOp: np.subtract,
    dnnl.MultiplyOp: np.multiply,
}


@reference(*_BINARY)
def _binary(ev: Evaluator, op: dnnl.BinaryOp, args: list[Value]) -> Value:
    with np.errstate(all="ignore"):
        return np.asarray(_BINARY[type(op)](args[0], args[1]))


@reference(dnnl.BatchNormOp)
def _batch_norm(ev: Evaluator, op: dnnl.BatchNormOp, args: list[Value]) -> Value:
    return batch_norm_data(op, args)


@reference(dnnl.MaxPool2DOp, dnnl.AvgPool2DOp)
def _pool2d(ev: Evaluator, op: dnnl.Pool2DOp, args: list[Value]) -> Value:
    kind = "avg" if isinstance(op, dnnl.AvgPool2DOp) else "max"
    return pool2d(np.asarray(args[0]), properties_with_defaults(op), kind)


@reference(dnnl.GlobalAvgPool2DOp)
def _global_avg_pool2d(ev: Evaluator, op: dnnl.GlobalAvgPool2DOp, args: list[Value]) -> Value:
    return global_avg_pool_data(np.asarray(args[0]), op.layout.data)


@reference(dnnl.ReorderOp)
def _reorder(ev: Evaluator, op: dnnl.ReorderOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return np.ascontiguousarray(
        np.transpose(x, dnnl.permutation(op.src_layout.data, op.dst_layout.data))
    )


@reference(dnnl.BatchMatmulOp, dnnl.MatmulOp)
def _matmul(ev: Evaluator, op: dnnl.MatmulKernel, args: list[Value]) -> Value:
    x, y = np.asarray(args[0]), np.asarray(args[1])
    props = properties_with_defaults(op)
    if get_bool(props, "transpose_a"):
        x = np.swapaxes(x, -1, -2)
    if get_bool(props, "transpose_b"):
        y = np.swapaxes(y, -1, -2)
    acc = np.float64 if is_float_dtype(x.dtype) else np.int64
    with np.errstate(all="ignore"):
        return np.matmul(x.astype(acc), y.astype(acc)).astype(result_dtype(op))


@reference(dnnl.SoftmaxOp)
def _softmax(ev: Evaluator, op: dnnl.SoftmaxOp, args: list[Value]) -> Value:
    x = np.asarray(args[0]).astype(np.float64)
    axis = op.axis.value.data
    with np.errstate(all="ignore"):
        shifted = x - np.max(x, axis=axis, keepdims=True)
        exp = np.exp(shifted)
        return (exp / np.sum(exp, axis=axis, keepdims=True)).astype(result_dtype(op))


@reference(dnnl.LogSoftmaxOp)
def _log_softmax(ev: Evaluator, op: dnnl.LogSoftmaxOp, args: list[Value]) -> Value:
    x = np.asarray(args[0]).astype(np.float64)
    axis = op.axis.value.data
    with np.errstate(all="ignore"):
        shifted = x - np.max(x, axis=axis, keepdims=True)
        total = np.sum(np.exp(shifted), axis=axis, keepdims=True)
        return (shifted - np.log(total)).astype(result_dtype(op))


@reference(dnnl.LayerNormOp)
def _layer_norm(ev: Evaluator, op: dnnl.LayerNormOp, args: list[Value]) -> Value:
    x, gamma, beta = (np.asarray(a) for a in args)
    props = properties_with_defaults(op)
    axis = op.axis.value.data % x.ndim
    flags = get_bool(props, "center"), get_bool(props, "scale")
    epsilon = get_float(props, "epsilon")
    out = norm_data(x, gamma, beta, dnnl.LayerNormOp.RELAY.name, axis, epsilon, *flags)
    return out.astype(result_dtype(op))
