"""`accel.conv2d_winograd`: a 3x3, stride-1 convolution by Winograd's minimal filtering.

F(m x m, 3 x 3) (Lavin and Gray, "Fast Algorithms for Convolutional Neural
Networks", 2016): each m x m tile of output is `A^T [(G g G^T) * (B^T d B)] A`,
where `d` is the (m + 2) x (m + 2) input window under the tile, `g` a 3x3
filter and `*` the elementwise product summed over input channels. With m = 2
that is 16 multiplies per tile and channel pair instead of direct convolution's
36 (2.25x fewer), and the transforms are additions only; with m = 4, 36
instead of 144 (4x fewer), the transforms multiply by small constants and the
result is a little less exact (`TRANSFORMS`). The weight transform `G g G^T` is
done once, when the weights are constants (`accel-winograd`).

The op takes the transformed weights, not the filter::

    %y = accel.conv2d_winograd %x, %u, %b {padding = [1, 1, 1, 1], tile = 4, has_bias = true}
           : (tensor<1x16x8x8xf32>, tensor<6x6x32x16xf32>, tensor<32xf32>)
           -> tensor<1x32x8x8xf32>

- data: NCHW; `tile`: m, 2 (the default) or 4; weight `u`: `(m + 2, m + 2, K, C)`
  (`winograd_weights` of an OIHW filter), tile position major, so that the
  products of one position are a K x C matrix;
- the padding of relay's conv2d (1, 2 or 4 values); strides and dilation are 1;
  the output is `(N, K, H + top + bottom - 2, W + left + right - 2)`;
- the epilogue of `accel.conv2d`: `+ bias` per output channel (`has_bias`),
  `+ residual` (`has_residual`, the last operand, of the convolution's type),
  relu (`has_relu`), clip (`clip_min` / `clip_max`); then, with `has_max_pool`, a
  2x2 max pool of stride 2 (the convolution's extents must be even, so every
  window is whole and inside one tile). The result is then `(N, K, OH / 2, OW / 2)`.

Its numpy semantics (`winograd_conv2d`, the interpreter's reference) compute the
transforms as written, in float64, with the kernel's additions (no `0 * x`
terms, so a NaN reaches the outputs of the tiles whose windows hold it and no
others): the same numbers as the direct convolution up to rounding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i64
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
)
from xrelay.dialects.accel_base import (
    FALSE,
    ConvOperands,
    check_bias,
    check_clip,
    check_residual,
    relay_prop,
)
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.base import (
    Props,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    get_bool,
    get_int,
    get_ints,
)
from xrelay.dialects.relay.nn import expect_len, expect_non_negative, known, pad_2d
from xrelay.dialects.relay.types import dims_compatible, format_shape, tensor_element_type

Array = npt.NDArray[Any]

TILES = (2, 4)
"""The output tile extents m of F(m x m, 3 x 3) the op takes; the window is m + 2."""

_G2 = [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]]
_BT2 = [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]]
_AT2 = [[1, 1, 1, 0], [0, 1, -1, -1]]
_G4 = [
    [1 / 4, 0, 0],
    [-1 / 6, -1 / 6, -1 / 6],
    [-1 / 6, 1 / 6, -1 / 6],
    [1 / 24, 1 / 12, 1 / 6],
    [1 / 24, -1 / 12, 1 / 6],
    [0, 0, 1],
]
_BT4 = [
    [4, 0, -5, 0, 1, 0],
    [0, -4, -4, 1, 1, 0],
    [0, 4, -4, -1, 1, 0],
    [0, -2, -1, 2, 1, 0],
    [0, 2, -1, -2, 1, 0],
    [0, 4, 0, -5, 0, 1],
]
_AT4 = [[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0], [0, 1, -1, 8, -8, 1]]


@dataclass(frozen=True)
class Transforms:
    """The matrices of F(m x m, 3 x 3): `U = G g G^T`, `V = B^T d B`, `Y = A^T M A`."""

    g: Array
    """`(m + 2, 3)`."""
    bt: Array
    """`(m + 2, m + 2)`."""
    at: Array
    """`(m, m + 2)`."""


TRANSFORMS = {
    2: Transforms(np.array(_G2, float), np.array(_BT2, float), np.array(_AT2, float)),
    4: Transforms(np.array(_G4, float), np.array(_BT4, float), np.array(_AT4, float)),
}
"""Lavin and Gray's matrices by tile extent: interpolation points 0, 1, -1 (m = 2) and
0, 1, -1, 2, -2 (m = 4), plus infinity."""


def winograd_weights(weight: Array, tile: int = 2) -> Array:
    """The `(m + 2, m + 2, K, C)` weights of `accel.conv2d_winograd` with tile `m` from an
    OIHW `(K, C, 3, 3)` filter, computed in float64 and returned in the filter's dtype."""
    g = TRANSFORMS[tile].g
    u = np.einsum("ia,kcab,jb->ijkc", g, weight.astype(np.float64), g)
    return u.astype(weight.dtype)


