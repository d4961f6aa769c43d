"""Vectorized 2-D pools on NCHW float32: windowed max / average, and the global pools.

Windowed (`planes`): each (image, channel) plane in turn, its output rows in blocks of
up to `conv_plan.MAX_BLOCK_ROWS` rows. The input rows a block's windows read are copied into
a stack scratch (`conv_direct.py`'s layout: a ring of rows of `stride` phases, the columns
of a phase `stride` apart, and one more row standing for the rows outside the input),
whose columns outside the input hold the padding's value (the dtype's lowest for max, as
relay pads; 0 for an average), so that tap `kx` of output columns `x .. x + n` reads `n`
contiguous floats. For each vector of output columns, each input row the block reads is
reduced over its `kx` taps once (`xa_max`, NaN wins, as numpy's; or a sum), and each
output row combines the rows of its window, in trees: a max of 9 taps is 4 dependent
steps, not 9, and a row shared by two windows (stride 2) is read once. The one-row-at-a-
time kernel before this one was bound by that chain: 165 us for SqueezeNet's 3x3/2 pool
of 64 111x111 planes. A max pool first scans each plane for NaNs (`xa_any_nan`): a plane
without one (nearly every plane) takes the one-instruction maximum (`xa_fmax`, `vmaxps`),
one with a NaN the NaN-propagating `xa_max` (four: compare twice, or, blend), so a NaN
still gives NaN exactly where numpy's max does; 122 -> 97 us on that pool, 44 -> 36 on
ShuffleNet's. Rows outside the input read the padding's row: a window that loses
rows takes the lowest value into its max (the padding takes part, as the interpreter),
a window inside the input only its taps. An average divides by its count,
`cy[y] * cx[x]` (taps inside the input, or inside the input and its declared padding
with `count_include_pad`; the `ceil_mode` padding never counts), both tabled at print
time; an empty count is 1 (its sum is 0). Sums run in float32 over at most `KH * KW`
taps, each row's taps first.

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
from xrelay.codegen.kernels.conv_plan import Conv, fill_ring, row_blocks
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
    """Whether one plane's scratch rows fit the budget (for blocks of one row)."""
    return conv.block_scratch(1) <= SCRATCH_FLOATS


def planes(w: CWriter, pool: Pool) -> None:
    """The planes `q0 <= q < q1`, in blocks of rows (see the module docstring)."""
    conv = pool.conv
    rows = conv.block_rows(SCRATCH_FLOATS)
    ring = conv.span(rows)
    pad = LOWEST if pool.is_max else "0.0f"
    size = conv.block_scratch(rows)
    w.line(f"float buf[{size}] __attribute__((aligned(64)));")
    with w.loop("i", size):
        w.line(f"buf[i] = {pad};")
    w.line(f"const float *const outside = buf + {ring * conv.sw * conv.row};")
    if not pool.is_max:
        heights, cols = pool.counts
        padded = -(-conv.ow // VL_MAX) * VL_MAX
        cells = [*map(float, cols), *([1.0] * (padded - len(cols)))]
        w.line(f"static const float cy[{len(heights)}] = {{{', '.join(map(_f, heights))}}};")
        w.line(f"static const float cx[{padded}] = {{{', '.join(map(_f, cells))}}};")
    w.line(f"{INDEX} held[{ring}];")
    with w.loop("q", "q1", "q0"):
        w.line(f"const float *restrict plane = in0 + q * {conv.h * conv.w};")
        w.line(f"float *restrict to_plane = out0 + q * {conv.oh * conv.ow};")
        with w.loop("s", ring):
            w.line("held[s] = -1;")
        if pool.is_max:  # NaN-free planes (all but rare ones) take the one-instruction max
            with w.block(f"if (!xa_any_nan(plane, {conv.h * conv.w}))"):
                _plane(w, pool, rows, ring, fast=True)
            with w.block("else"):
                _plane(w, pool, rows, ring, fast=False)
        else:
            _plane(w, pool, rows, ring, fast=False)


def _plane(w: CWriter, pool: Pool, rows: int, ring: int, fast: bool) -> None:
    """The output rows of plane `q` in blocks of `rows`, then the rest."""
    row_blocks(w, pool.conv, rows, lambda block: _rows(w, pool, block, ring, fast))


def _f(value: float) -> str:
    return f"{float(value)!r}f"


def _rows(w: CWriter, pool: Pool, rows: int, ring: int, fast: bool) -> None:
    """Output rows `y0 .. y0 + rows`: their input rows into the ring (`sp[t]`: input row
    `y0 * sh - top + t`, or the padding's row), then each vector of columns."""
    conv = pool.conv
    span = conv.span(rows)
    fill_ring(w, conv, span, ring, "outside")
    with w.block(f"for ({INDEX} xo = 0; xo < {conv.ow}; xo += XA_VL)"):
        w.line(f"const {INDEX} nx = {conv.ow} - xo;")
        _vector(w, pool, rows, span, fast)


def _tree(terms: list[str], is_max: bool, fast: bool = False) -> str:
    """The max (`fast`: of NaN-free values) or sum of `terms` as a balanced tree (a sum keeps
    their order)."""
    op = "xa_fmax" if fast else "xa_max"
    while len(terms) > 1:
        pairs = [terms[i : i + 2] for i in range(0, len(terms), 2)]
        terms = [
            (f"{op}({p[0]}, {p[1]})" if is_max else f"({p[0]} + {p[1]})") if len(p) == 2 else p[0]
            for p in pairs
        ]
    return terms[0]


def _vector(w: CWriter, pool: Pool, rows: int, span: int, fast: bool) -> None:
    """One vector of output columns from `xo` (`nx` of them, maybe fewer than `XA_VL`) of
    rows `y0 .. y0 + rows`: each input row's taps reduced once (`h<t>`), then each row's
    window."""
    conv = pool.conv
    used = {j * conv.sh + ky * conv.dh for j in range(rows) for ky in range(conv.kh)}
    for t in range(span):
        if t not in used:
            continue
        taps: list[str] = []
        for kx in range(conv.kw):
            shift = conv.tap_shift(kx)
            taps.append(f"xa_ld(sp[{t}] + xo + {shift})" if shift else f"xa_ld(sp[{t}] + xo)")
        w.line(f"const xa_v h{t} = {_tree(taps, pool.is_max, fast)};")
    for j in range(rows):
        window = [f"h{j * conv.sh + ky * conv.dh}" for ky in range(conv.kh)]
        value = _tree(window, pool.is_max, fast)
        if not pool.is_max:
            value = f"{value} / (xa_ld(cx + xo) * cy[y0 + {j}])"
        w.line(f"xa_stn(to_plane + (y0 + {j}) * {conv.ow} + xo, {value}, nx);")


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
