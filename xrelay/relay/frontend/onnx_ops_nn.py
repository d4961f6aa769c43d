"""Converters for ONNX's neural-network ops: Conv, pools, BatchNormalization, Gemm, MatMul, ..."""

from __future__ import annotations

import math

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import nn_conv as NN_CONV
from xrelay.dialects.builder import nn_extra as NN_EXTRA
from xrelay.dialects.builder import nn_pool_nd as NN_POOL
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_ops_math import scalar
from xrelay.relay.frontend.onnx_registry import Node, Result, converter, dtype_of_value


def spatial_pads(
    node: Node,
    in_dims: tuple[int, ...],
    kernel: list[int],
    strides: list[int],
    dilations: list[int],
) -> list[int]:
    """ONNX `pads` (all begins, then all ends), or those `auto_pad` SAME_*/VALID gives."""
    n = len(kernel)
    auto_pad = node.str_attr("auto_pad", "NOTSET")
    if auto_pad in ("NOTSET", ""):
        pads = node.ints_attr("pads", [0] * 2 * n) or [0] * 2 * n
        node.refuse(len(pads) != 2 * n, f"pads {pads} do not have {2 * n} values")
        return pads
    if auto_pad == "VALID":
        return [0] * 2 * n
    node.refuse(auto_pad not in ("SAME_UPPER", "SAME_LOWER"), f"unknown auto_pad '{auto_pad}'")
    node.refuse(ANY in in_dims, f"auto_pad {auto_pad} needs static spatial dims")
    begins: list[int] = []
    ends: list[int] = []
    for size, k, s, d in zip(in_dims, kernel, strides, dilations, strict=True):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        small, large = total // 2, total - total // 2
        begins.append(small if auto_pad == "SAME_UPPER" else large)
        ends.append(large if auto_pad == "SAME_UPPER" else small)
    return begins + ends


@converter("Conv", 1)
def conv_v1(node: Node) -> Result:
    """Conv 1-D, 2-D and 3-D (NC..., OI...) onto nn.conv1d/2d/3d: groups, pads, auto_pad, ..."""
    shape = node.shape(0)
    rank = len(shape)
    node.refuse(rank not in (3, 4, 5), f"only 1-D, 2-D and 3-D Conv are supported (rank {rank})")
    n = rank - 2
    w_shape = node.static_shape(1, "the Conv weight")
    kernel = node.ints_attr("kernel_shape", w_shape[2:]) or list(w_shape[2:])
    node.refuse(list(kernel) != list(w_shape[2:]), f"kernel_shape {kernel} != weight {w_shape}")
    strides = node.ints_attr("strides", [1] * n) or [1] * n
    dilations = node.ints_attr("dilations", [1] * n) or [1] * n
    pads = spatial_pads(node, shape[2:], kernel, strides, dilations)
    conv = {1: NN_CONV.conv1d, 2: NN.conv2d, 3: NN_CONV.conv3d}[n]
    out: Expr = conv(
        node.expr(0),
        node.expr(1),
        strides=strides,
        padding=pads,
        dilation=dilations,
        groups=node.int_attr("group", 1),
        channels=w_shape[0],
        kernel_size=kernel,
    )
    if node.has(2):
        out = NN.bias_add(out, node.expr(2), axis=1)
    return out


