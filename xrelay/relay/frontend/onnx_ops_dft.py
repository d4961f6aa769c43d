"""Converters for ONNX DFT and STFT, decomposed at import onto `matmul` with constant cos/sin
matrices (float64 for float64 input, else float32). Complex values are a trailing [.., 2]
dim, as ONNX's; a real input has a trailing 1."""

from __future__ import annotations

import numpy as np

from xrelay import relay
from xrelay.dialects.builder.expr import Constant, Expr
from xrelay.relay.frontend.onnx_registry import Array, Node, Result, converter

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _matrices(rows: int, n: int, bins: int, inverse: bool, onesided: bool) -> tuple[Array, Array]:
    """cos and sin of 2 pi t k / n, [rows, bins], scaled for an inverse transform."""
    t = np.arange(rows, dtype=np.float64)[:, None]
    k = np.arange(bins, dtype=np.float64)[None, :]
    angle = 2.0 * np.pi * np.mod(t * k, n) / n
    cos, sin = np.cos(angle), np.sin(angle)
    if inverse:
        cos, sin = cos / n, sin / n
        if onesided:  # irfft: the bins between 0 and n/2 count twice; Im of 0 and n/2 ignored
            freq = np.arange(rows)
            twice = (freq > 0) & (2 * freq < n)
            cos[twice] *= 2
            sin[twice] *= 2
            sin[(freq == 0) | (2 * freq == n)] = 0
    return cos, sin


def dft(
    node: Node,
    x: Expr,
    shape: tuple[int, ...],
    axis: int,
    n: int | None,
    inverse: bool,
    onesided: bool,
) -> Expr:
    """The DFT of `x` ([..., L, ..., 1 or 2], static) along `axis` (not the last)."""
    rank = len(shape)
    length, parts = shape[axis], shape[-1]
    node.refuse(parts not in (1, 2), f"the last dim must be 1 or 2, got {parts}")
    node.refuse(inverse and onesided and parts != 2, "an inverse onesided DFT needs complex input")
    if n is None:
        n = 2 * (length - 1) if inverse and onesided else length
    node.refuse(n <= 0, f"dft_length must be positive, got {n}")
    dtype = node.dtype(0)
    wide = "float64"  # float32 sums lose ONNX's near-zero bins (its reference is float64)
    if dtype != wide:
        x = relay.cast(x, wide)
    perm = [a for a in range(rank - 1) if a != axis] + [axis]
    keep = min(length, n // 2 + 1 if inverse and onesided else n)

    def part(index: int) -> Expr:
        value = relay.take(x, Constant(np.array(index, np.int64)), axis=rank - 1)
        value = relay.transpose(value, perm)
        if keep < length:
            value = relay.strided_slice(value, [0], [keep], axes=[rank - 2])
        return value

    bins = n if inverse or not onesided else n // 2 + 1
    cos, sin = (Constant(m.astype(wide)) for m in _matrices(keep, n, bins, inverse, onesided))
    re = part(0)
    im = part(1) if parts == 2 else None
    sign = 1.0 if inverse else -1.0
    # (a + ib)(cos + i sign sin) = a cos - sign b sin + i (b cos + sign a sin)
    re_out = relay.matmul(re, cos)
    im_out = relay.matmul(re, sin)
    if sign < 0:
        im_out = relay.negative(im_out)
    if im is not None:
        b_sin = relay.matmul(im, sin)
        re_out = relay.add(re_out, relay.negative(b_sin) if sign > 0 else b_sin)
        im_out = relay.add(im_out, relay.matmul(im, cos))
    fields = [re_out] if inverse and onesided else [re_out, im_out]
    out = relay.concatenate([relay.expand_dims(f, -1) for f in fields], -1)
    back = list(range(rank - 2))
    back.insert(axis, rank - 2)
    out = relay.transpose(out, [*back, rank - 1])
    return out if dtype == wide else relay.cast(out, dtype)


def _check_float(node: Node) -> None:
    node.refuse(node.dtype(0) not in _FLOATS, f"input must be floating-point, got {node.dtype(0)}")


def _scalar(node: Node, index: int, what: str) -> int:
    values = node.ints(index, what)
    node.refuse(len(values) != 1, f"{what} must be a single value, got {len(values)}")
    return values[0]


def _convert(node: Node, axis: int) -> Result:
    _check_float(node)
    shape = node.static_shape(0, "the input")
    rank = len(shape)
    node.refuse(
        not -rank <= axis < rank or axis % rank == rank - 1,
        f"axis {axis} is out of range for rank {rank} (the last dim is complex)",
    )
    axis %= rank
    n = _scalar(node, 1, "dft_length") if node.has(1) else None
    return dft(
        node,
        node.expr(0),
        shape,
        axis,
        n,
        bool(node.int_attr("inverse", 0)),
        bool(node.int_attr("onesided", 0)),
    )


@converter("DFT", 17)
def dft_v17(node: Node) -> Result:
    """DFT (opset 17): `axis` is an attribute (default 1)."""
    return _convert(node, node.int_attr("axis", 1))


@converter("DFT", 20)
def dft_v20(node: Node) -> Result:
    """DFT (opset 20): `axis` is input #2 (default -2)."""
    return _convert(node, _scalar(node, 2, "axis") if node.has(2) else -2)


@converter("STFT", 17)
def stft_v17(node: Node) -> Result:
    """STFT: frames gathered with a constant index matrix, windowed, then a DFT per frame."""
    _check_float(node)
    shape = node.static_shape(0, "the signal")
    node.refuse(len(shape) != 3, f"the signal must be [batch, length, 1 or 2], got {list(shape)}")
    step = _scalar(node, 1, "frame_step")
    if node.has(3):
        frame = _scalar(node, 3, "frame_length")
    else:
        node.refuse(not node.has(2), "STFT needs a window or a frame_length")
        frame = node.static_shape(2, "the window")[0]
    node.refuse(
        step <= 0 or frame <= 0 or frame > shape[1],
        f"bad frame_step {step} or frame_length {frame} for length {shape[1]}",
    )
    frames = (shape[1] - frame) // step + 1
    index = np.arange(frames)[:, None] * step + np.arange(frame)[None, :]
    x = relay.take(node.expr(0), Constant(index.astype(np.int64)), axis=1)
    if node.has(2):
        window = relay.reshape(node.expr(2), [frame, 1])
        x = relay.multiply(x, window)
    return dft(
        node,
        x,
        (shape[0], frames, frame, shape[2]),
        2,
        None,
        False,
        bool(node.int_attr("onesided", 1)),
    )
