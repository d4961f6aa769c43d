"""Converters for ONNX's tensor-manipulation ops: Reshape, Transpose, Concat, Split, Slice, ..."""

from __future__ import annotations

import math

import numpy as np

from xrelay.dialects.builder import movement as M
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_registry import Array, Node, Result, Value, converter


def _axis(node: Node, axis: int, rank: int) -> int:
    node.refuse(not -rank <= axis < max(rank, 1), f"axis {axis} is out of range for rank {rank}")
    return axis % max(rank, 1)


@converter("Constant", 1)
def constant_v1(node: Node) -> Result:
    """Constant: `value` (tensor), or from v12 `value_float(s)` / `value_int(s)`."""
    forms = {
        "value": None,
        "value_float": np.float32,
        "value_floats": np.float32,
        "value_int": np.int64,
        "value_ints": np.int64,
    }
    for name, dtype in forms.items():
        if name in node.attrs:
            value = node.attrs[name]
            return value if dtype is None else np.array(value, dtype=dtype)
    given = ", ".join(sorted(node.attrs)) or "none"
    raise node.error(f"unsupported Constant form (attributes: {given})")


@converter("Reshape", 1)
def reshape_v1(node: Node) -> Result:
    """Reshape (v1-4: `shape` attribute)."""
    return _reshape(node, node.ints_attr("shape", []) or [], False)


@converter("Reshape", 5)
def reshape_v5(node: Node) -> Result:
    """Reshape: `shape` input, 0 copies a dim unless `allowzero=1`, -1 infers."""
    shape = node.ints(1, "the shape")
    return _reshape(node, shape, bool(node.int_attr("allowzero", 0)))


def _reshape(node: Node, shape: list[int], allowzero: bool) -> Expr:
    node.refuse(any(d < -1 for d in shape), f"shape {shape} has a dim below -1")
    return T.reshape(node.expr(0), shape, allowzero=allowzero)


@converter("Flatten", 1)
def flatten_v1(node: Node) -> Result:
    """Flatten to 2-D at `axis` (default 1)."""
    shape = node.shape(0)
    axis = node.int_attr("axis", 1)
    axis = axis + len(shape) if axis < 0 else axis
    node.refuse(not 0 <= axis <= len(shape), f"axis {axis} is out of range")
    outer = shape[:axis]
    node.refuse(ANY in outer, "Flatten needs static dims before the axis")
    return T.reshape(node.expr(0), [math.prod(outer), -1])


@converter("Transpose", 1)
def transpose_v1(node: Node) -> Result:
    """Transpose with `perm` (default: reversed)."""
    return T.transpose(node.expr(0), node.ints_attr("perm"))


@converter("Concat", 1)
def concat_v1(node: Node) -> Result:
    """Concat along `axis`."""
    rank = node.rank(0)
    return T.concatenate(node.exprs(), _axis(node, node.int_attr("axis", 1), rank))


@converter("Split", 1)
def split_v1(node: Node) -> Result:
    """Split: sizes from the `split` attribute (v1: or input 1), else equal parts."""
    sizes = node.ints_attr("split")
    if sizes is None and node.has(1):
        sizes = node.ints(1, "the split sizes")
    return _split(node, sizes)


@converter("Split", 13)
def split_v13(node: Node) -> Result:
    """Split: sizes from input 1, or `num_outputs` (v18) parts, the last one smaller."""
    sizes = node.ints(1, "the split sizes") if node.has(1) else None
    return _split(node, sizes)