def ceil_mode_sizes(
    in_dims: tuple[int, ...],
    kernel: list[int],
    strides: list[int],
    dilations: list[int],
    pads: list[int],
) -> list[int] | None:
    """ONNX's ceil_mode output extents, or None where a dim is dynamic.

    ONNX drops a last window that would start in the right padding; relay's
    ceil_mode keeps it, so the caller cuts that window off.
    """
    n = len(kernel)
    sizes: list[int] = []
    for i, size in enumerate(in_dims):
        if size == ANY:
            return None
        span = size + pads[i] + pads[i + n] - ((kernel[i] - 1) * dilations[i] + 1)
        out = -(-span // strides[i]) + 1
        if (out - 1) * strides[i] >= size + pads[i]:
            out -= 1
        sizes.append(out)
    return sizes


def pool_nd(
    node: Node,
    x: Expr,
    kind: str,
    windows: tuple[list[int], list[int], list[int], list[int]],
    ceil_mode: bool,
    count_include_pad: bool = False,
) -> Expr:
    """`nn.max_poolNd` or `nn.avg_poolNd` (N from the kernel) with ONNX's ceil_mode:
    relay's ceil mode, then the windows ONNX drops (starting in the right padding)
    cut off."""
    kernel, strides, dilations, pads = windows
    n = len(kernel)
    wanted = None
    if ceil_mode:
        wanted = ceil_mode_sizes(node.shape(0)[2:], kernel, strides, dilations, pads)
        node.refuse(wanted is None, "ceil_mode needs static spatial dims")
    out: Expr
    if kind == "max":
        fn = {1: NN_POOL.max_pool1d, 2: NN.max_pool2d, 3: NN_POOL.max_pool3d}[n]
        out = fn(x, kernel, strides, dilations, pads, ceil_mode=ceil_mode)
    else:
        fn_avg = {1: NN_POOL.avg_pool1d, 2: NN.avg_pool2d, 3: NN_POOL.avg_pool3d}[n]
        out = fn_avg(
            x,
            kernel,
            strides,
            dilations,
            pads,
            ceil_mode=ceil_mode,
            count_include_pad=count_include_pad,
        )
    if wanted is not None and list(_shape(out)[2:]) != wanted:
        axes = list(range(2, 2 + n))
        out = T.strided_slice(out, [0] * n, wanted, [1] * n, axes)
    return out


def _pool(node: Node, is_max: bool) -> Result:
    shape = node.shape(0)
    rank = len(shape)
    node.refuse(rank not in (3, 4, 5), f"only 1-D, 2-D and 3-D pooling are supported (rank {rank})")
    node.refuse(node.num_outputs > 1, "the Indices output is not supported")
    n = rank - 2
    kernel = node.ints_attr("kernel_shape") or []
    node.refuse(len(kernel) != n, f"kernel_shape {kernel} does not have {n} dims")
    strides = node.ints_attr("strides", [1] * n) or [1] * n
    dilations = node.ints_attr("dilations", [1] * n) or [1] * n
    pads = spatial_pads(node, shape[2:], kernel, strides, dilations)
    ceil_mode = bool(node.int_attr("ceil_mode", 0))
    include = bool(node.int_attr("count_include_pad", 0))
    windows = (kernel, strides, dilations, pads)
    return pool_nd(node, node.expr(0), "max" if is_max else "avg", windows, ceil_mode, include)


@converter("MaxPool", 1)
def max_pool_v1(node: Node) -> Result:
    """MaxPool 1-D, 2-D and 3-D; the optional Indices output is unsupported."""
    return _pool(node, True)


@converter("AveragePool", 1)
def average_pool_v1(node: Node) -> Result:
    """AveragePool 1-D, 2-D and 3-D (count_include_pad, ceil_mode, dilations)."""
    return _pool(node, False)


@converter(("GlobalAveragePool", "GlobalMaxPool"), 1)
def global_pool_v1(node: Node) -> Result:
    """Global pools: the 2-D relay op on 4-D input, a keepdims mean/max otherwise."""
    rank = node.rank(0)
    node.refuse(rank < 3, f"input rank {rank} < 3")
    x = node.expr(0)
    is_avg = node.op_type == "GlobalAveragePool"
    if rank == 4:
        return NN.global_avg_pool2d(x) if is_avg else NN.global_max_pool2d(x)
    axes = list(range(2, rank))
    return T.mean(x, axes, keepdims=True) if is_avg else T.max(x, axes, keepdims=True)


@converter("BatchNormalization", 1)
def batch_norm_v1(node: Node) -> Result:
    """BatchNormalization at inference (the running mean and variance); training refused."""
    node.refuse(node.int_attr("training_mode", 0) != 0, "training_mode=1 is not supported")
    node.refuse(node.opset < 7 and node.int_attr("is_test", 1) == 0, "is_test=0 (training)")
    node.refuse(node.rank(0) < 2, "input rank < 2")
    out = NN.batch_norm(
        node.expr(0),
        node.expr(1),
        node.expr(2),
        node.expr(3),
        node.expr(4),
        axis=1,
        epsilon=node.float_attr("epsilon", 1e-5),
    )
    return [out[0]]


@converter("Gemm", 1)
def gemm_v1(node: Node) -> Result:
    """Gemm: alpha * A' @ B' + beta * C, as nn.dense (+ scaling, + bias)."""
    node.refuse(node.rank(0) != 2 or node.rank(1) != 2, "Gemm needs 2-D A and B")
    a, b = node.expr(0), node.expr(1)
    if node.int_attr("transA", 0):
        a = T.transpose(a, [1, 0])
    if not node.int_attr("transB", 0):
        b = T.transpose(b, [1, 0])
    out: Expr = NN.dense(a, b)
    alpha, beta = node.float_attr("alpha", 1.0), node.float_attr("beta", 1.0)
    if alpha != 1.0:
        out = E.multiply(out, scalar(alpha, out))
    if node.has(2) and beta != 0.0:
        c = node.expr(2)
        if beta != 1.0:
            c = E.multiply(c, scalar(beta, c))
        out = E.add(out, c)
    return out


@converter("MatMul", 1)
def matmul_v1(node: Node) -> Result:
    """MatMul, numpy semantics: 1-D operands get a unit dim that is removed after; two 3-D
    operands whose batches agree (or one is 1) are nn.batch_matmul."""
    a, b = node.expr(0), node.expr(1)
    rank_a, rank_b = node.rank(0), node.rank(1)
    if rank_a == rank_b == 3:
        batch_a, batch_b = node.shape(0)[0], node.shape(1)[0]
        if batch_a == batch_b != ANY or 1 in (batch_a, batch_b):
            return NN_EXTRA.batch_matmul(a, b, transpose_b=False)
    if rank_a == 1:
        a = T.expand_dims(a, 0)
    if rank_b == 1:
        b = T.expand_dims(b, 1)
    out: Expr = T.matmul(a, b)
    if rank_b == 1:
        out = T.squeeze(out, [-1 + len(_shape(out))])
    if rank_a == 1:
        out = T.squeeze(out, [len(_shape(out)) - 2 if rank_b != 1 else len(_shape(out)) - 1])
    return out


def _shape(expr: Expr) -> tuple[int, ...]:
    from xrelay.relay.frontend.onnx_registry import shape_of_value

    return shape_of_value(expr)


def _softmax(node: Node, log: bool) -> Result:
    rank = node.rank(0)
    default = -1 if node.opset >= 13 else 1
    axis = node.int_attr("axis", default)
    node.refuse(not -rank <= axis < max(rank, 1), f"axis {axis} out of range")
    axis %= max(rank, 1)
    fn = NN.log_softmax if log else NN.softmax
    x = node.expr(0)
    if node.opset >= 13 or axis == rank - 1:
        return fn(x, axis)
    shape = node.static_shape(0, "Softmax before opset 13 (flattened at axis)")
    flat = T.reshape(x, [math.prod(shape[:axis]), math.prod(shape[axis:])])
    return T.reshape(fn(flat, 1), list(shape))


@converter("Softmax", 1)
def softmax_v1(node: Node) -> Result:
    """Softmax: before opset 13 over the input flattened to 2-D at `axis`, then over `axis`."""
    return _softmax(node, False)


@converter("LogSoftmax", 1)
def log_softmax_v1(node: Node) -> Result:
    """LogSoftmax: as Softmax."""
    return _softmax(node, True)


@converter("LpNormalization", 1)
def lp_normalization_v1(node: Node) -> Result:
    """LpNormalization (p 1 or 2) along `axis`; a zero norm gives 0."""
    p = node.int_attr("p", 2)
    node.refuse(p not in (1, 2), f"p={p} (only 1 and 2)")
    x = node.expr(0)
    axis = node.int_attr("axis", -1)
    norm = (
        T.sum(E.abs(x), [axis], keepdims=True)
        if p == 1
        else E.sqrt(T.sum(E.multiply(x, x), [axis], keepdims=True))
    )
    zero = scalar(0, x)
    return E.where(E.equal(norm, zero), zero, E.divide(x, norm))


@converter("MeanVarianceNormalization", 9)
def mvn_v9(node: Node) -> Result:
    """MeanVarianceNormalization: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9) over `axes`."""
    axes = node.ints_attr("axes", [0, 2, 3]) or [0, 2, 3]
    x = node.expr(0)
    mean = T.mean(x, axes, keepdims=True)
    mean_sq = T.mean(E.multiply(x, x), axes, keepdims=True)
    std = E.sqrt(E.subtract(mean_sq, E.multiply(mean, mean)))
    return E.divide(E.subtract(x, mean), E.add(std, scalar(1e-9, x)))


def _hardmax_last(x: Expr, axis: int, shape: tuple[int, ...]) -> Expr:
    """1 at the first maximum along `axis`: argmax compared with a constant iota."""
    first = T.argmax(x, [axis], keepdims=True)
    iota_shape = [1] * len(shape)
    iota_shape[axis] = shape[axis]
    iota = const(np.arange(shape[axis], dtype=np.int32).reshape(iota_shape), "int32")
    return E.cast(E.equal(first, iota), dtype_of_value(x))


@converter("Hardmax", 1)
def hardmax_v1(node: Node) -> Result:
    """Hardmax: before opset 13 over the input flattened to 2-D at `axis`, then over `axis`."""
    shape = node.static_shape(0, "Hardmax")
    rank = len(shape)
    default = -1 if node.opset >= 13 else 1
    axis = node.int_attr("axis", default)
    node.refuse(not -rank <= axis < max(rank, 1), f"axis {axis} out of range")
    axis %= max(rank, 1)
    x = node.expr(0)
    if node.opset >= 13 or axis == rank - 1:
        return _hardmax_last(x, axis, shape)
    flat_shape = (math.prod(shape[:axis]), math.prod(shape[axis:]))
    flat = _hardmax_last(T.reshape(x, list(flat_shape)), 1, flat_shape)
    return T.reshape(flat, list(shape))
