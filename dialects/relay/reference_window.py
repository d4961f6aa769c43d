"""Windowed numerics over any number of spatial dims, in numpy: convolution, transposed
convolution and pooling of channels-first data (`[N, C, spatial...]`).

The reference semantics of conv1d/2d/3d, their transposes and the pools of every
rank share these; the op-level wrappers (layouts, properties) live in
`reference_nn` and `reference_conv`. Sums accumulate in float64 (int64 for
integers, wrapping) and convert to the output dtype once.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from xrelay.dialects.relay.types import is_float_dtype

Array = npt.NDArray[Any]
Ints = Sequence[int]

OUT_LETTERS = "pqr"
"""einsum letters of the output's spatial dims."""
TAP_LETTERS = "ijk"
"""einsum letters of the kernel's spatial dims."""


def accumulator(dtype: np.dtype[Any]) -> type[np.generic]:
    """float64 for floating dtypes, int64 for the others."""
    return np.float64 if is_float_dtype(dtype) else np.int64


def sliding_windows(a: Array, out: Ints, window: Ints, strides: Ints, dilation: Ints) -> Array:
    """A read-only view `[..., out..., window...]` of the windows over the last
    `len(out)` axes of `a`."""
    rank = len(out)
    s = a.strides
    lead, spatial = s[: a.ndim - rank], s[a.ndim - rank :]
    return np.lib.stride_tricks.as_strided(
        a,
        (*a.shape[: a.ndim - rank], *out, *window),
        (
            *lead,
            *(st * step for st, step in zip(spatial, strides, strict=True)),
            *(st * dil for st, dil in zip(spatial, dilation, strict=True)),
        ),
        writeable=False,
    )


