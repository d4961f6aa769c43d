"""Vectorized 2-D pools on NCHW float32: windowed max / average, and the global pools.

Windowed (`planes`): each (image, channel) plane in turn, its output rows in
order. The input rows a row's windows read are copied into a stack scratch
(`conv_direct.py`'s layout: `slots` rows of `stride` phases, the columns of
a phase `stride` apart), whose columns outside the input hold the padding's
value (the dtype's lowest for max, as relay pads; 0 for an average), so that
tap `kx` of output columns `x .. x + n` reads `n` contiguous floats: per tap,
one vector load and one `xa_max` (NaN wins, as numpy's) or add. Rows outside
the input are skipped: a max whose window loses rows starts at the lowest
value (the padding takes part), else at minus infinity, as the interpreter.
An average divides by its count, `cy[y] * cx[x]` (taps inside the input, or
inside the input and its declared padding with `count_include_pad`; the
`ceil_mode` padding never counts), both tabled at print time; an empty count is
1 (its sum is 0). Sums run in float32 over at most `KH * KW` taps.

Global (`global_planes`): each plane's `H * W` contiguous floats in 4 vector
accumulators (sum, or `xa_max`), then the lanes and the tail; the mean divides
the float32 sum by `H * W` (at most about `H * W * 2^-24` of the plane's
magnitudes sum off the exact mean).

The caller declares `q0`, `q1` (the planes), `in0` and `out0`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels.conv_plan import Conv, fill_plane_rows, taps
from xrelay.codegen.kernels.vectors import VL_MAX

SCRATCH_FLOATS = 16384
"""The scratch budget (64 KiB of the stack): one plane's rows."""

LOWEST = "-0x1.fffffep+127f"
"""float32's lowest value: relay's max-pool padding."""


@dataclass(frozen=True)
class Pool:
    """One windowed pool: its extents as a `Conv` (`o` = `c`), and how it reduces."""

    conv: Conv
    is_max: bool
    counts: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    """An average's divisors: per output row, per output column (at least 1)."""


def fits(conv: Conv) -> bool:
    """Whether one plane's scratch rows fit the budget."""
    return conv.per_channel <= SCRATCH_FLOATS


def planes(w: CWriter, pool: Pool) -> None:
    """The planes `q0 <= q < q1`, row by row (see the module docstring)."""
    conv = pool.conv
    pad = LOWEST if pool.is_max else "0.0f"
    size = conv.per_channel
    w.line(f"float buf[{size}] __attribute__((aligned(64)));")
    with w.loop("i", size):
        w.line(f"buf[i] = {pad};")
    if not pool.is_max:
        rows, cols = pool.counts
        padded = -(-conv.ow // VL_MAX) * VL_MAX
        cells = [*map(float, cols), *([1.0] * (padded - len(cols)))]
        w.line(f"static const float cy[{len(rows)}] = {{{', '.join(map(_f, rows))}}};")
        w.line(f"static const float cx[{padded}] = {{{', '.join(map(_f, cells))}}};")
    w.line(f"{INDEX} held[{conv.slots}];")
    with w.loop("q", "q1", "q0"):
        w.line(f"const float *restrict plane = in0 + q * {conv.h * conv.w};")
        w.line(f"float *restrict to_plane = out0 + q * {conv.oh * conv.ow};")
        with w.loop("s", conv.slots):
            w.line("held[s] = -1;")
        with w.loop("y", conv.oh):
            w.line(f"const {INDEX} iy = y * {conv.sh} - {conv.top};")
            taps(w, conv)
            w.line(f"{INDEX} slot[{conv.kh}];")
            fill_plane_rows(w, conv)
            if pool.is_max:
                cut = f"ky0 > 0 || ky1 < {conv.kh}"
                w.line(f"const xa_v start = xa_splat({cut} ? {LOWEST} : -INFINITY);")
            else:
                w.line("const float count = cy[y];")
            with w.block(f"for ({INDEX} xo = 0; xo < {conv.ow}; xo += XA_VL)"):
                w.line(f"const {INDEX} nx = {conv.ow} - xo;")
                _vector(w, pool)


def _f(value: float) -> str:
    return f"{float(value)!r}f"


def _vector(w: CWriter, pool: Pool) -> None:
    """One vector of output columns from `xo` (`nx` of them, maybe fewer than `XA_VL`)."""
    conv = pool.conv
    w.line(f"xa_v acc = {'start' if pool.is_max else '(xa_v){0}'};")
    with w.loop("ky", "ky1", "ky0"):
        w.line("const float *s = buf + slot[ky] + xo;")
        for kx in range(conv.kw):
            reach = kx * conv.dw
            shift = (reach % conv.sw) * conv.row + reach // conv.sw
            tap = f"xa_ld(s + {shift})" if shift else "xa_ld(s)"
            w.line(f"acc = xa_max(acc, {tap});" if pool.is_max else f"acc += {tap};")
    if not pool.is_max:
        w.line("acc /= xa_ld(cx + xo) * count;")
    w.line(f"xa_stn(to_plane + y * {conv.ow} + xo, acc, nx);")


def global_planes(w: CWriter, area: int, is_max: bool) -> None:
    """The planes `q0 <= q < q1` of `area` floats each into `out0[q]`: mean or maximum."""
    with w.loop("q", "q1", "q0"):
        w.line(f"const float *restrict p = in0 + q * {area};")
        start = "xa_splat(-INFINITY)" if is_max else "(xa_v){0}"
        w.line(f"xa_v a0 = {start}, a1 = a0, a2 = a0, a3 = a0;")
        w.line(f"{INDEX} i = 0;")
        with w.block(f"for (; i + 4 * XA_VL <= {area}; i += 4 * XA_VL)"):
            for u in range(4):
                at = f"p + i + {u} * XA_VL" if u else "p + i"
                w.line(f"a{u} = xa_max(a{u}, xa_ld({at}));" if is_max else f"a{u} += xa_ld({at});")
        if is_max:
            w.line("a0 = xa_max(xa_max(a0, a1), xa_max(a2, a3));")
            w.line("float lanes[XA_VL], m = -INFINITY;")
            w.line("__builtin_memcpy(lanes, &a0, sizeof a0);")
            with w.loop("l", "XA_VL"):
                w.line("m = lanes[l] > m || lanes[l] != lanes[l] ? lanes[l] : m;")
            with w.block(f"for (; i < {area}; ++i)"):
                w.line("m = p[i] > m || p[i] != p[i] ? p[i] : m;")
            w.line("out0[q] = m;")
        else:
            w.line("float total = xa_sum((a0 + a1) + (a2 + a3));")
            with w.block(f"for (; i < {area}; ++i)"):
                w.line("total += p[i];")
            w.line(f"out0[q] = total / {_f(area)};")