def winograd_conv2d(x: Array, u: Array, padding: tuple[int, int, int, int]) -> Array:
    """The convolution of NCHW `x` by transformed weights `u` (`(m + 2, m + 2, K, C)`), in
    float64: tile by tile, `A^T [sum_c U * (B^T d B)] A`."""
    tile = int(u.shape[0]) - 2
    bt, at = TRANSFORMS[tile].bt, TRANSFORMS[tile].at
    top, left, bottom, right = padding
    n, _, h, w = x.shape
    oh, ow = h + top + bottom - 2, w + left + right - 2
    ty, tx = -(-oh // tile), -(-ow // tile)
    # Pad so that every tile's window is inside (the last tile may reach past the output).
    extra_h, extra_w = ty * tile + 2 - (h + top + bottom), tx * tile + 2 - (w + left + right)
    d = np.pad(
        x.astype(np.float64), ((0, 0), (0, 0), (top, bottom + extra_h), (left, right + extra_w))
    )
    offsets: Array = np.arange(tile + 2)
    rows: Array = np.arange(int(ty))[:, None] * tile + offsets[None, :]
    cols: Array = np.arange(int(tx))[:, None] * tile + offsets[None, :]
    windows = d[:, :, rows[:, :, None, None], cols[None, None, :, :]]  # n c ty i tx j
    v = _combine(_combine(windows, bt, 3), bt, 5)  # n c ty a tx b
    m = np.einsum("abkc,ncyaxb->nkyaxb", u.astype(np.float64), v)
    y = _combine(_combine(m, at, 3), at, 5)  # n k ty p tx q
    return y.reshape(n, u.shape[2], ty * tile, tx * tile)[:, :, :oh, :ow]


def _combine(x: Array, matrix: Array, axis: int) -> Array:
    """`matrix @ x` along `axis`, as the kernel adds: only the nonzero coefficients' terms
    (a NaN or infinity reaches the outputs whose transform reads it, and no others)."""
    moved = np.moveaxis(x, axis, 0)
    rows: list[Array] = []
    for coefficients in matrix:
        terms = [c * moved[j] for j, c in enumerate(coefficients) if c != 0]
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        rows.append(total)
    return np.moveaxis(np.stack(rows), 0, axis)


@irdl_op_definition
class Conv2DWinogradOp(ConvOperands):
    """`accel.conv2d_winograd`: a 3x3 stride-1 NCHW convolution by F(m x m, 3 x 3) from
    transformed weights `(m + 2, m + 2, K, C)`, then bias, residual, relu and a 2x2 max
    pool (see the module docstring)."""

    name = "accel.conv2d_winograd"

    padding = relay_prop(nn.Conv2DOp, "padding", DenseArrayBase)
    tile = prop_def(IntegerAttr, IntegerAttr(2, i64))
    has_max_pool = prop_def(IntegerAttr, FALSE)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        weight = expect_tensor(operand_types, 1, "weight")
        expect_rank(data, 4, "data")
        expect_rank(weight, 4, "weight")
        padding = get_ints(props, "padding")
        expect_len(padding, (1, 2, 4), "padding")
        expect_non_negative(padding, "padding")
        top, left, bottom, right = pad_2d(padding)
        tile = get_int(props, "tile")
        if tile not in TILES:
            raise RelayTypeError(f"tile must be one of {list(TILES)}, got {tile}")
        window = tile + 2
        if tuple(weight[:2]) != (window, window) or not dims_compatible(weight[3], data[1]):
            raise RelayTypeError(
                f"weight shape {format_shape(weight)} is not ({window}, {window}, K, C) for "
                f"tile {tile} and {data[1]} input channels"
            )
        element = tensor_element_type(operand_types[0])
        if tensor_element_type(operand_types[1]) != element:
            raise RelayTypeError(
                f"weight element type {tensor_element_type(operand_types[1])} does not match "
                f"data {element}"
            )
        n, _, h, w = data
        oh = h + top + bottom - 2 if known(h) else h
        ow = w + left + right - 2 if known(w) else w
        if (known(oh) and oh < 1) or (known(ow) and ow < 1):
            raise RelayTypeError(f"a 3x3 window does not fit input {format_shape(data)}")
        conv = TensorType(element, [n, weight[2], oh, ow])
        rest = operand_types[2:]
        if get_bool(props, "has_residual"):
            if not rest:
                raise RelayTypeError("has_residual is set but there is no residual operand")
            check_residual(rest[-1], conv)
            rest = rest[:-1]
        elif len(rest) == 2:
            raise RelayTypeError("a fourth operand (a residual) needs has_residual = true")
        check_bias([*operand_types[:2], *rest], props, conv, 1)
        check_clip(props)
        if not get_bool(props, "has_max_pool"):
            return [conv]
        if (known(oh) and oh % 2) or (known(ow) and ow % 2):
            raise RelayTypeError(f"has_max_pool needs even output extents, got {oh}x{ow}")
        pooled = [d // 2 if known(d) else d for d in (oh, ow)]
        return [TensorType(element, [n, weight[2], *pooled])]