def conv_nd(
    x: Array,
    w: Array,
    strides: Ints,
    before: Ints,
    after: Ints,
    dilation: Ints,
    groups: int,
    out_dtype: np.dtype[Any],
) -> Array:
    """Grouped, dilated convolution of `[N, C, S...]` data with an `[O, C / groups, K...]`
    kernel (im2col + einsum). Padding adds nothing: taps in the padding are left out when a
    weight is not finite, so `0 * inf` there is not NaN (`docs/semantics.md`)."""
    rank = x.ndim - 2
    acc = accumulator(out_dtype)
    x = cast(Array, np.pad(x.astype(acc), ((0, 0), (0, 0), *zip(before, after, strict=True))))
    n, padded = x.shape[0], x.shape[2:]
    o, cg, kernel = w.shape[0], w.shape[1], w.shape[2:]
    out = [
        (size - dil * (k - 1) - 1) // step + 1
        for size, k, step, dil in zip(padded, kernel, strides, dilation, strict=True)
    ]
    s = x.strides
    cols: Array = np.lib.stride_tricks.as_strided(
        x,
        (n, groups, cg, *out, *kernel),
        (
            s[0],
            s[1] * cg,
            s[1],
            *(s[2 + d] * strides[d] for d in range(rank)),
            *(s[2 + d] * dilation[d] for d in range(rank)),
        ),
        writeable=False,
    )
    wg: Array = w.astype(acc).reshape(groups, o // groups, cg, *kernel)
    spatial, taps = OUT_LETTERS[:rank], TAP_LETTERS[:rank]
    if (any(before) or any(after)) and not np.isfinite(wg).all():
        result = _skip_padding(cols, wg, padded, before, after, strides, dilation)
        with np.errstate(over="ignore"):
            return result.reshape(n, o, *out).astype(out_dtype)
    # A padded zero times a finite weight adds nothing.
    result: Array = np.einsum(
        f"ngc{spatial}{taps},goc{taps}->ngo{spatial}", cols, wg, optimize=True
    )
    with np.errstate(over="ignore"):  # float64 sums beyond the float32 range become inf
        return result.reshape(n, o, *out).astype(out_dtype)


def _skip_padding(
    cols: Array,
    wg: Array,
    padded: Ints,
    before: Ints,
    after: Ints,
    strides: Ints,
    dilation: Ints,
) -> Array:
    """The convolution tap by tap, leaving out taps that fall in the padding."""
    rank = len(padded)
    out = [int(e) for e in cols.shape[3 : 3 + rank]]
    kernel = [int(k) for k in cols.shape[3 + rank :]]
    spatial = OUT_LETTERS[:rank]
    result: Array = np.zeros((cols.shape[0], wg.shape[0], wg.shape[1], *out), wg.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for tap in itertools.product(*(range(k) for k in kernel)):
            inside: Array = np.ones(out, bool)
            for d in range(rank):
                at: Array = np.arange(out[d]) * strides[d] + tap[d] * dilation[d]
                ok: Array = (at >= before[d]) & (at < padded[d] - after[d])
                inside = inside & ok.reshape([-1 if e == d else 1 for e in range(rank)])
            term: Array = np.einsum(
                f"ngc{spatial},goc->ngo{spatial}", cols[(..., *tap)], wg[(..., *tap)]
            )
            result += np.where(inside, term, 0)
    return result


def conv_transpose_nd(
    x: Array,
    w: Array,
    strides: Ints,
    before: Ints,
    after: Ints,
    output_padding: Ints,
    dilation: Ints,
    groups: int,
    out_dtype: np.dtype[Any],
) -> Array:
    """Grouped, dilated transposed convolution of `[N, C, S...]` data with a
    `[C, O / groups, K...]` kernel: input position `i` and tap `k` add `x[i] * w[k]` at
    output position `i * stride + k * dilation - before` (positions outside the output
    are dropped). Only real taps are summed: no zeros are inserted between inputs."""
    rank = x.ndim - 2
    acc = accumulator(out_dtype)
    n, c, sizes = x.shape[0], x.shape[1], x.shape[2:]
    og, kernel = w.shape[1], w.shape[2:]
    xg: Array = x.astype(acc).reshape(n, groups, c // groups, *sizes)
    wg: Array = w.astype(acc).reshape(groups, c // groups, og, *kernel)
    out = [
        (size - 1) * step + dil * (k - 1) + 1 - b - a + e
        for size, step, dil, k, b, a, e in zip(
            sizes, strides, dilation, kernel, before, after, output_padding, strict=True
        )
    ]
    full = [
        max(b + o, (size - 1) * step + dil * (k - 1) + 1, 0)
        for b, o, size, step, dil, k in zip(
            before, out, sizes, strides, dilation, kernel, strict=True
        )
    ]
    buffer: Array = np.zeros((n, groups, og, *full), acc)
    spatial = OUT_LETTERS[:rank]
    with np.errstate(invalid="ignore", over="ignore"):
        for tap in itertools.product(*(range(k) for k in kernel)):
            term: Array = np.einsum(f"ngc{spatial},gco->ngo{spatial}", xg, wg[(..., *tap)])
            where = tuple(
                slice(t * dil, t * dil + (size - 1) * step + 1, step)
                for t, dil, size, step in zip(tap, dilation, sizes, strides, strict=True)
            )
            buffer[(..., *where)] += term
    crop = tuple(slice(b, b + o) for b, o in zip(before, out, strict=True))
    with np.errstate(over="ignore"):
        return buffer[(..., *crop)].reshape(n, groups * og, *out).astype(out_dtype)


def lowest(dtype: np.dtype[Any]) -> Any:
    """The lowest value of a dtype (TVM's `min_value`): finite for floats, False for bool."""
    if is_float_dtype(dtype):
        return np.finfo(dtype).min
    if np.issubdtype(dtype, np.integer):
        return np.iinfo(dtype).min
    return np.zeros((), dtype)


def pool_nd(
    x: Array,
    kind: str,
    pool: Ints,
    strides: Ints,
    dilation: Ints,
    before: Ints,
    after: Ints,
    out: Ints,
    count_include_pad: bool,
) -> Array:
    """Max or average pooling of `[N, C, S...]` data, with TVM's treatment of padding.

    The ends are padded further so that every `ceil_mode` window exists. Max pads
    with the dtype's lowest value; average divides the sum of the elements inside
    the input by their count, or by the count inside the input plus its declared
    padding (`count_include_pad`); a window with nothing to count gives 0.
    """
    sizes = x.shape[2:]
    extra = [
        max(0, (o - 1) * step + dil * (k - 1) + 1 - (size + b + a))
        for o, step, dil, k, size, b, a in zip(
            out, strides, dilation, pool, sizes, before, after, strict=True
        )
    ]
    pads = [(b, a + e) for b, a, e in zip(before, after, extra, strict=True)]
    axes = tuple(range(-len(pool), 0))

    def windows(a: Array) -> Array:
        return sliding_windows(a, out, pool, strides, dilation)

    if kind == "max":
        xp = np.pad(x, ((0, 0), (0, 0), *pads), constant_values=lowest(x.dtype))
        return windows(xp).max(axis=axes)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), *pads))
    if count_include_pad:
        whole = [size + b + a for size, b, a in zip(sizes, before, after, strict=True)]
        counted = np.pad(np.ones(whole), [(0, e) for e in extra])
    else:
        counted = np.pad(np.ones(sizes), pads)
    count = windows(counted).sum(axis=axes)
    return windows(xp).sum(axis=axes) / np.maximum(count, 1)