def _split(node: Node, sizes: list[int] | None) -> Result:
    rank = node.rank(0)
    axis = _axis(node, node.int_attr("axis", 0), rank)
    dim = node.shape(0)[axis]
    if sizes is None:
        parts = node.int_attr("num_outputs", node.num_outputs)
        node.refuse(dim == ANY, "Split into equal parts needs a static dim")
        chunk = -(-dim // parts)
        sizes = [min(chunk, dim - i * chunk) for i in range(parts)]
    node.refuse(any(s < 0 for s in sizes), f"negative split sizes {sizes}")
    x = node.expr(0)
    if len(sizes) == 1:
        return [x]
    points = [int(p) for p in np.cumsum(sizes[:-1])]
    if dim != ANY and all(0 < p < dim for p in points) and all(s > 0 for s in sizes):
        out = T.split(x, points, axis)
        return [out[i] for i in range(len(sizes))]
    # empty parts: relay.split takes strictly ascending inner points only
    starts = [0, *points]
    return [
        T.strided_slice(x, [b], [b + size], [1], [axis])
        for b, size in zip(starts, sizes, strict=True)
    ]


@converter("Slice", 1)
def slice_v1(node: Node) -> Result:
    """Slice (v1-9: attributes `starts`, `ends`, `axes`)."""
    starts = node.ints_attr("starts") or []
    ends = node.ints_attr("ends") or []
    axes = node.ints_attr("axes", list(range(len(starts)))) or []
    return _slice(node, starts, ends, axes, [1] * len(starts))


@converter("Slice", 10)
def slice_v10(node: Node) -> Result:
    """Slice: `starts`, `ends`, optional `axes` and `steps` inputs, numpy clamping."""
    starts = node.ints(1, "the starts")
    ends = node.ints(2, "the ends")
    axes = node.ints(3, "the axes") if node.has(3) else list(range(len(starts)))
    steps = node.ints(4, "the steps") if node.has(4) else [1] * len(starts)
    return _slice(node, starts, ends, axes, steps)


def _clamp(index: int, dim: int, step: int) -> int:
    lo, hi = (-1, dim - 1) if step < 0 else (0, dim)
    return min(max(index + dim if index < 0 else index, lo), hi)


def _slice(
    node: Node, starts: list[int], ends: list[int], axes: list[int], steps: list[int]
) -> Expr:
    shape = node.shape(0)
    node.refuse(0 in steps, "a step is zero")
    begin: list[int] = []
    end: list[int] = []
    big = 2**62
    for start, stop, axis, step in zip(starts, ends, axes, steps, strict=True):
        dim = shape[_axis(node, axis, len(shape))]
        start, stop = max(min(start, big), -big), max(min(stop, big), -big)
        if dim != ANY:
            start, stop = _clamp(start, dim, step), _clamp(stop, dim, step)
            if (stop > start) if step < 0 else (stop < start):
                stop = start  # empty
            if step < 0 and stop == -1:
                stop = -big  # "before the first element", not numpy's "last"
        begin.append(start)
        end.append(stop)
    axes_norm = [_axis(node, a, len(shape)) for a in axes]
    return T.strided_slice(node.expr(0), begin, end, steps, axes_norm)


@converter("Squeeze", 1)
def squeeze_v1(node: Node) -> Result:
    """Squeeze with the `axes` attribute (None: every 1-dim)."""
    return _squeeze(node, node.ints_attr("axes"))


@converter("Squeeze", 13)
def squeeze_v13(node: Node) -> Result:
    """Squeeze with the optional `axes` input."""
    return _squeeze(node, node.ints(1, "the axes") if node.has(1) else None)


def _squeeze(node: Node, axes: list[int] | None) -> Result:
    rank = node.rank(0)
    if axes is None:
        node.refuse(ANY in node.shape(0), "Squeeze without axes needs a static shape")
        return T.squeeze(node.expr(0))
    return T.squeeze(node.expr(0), [_axis(node, a, rank) for a in axes])


@converter("Unsqueeze", 1)
def unsqueeze_v1(node: Node) -> Result:
    """Unsqueeze with the `axes` attribute."""
    return _unsqueeze(node, node.ints_attr("axes") or [])


@converter("Unsqueeze", 13)
def unsqueeze_v13(node: Node) -> Result:
    """Unsqueeze with the `axes` input."""
    return _unsqueeze(node, node.ints(1, "the axes"))


def _unsqueeze(node: Node, axes: list[int]) -> Result:
    out_rank = node.rank(0) + len(axes)
    normalized = sorted(_axis(node, a, out_rank) for a in axes)
    node.refuse(len(set(normalized)) != len(normalized), f"repeated axes {axes}")
    data = node.value(0)
    if not isinstance(data, Expr):
        return np.expand_dims(data, tuple(normalized))
    out = node.expr(0)
    for axis in normalized:
        out = T.expand_dims(out, axis)
    return out


@converter("Gather", 1)
def gather_v1(node: Node) -> Result:
    """Gather = relay.take along `axis` (negative indices count from the end)."""
    rank = node.rank(0)
    axis = _axis(node, node.int_attr("axis", 0), rank)
    return T.take(node.expr(0), node.expr(1), axis=axis, mode="fast")


@converter("Dropout", 1)
def dropout_v1(node: Node) -> Result:
    """Dropout at inference: the input, and an all-true mask when asked for."""
    x = node.value(0)
    if node.has(2):
        training = node.const(2, "training_mode")
        node.refuse(bool(training.reshape(-1)[0]), "training_mode=true is not supported")
    if node.num_outputs < 2:
        return [x]
    mask = T.full(const(np.asarray(True)), list(node.static_shape(0)), "bool")
    return [x, mask]


@converter("Pad", 1)
def pad_v1(node: Node) -> Result:
    """Pad (v1: `paddings`; v2: `pads`) with `mode` and `value` attributes."""
    pads = node.ints_attr("pads") or node.ints_attr("paddings") or []
    return _pad(node, pads, node.float_attr("value", 0.0), None)


@converter("Pad", 11)
def pad_v11(node: Node) -> Result:
    """Pad with `pads`, optional `constant_value` and (v18) `axes` inputs."""
    pads = node.ints(1, "the pads")
    value = 0.0
    if node.has(2):
        value = float(node.const(2, "the constant value").reshape(-1)[0])
    axes = node.ints(3, "the axes") if node.has(3) else None
    return _pad(node, pads, value, axes)


def _pad(node: Node, pads: list[int], value: float, axes: list[int] | None) -> Result:
    mode = node.str_attr("mode", "constant")
    node.refuse(mode not in PAD_MODES, f"unknown mode '{mode}'")
    rank = node.rank(0)
    axes = list(range(rank)) if axes is None else [_axis(node, a, rank) for a in axes]
    node.refuse(len(pads) != 2 * len(axes), f"{len(pads)} pads for {len(axes)} axes")
    width = [[0, 0] for _ in range(rank)]
    for i, axis in enumerate(axes):
        width[axis] = [pads[i], pads[i + len(axes)]]
    x = node.expr(0)
    if any(b < 0 or a < 0 for b, a in width):
        # which values a wrap/reflect/edge pad copies would depend on the crop's order
        node.refuse(mode != "constant", "negative pads are supported in constant mode only")
        return _crop_then_pad(node, x, width, value)
    return NN.pad(x, width, value, mode)


PAD_MODES = ("constant", "edge", "reflect", "wrap")
"""ONNX Pad's modes, which are relay.nn.pad's `pad_mode`s of the same names."""


def _crop_then_pad(node: Node, x: Expr, width: list[list[int]], value: float) -> Expr:
    """Negative pads crop: slice those first, then pad the positive parts."""
    shape = node.static_shape(0, "negative pads")
    begin = [max(-b, 0) for b, _ in width]
    end = [d - max(-a, 0) for d, (_, a) in zip(shape, width, strict=True)]
    cropped = T.strided_slice(x, begin, end)
    positive = [[max(b, 0), max(a, 0)] for b, a in width]
    return NN.pad(cropped, positive, value) if any(b or a for b, a in positive) else cropped


@converter("Expand", 8)
def expand_v8(node: Node) -> Result:
    """Expand to a known shape: relay.broadcast_to the broadcast of the input's shape and
    `shape` (ONNX's Expand is two-way; broadcast_to is strict, as TVM's)."""
    shape = node.ints(1, "the shape")
    in_shape = node.shape(0)
    rank = max(len(shape), len(in_shape))
    a = [1] * (rank - len(in_shape)) + list(in_shape)
    b = [1] * (rank - len(shape)) + shape
    for x_, y in zip(a, b, strict=True):
        node.refuse(
            x_ not in (1, y, ANY) and y != 1, f"shape {shape} does not broadcast with the input"
        )
    out = [y if x_ == 1 else x_ for x_, y in zip(a, b, strict=True)]
    node.refuse(ANY in out, "Expand needs a static result shape")
    return M.broadcast_to(node.expr(0), out)


def known_full(value: Array, shape: list[int], limit: int = 1 << 16) -> Value:
    """A filled tensor: an array when small, else `relay.full` (no huge arrays at import)."""
    scalar = value.reshape(-1)[0]
    if math.prod(shape) <= limit:
        return np.full(shape, scalar, dtype=value.dtype)
    return T.full(const(np.asarray(scalar, dtype=value.dtype)), shape, value.dtype.name)
