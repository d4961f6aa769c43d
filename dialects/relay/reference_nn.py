"""Reference semantics of the `relay.nn` ops, in numpy."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.base import get_ints
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.types import numpy_dtype

Array = npt.NDArray[Any]


def to_layout(x: Array, src: str, dst: str) -> Array:
    """Transpose an array between layouts spelled with the same letters (NHWC -> NCHW)."""
    if src == dst:
        return x
    return np.transpose(x, [src.index(d) for d in dst])


def conv2d_nchw(
    x: Array,
    w: Array,
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    dilation: tuple[int, int],
    groups: int,
    out_dtype: np.dtype[Any],
) -> Array:
    """Grouped, dilated 2-D convolution of NCHW data with an OIHW kernel (im2col + einsum)."""
    top, left, bottom, right = padding
    acc = np.float64 if np.issubdtype(out_dtype, np.floating) else np.int64
    x = np.pad(x.astype(acc), ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    sh, sw = strides
    dh, dw = dilation
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (wd - dw * (kw - 1) - 1) // sw + 1
    s = x.strides
    cols = np.lib.stride_tricks.as_strided(
        x,
        (n, groups, cg, oh, ow, kh, kw),
        (s[0], s[1] * cg, s[1], s[2] * sh, s[3] * sw, s[2] * dh, s[3] * dw),
        writeable=False,
    )
    wg = w.astype(acc).reshape(groups, o // groups, cg, kh, kw)
    out = np.einsum("ngchwij,gocij->ngohw", cols, wg, optimize=True)
    return out.reshape(n, o, oh, ow).astype(out_dtype)


@reference(nn.Conv2DOp)
def _conv2d(ev: Evaluator, op: nn.Conv2DOp, args: list[Value]) -> Value:
    props = dict(op.properties)
    data_layout, kernel_layout = op.data_layout.data, op.kernel_layout.data
    x = to_layout(np.asarray(args[0]), data_layout, "NCHW")
    w = to_layout(np.asarray(args[1]), kernel_layout, "OIHW")
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    out_type = op.result.type
    out = conv2d_nchw(
        x,
        w,
        (sh, sw),
        pad_2d(get_ints(props, "padding")),
        (dh, dw),
        op.groups.value.data,
        numpy_dtype(out_type.get_element_type()),
    )
    return to_layout(out, "NCHW", data_layout)


@reference(nn.BiasAddOp)
def _bias_add(ev: Evaluator, op: nn.BiasAddOp, args: list[Value]) -> Value:
    data, bias = np.asarray(args[0]), np.asarray(args[1])
    axis = op.axis.value.data % data.ndim
    shape = [1] * data.ndim
    shape[axis] = bias.shape[0]
    return data + bias.reshape(shape)


@reference(nn.ReluOp)
def _relu(ev: Evaluator, op: nn.ReluOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    return np.maximum(x, np.zeros((), x.dtype))
