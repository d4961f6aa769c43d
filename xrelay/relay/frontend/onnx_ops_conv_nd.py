"""Converters for ONNX's ConvTranspose (onto `nn.conv1d/2d/3d_transpose`) and the Lp
pools (LpPool, GlobalLpPool), composed of power, an average pool and a sum."""

from __future__ import annotations

import math

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import nn_conv as NN_CONV
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_ops_math import scalar
from xrelay.relay.frontend.onnx_ops_nn import ceil_mode_sizes, pool_nd, spatial_pads
from xrelay.relay.frontend.onnx_registry import Node, Result, converter

FLOATS = ("float16", "bfloat16", "float32", "float64")


def _transpose_pads(
    node: Node,
    in_dims: tuple[int, ...],
    kernel: list[int],
    strides: list[int],
    dilations: list[int],
    output_padding: list[int],
) -> list[int]:
    """ONNX's ConvTranspose pads (all begins, then all ends): from `output_shape` or
    `auto_pad` SAME_* (output = input * stride) when given, else `pads`.

    The total padding is split as the spec says: SAME_UPPER puts the smaller half
    first, otherwise the larger half goes first. It may be negative (an output
    larger than the natural one): a negative end is extra `output_padding`.
    """
    n = len(kernel)
    auto_pad = node.str_attr("auto_pad", "NOTSET")
    node.refuse(
        auto_pad not in ("NOTSET", "", "VALID", "SAME_UPPER", "SAME_LOWER"),
        f"unknown auto_pad '{auto_pad}'",
    )
    output_shape = node.ints_attr("output_shape")
    if output_shape is None and auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        output_shape = [d * s for d, s in zip(in_dims, strides, strict=True)]
    if output_shape is None:
        if auto_pad == "VALID":
            return [0] * 2 * n
        pads = node.ints_attr("pads", [0] * 2 * n) or [0] * 2 * n
        node.refuse(len(pads) != 2 * n, f"pads {pads} do not have {2 * n} values")
        return pads
    output_shape = output_shape[-n:]
    node.refuse(len(output_shape) != n, f"output_shape {output_shape} does not have {n} dims")
    node.refuse(ANY in in_dims, "output_shape or auto_pad needs static spatial dims")
    begins: list[int] = []
    ends: list[int] = []
    for size, k, s, d, extra, want in zip(
        in_dims, kernel, strides, dilations, output_padding, output_shape, strict=True
    ):
        total = s * (size - 1) + extra + (k - 1) * d + 1 - want
        small, large = total // 2, total - total // 2
        begins.append(small if auto_pad == "SAME_UPPER" else large)
        ends.append(large if auto_pad == "SAME_UPPER" else small)
    return begins + ends


@converter("ConvTranspose", 1)
def conv_transpose_v1(node: Node) -> Result:
    """ConvTranspose 1-D, 2-D, 3-D (weight `[C, M / group, k...]`, relay's IO... layout):
    pads, output_padding, output_shape, auto_pad, group, dilations."""
    shape = node.shape(0)
    rank = len(shape)
    node.refuse(
        rank not in (3, 4, 5), f"only 1-D, 2-D and 3-D ConvTranspose are supported (rank {rank})"
    )
    n = rank - 2
    w_shape = node.static_shape(1, "the ConvTranspose weight")
    node.refuse(len(w_shape) != rank, f"weight rank {len(w_shape)} != input rank {rank}")
    kernel = node.ints_attr("kernel_shape", w_shape[2:]) or list(w_shape[2:])
    node.refuse(list(kernel) != list(w_shape[2:]), f"kernel_shape {kernel} != weight {w_shape}")
    strides = node.ints_attr("strides", [1] * n) or [1] * n
    dilations = node.ints_attr("dilations", [1] * n) or [1] * n
    output_padding = node.ints_attr("output_padding", [0] * n) or [0] * n
    for name, values in (
        ("strides", strides),
        ("dilations", dilations),
        ("output_padding", output_padding),
    ):
        node.refuse(len(values) != n, f"{name} {values} do not have {n} values")
    pads = _transpose_pads(node, shape[2:], kernel, strides, dilations, output_padding)
    node.refuse(any(p < 0 for p in pads[:n]), f"negative begin pads {pads[:n]}")
    extra = [e + max(0, -p) for e, p in zip(output_padding, pads[n:], strict=True)]
    pads = pads[:n] + [max(0, p) for p in pads[n:]]
    groups = node.int_attr("group", 1)
    conv = {
        1: NN_CONV.conv1d_transpose,
        2: NN_CONV.conv2d_transpose,
        3: NN_CONV.conv3d_transpose,
    }[n]
    out: Expr = conv(
        node.expr(0),
        node.expr(1),
        strides=strides,
        padding=pads,
        dilation=dilations,
        groups=groups,
        channels=w_shape[1] * groups,
        kernel_size=kernel,
        output_padding=extra,
    )
    if node.has(2):
        out = NN.bias_add(out, node.expr(2), axis=1)
    return out


def _lp_parts(node: Node) -> tuple[Expr, float]:
    """|x| ** p, and p."""
    dtype = node.dtype(0)
    node.refuse(dtype not in FLOATS, f"input has element type {dtype}; floats only")
    p = node.float_attr("p", 2.0)
    node.refuse(p <= 0, f"p {p} is not positive")
    x = E.abs(node.expr(0))
    return (x if p == 1 else E.power(x, scalar(p, x))), p


def _root(x: Expr, p: float) -> Expr:
    if p == 1:
        return x
    return E.sqrt(x) if p == 2 else E.power(x, scalar(1 / p, x))


@converter("LpPool", 1)
def lp_pool_v1(node: Node) -> Result:
    """LpPool: (sum over the window of |x| ** p) ** (1 / p), the sum being
    `avg_poolNd(count_include_pad=True)` times the window size (pads add 0)."""
    shape = node.shape(0)
    rank = len(shape)
    node.refuse(rank not in (3, 4, 5), f"only 1-D, 2-D and 3-D LpPool are supported (rank {rank})")
    n = rank - 2
    kernel = node.ints_attr("kernel_shape") or []
    node.refuse(len(kernel) != n, f"kernel_shape {kernel} does not have {n} dims")
    strides = node.ints_attr("strides", [1] * n) or [1] * n
    dilations = node.ints_attr("dilations", [1] * n) or [1] * n
    pads = spatial_pads(node, shape[2:], kernel, strides, dilations)
    if node.int_attr("ceil_mode", 0):
        ceil = ceil_mode_sizes(shape[2:], kernel, strides, dilations, pads)
        floor = [
            (size + pads[i] + pads[i + n] - (kernel[i] - 1) * dilations[i] - 1) // strides[i] + 1
            for i, size in enumerate(shape[2:])
        ]
        # a window past the declared pads would be averaged over fewer elements
        node.refuse(ceil != floor, "ceil_mode with windows past the padding")
    powered, p = _lp_parts(node)
    mean = pool_nd(node, powered, "avg", (kernel, strides, dilations, pads), False, True)
    total = E.multiply(mean, scalar(math.prod(kernel), mean))
    return _root(total, p)


@converter("GlobalLpPool", 1)
def global_lp_pool_v1(node: Node) -> Result:
    """GlobalLpPool: (sum over the spatial dims of |x| ** p) ** (1 / p), keeping them."""
    rank = node.rank(0)
    node.refuse(rank < 3, f"input rank {rank} < 3")
    powered, p = _lp_parts(node)
    return _root(T.sum(powered, list(range(2, rank)), keepdims=True), p)
