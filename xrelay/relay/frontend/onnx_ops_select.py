"""Converters whose result shape depends on a value that must be known at import.

NonZero and Compress select by a known mask (NonZero folds; Compress of an
unknown tensor is a `take` with constant indices), CenterCropPad crops and pads
to a known shape (slice + pad), ReverseSequence reverses known lengths (a
`take` with per-batch constant indices). Det of small matrices is its
Leibniz sum over slices; BitCast folds a known input and is refused otherwise
(relay has no bit reinterpretation).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype
from xrelay.relay.frontend.onnx_registry import Node, Result, converter


def _axis(node: Node, axis: int, rank: int) -> int:
    node.refuse(not -rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    return axis % rank


@converter("NonZero", 9)
def nonzero_v9(node: Node) -> Result:
    """NonZero: the int64 indices [rank, count] of a known input's nonzero elements."""
    data = node.const(0, "the input (its nonzero count is the output shape)")
    return np.array(np.nonzero(data), dtype=np.int64).reshape(data.ndim, -1)


@converter("Compress", 9)
def compress_v9(node: Node) -> Result:
    """Compress: the slices along `axis` (flattened without one) where a known condition holds."""
    condition = node.const(1, "the condition (its true count is the output shape)")
    node.refuse(condition.ndim != 1, f"the condition must be 1-D, got rank {condition.ndim}")
    x = node.expr(0)
    axis_attr = node.attrs.get("axis")
    if axis_attr is None:
        size = math.prod(node.static_shape(0, "Compress without an axis"))
        x, axis = T.reshape(x, [size]), 0
    else:
        rank = node.rank(0)
        axis = _axis(node, int(axis_attr), rank)
        size = node.shape(0)[axis]
        node.refuse(size == ANY, "Compress needs a static dim along the axis")
    node.refuse(len(condition) > size, f"the condition has {len(condition)} values for {size}")
    indices = np.nonzero(condition.astype(bool))[0].astype(np.int32)
    return T.take(x, const(indices, "int32"), axis=axis)


@converter("CenterCropPad", 18)
def center_crop_pad_v18(node: Node) -> Result:
    """CenterCropPad: crop (centered, the odd extra from the end) or zero-pad each axis."""
    shape = node.static_shape(0, "CenterCropPad")
    rank = len(shape)
    sizes = node.ints(1, "the target shape")
    axes = node.ints_attr("axes", list(range(rank))) or []
    node.refuse(len(axes) != len(sizes), f"{len(sizes)} sizes for {len(axes)} axes")
    axes = [_axis(node, a, rank) for a in axes]
    node.refuse(len(set(axes)) != len(axes), f"repeated axes {axes}")
    x = node.expr(0)
    begins: list[int] = []
    ends: list[int] = []
    crop_axes: list[int] = []
    pads = [[0, 0] for _ in range(rank)]
    for axis, size in zip(axes, sizes, strict=True):
        dim = shape[axis]
        node.refuse(size < 0, f"negative size {size}")
        if size < dim:
            start = (dim - size) // 2
            begins.append(start)
            ends.append(start + size)
            crop_axes.append(axis)
        elif size > dim:
            before = (size - dim) // 2
            pads[axis] = [before, size - dim - before]
    if crop_axes:
        x = T.strided_slice(x, begins, ends, [1] * len(crop_axes), crop_axes)
    if any(p != [0, 0] for p in pads):
        x = NN.pad(x, pads, const(0, node.dtype(0)))
    return x


@converter("ReverseSequence", 10)
def reverse_sequence_v10(node: Node) -> Result:
    """ReverseSequence: reverse the first `sequence_lens[b]` steps of each batch entry."""
    shape = node.shape(0)
    rank = len(shape)
    node.refuse(rank < 2, f"the input must have rank >= 2, got {rank}")
    batch_axis = _axis(node, node.int_attr("batch_axis", 1), rank)
    time_axis = _axis(node, node.int_attr("time_axis", 0), rank)
    node.refuse({batch_axis, time_axis} != {0, 1}, "batch_axis and time_axis must be 0 and 1")
    lengths = node.ints(1, "sequence_lens")
    batch, steps = shape[batch_axis], shape[time_axis]
    node.refuse(ANY in (batch, steps), "ReverseSequence needs static batch and time dims")
    node.refuse(len(lengths) != batch, f"{len(lengths)} lengths for a batch of {batch}")
    node.refuse(any(not 0 <= n <= steps for n in lengths), f"lengths {lengths} out of [0, {steps}]")
    order = np.tile(np.arange(steps, dtype=np.int32), (batch, 1))
    for b, n in enumerate(lengths):
        order[b, :n] = order[b, :n][::-1]
    x = node.expr(0)
    if batch_axis == 1:  # batch first for take's batch_dims
        x = T.transpose(x, [1, 0, *range(2, rank)])
    out = T.take(x, const(order, "int32"), axis=1, batch_dims=1)
    return T.transpose(out, [1, 0, *range(2, rank)]) if batch_axis == 1 else out


DET_MAX = 3
"""Det is the Leibniz sum of its n! products: taken up to 3x3 (6 products)."""


@converter("Det", 11)
def det_v11(node: Node) -> Result:
    """Det of [..., n, n] for n <= 3 (the Leibniz formula over strided slices)."""
    shape = node.shape(0)
    rank = len(shape)
    node.refuse(rank < 2 or shape[-1] != shape[-2], f"Det needs [..., n, n], got {list(shape)}")
    n = shape[-1]
    node.refuse(n == ANY or not 1 <= n <= DET_MAX, f"Det is supported for n <= {DET_MAX}, got {n}")
    x = node.expr(0)

    def entry(i: int, j: int) -> Expr:
        picked = T.strided_slice(x, [i, j], [i + 1, j + 1], [1, 1], [rank - 2, rank - 1])
        return T.squeeze(picked, [rank - 2, rank - 1])

    total: Expr | None = None
    for perm in itertools.permutations(range(n)):
        term = entry(0, perm[0])
        for i in range(1, n):
            term = E.multiply(term, entry(i, perm[i]))
        inversions = sum(perm[i] > perm[j] for i in range(n) for j in range(i + 1, n))
        if total is None:
            total = term if inversions % 2 == 0 else E.negative(term)
        else:
            total = E.add(total, term) if inversions % 2 == 0 else E.subtract(total, term)
    assert total is not None
    return total


@converter("BitCast", 26)
def bitcast_v26(node: Node) -> Result:
    """BitCast of a known input folds (numpy's view); relay has no bit reinterpretation."""
    code = node.int_attr("to", 0)
    dtype = relay_dtype(code)
    node.refuse(dtype in (None, "bfloat16"), f"to {onnx_type_name(code)} is not supported")
    data = node.known(0)
    node.refuse(data is None, "BitCast of a value unknown at import is not supported")
    assert data is not None
    assert dtype is not None
    node.refuse(
        data.dtype.itemsize != np.dtype(dtype).itemsize,
        f"{data.dtype} and {dtype} differ in width",
    )
    return data.view(dtype)
