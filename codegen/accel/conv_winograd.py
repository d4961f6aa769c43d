"""`accel.conv2d_winograd`: F(m x m, 3 x 3), m = 2 or 4, on NCHW data, vectorized across tiles.

One vector lane is one m x m output tile: a *group* is the `XA_VL` tiles side
by side in one tile row (m output rows by `m * XA_VL` columns). For each group:

1. **Input transform** (`V = B^T d B`): per input channel, the m + 2 input rows
   under the group are loaded as m + 1 vectors each (`m * XA_VL + 2` columns,
   the lanes outside the input masked to 0: `xa_ld_span`, so padding needs no
   copy and no branch), combined down the rows (`B^T d`), split into the
   columns of each tile's window with `__builtin_shuffle` (even/odd lanes,
   twice for m = 4, then one lane further for the last two) and combined across
   (`. B`): `(m + 2)^2` vectors, one per tile position, stored in the scratch
   `V[pos][C]`.
2. **Products**: for each tile position, a block of up to 16 output channels
   is accumulated in registers, `M[k][pos] = sum_c U[pos][k][c] * V[pos][c]`
   (one vector load, 16 broadcast multiply-adds per channel: the blocked
   convolution's inner loop, with 4 (m = 2) or 2.25 (m = 4) tile positions
   per output instead of 9 taps).
3. **Output transform** (`A^T M A`) per output channel, then the epilogue of
   `accel.conv2d` (bias, residual, relu): each output row's m vectors (one per
   column of the tiles) are interleaved back into columns (`XA_ZIP_LO`/`HI`,
   twice for m = 4) and stored, the last group's columns partially; with
   `has_max_pool` each 2x2 window of a tile is reduced first (`xa_max`), so a
   tile gives m / 2 pooled rows of m / 2 columns.

The coefficients of `B^T` and `A^T` are printed as constants (`TRANSFORMS` of
`dialects/accel_winograd.py`; a 1 is an addition, a 0 no term at all). The
weights `U` (`(m + 2, m + 2, K, C)`, transformed by `accel-winograd` at compile
time) are read as broadcast scalars. A thread's scratch is
`(m + 2)^2 * (C + 16) * XA_VL` floats on its stack (72 KiB for 16 channels and
m = 4; `accel-winograd` bounds C, and the kernel refuses more than
`SCRATCH_FLOATS`). Tile rows are split across threads (`parallel.py`); the
input rows the tile row after next reads first are prefetched while a group is
transformed.
"""

from __future__ import annotations

from dataclasses import dataclass

from xrelay.codegen.accel.epilogues import clip_bounds, vector_clip
from xrelay.codegen.accel.lanes import combination, interleave, tile_columns, window_columns
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.accel.vectors import VL_MAX
from xrelay.codegen.c.kernel_api import Unsupported
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.dialects.accel_winograd import TRANSFORMS
from xrelay.dialects.relay.base import get_bool, get_int, get_ints
from xrelay.dialects.relay.nn import pad_2d

BLOCK = 16
"""Output channels accumulated at once: 16 vector registers (of 32 with AVX-512)."""

GRAIN = 1 << 17
"""Multiply-adds per thread, at least (as the blocked convolution's `GRAIN`)."""


@dataclass(frozen=True)
class Winograd:
    """The extents, tile and epilogue of one `accel.conv2d_winograd`."""

    n: int
    c: int
    h: int
    w: int
    k: int
    oh: int
    ow: int
    top: int
    left: int
    tile: int
    bias: str | None
    residual: str | None
    relu: bool
    pool: bool
    clip: tuple[str, str] | None = None
    """The clip epilogue's bounds as C literals (`epilogues.py`), after the relu."""

    @property
    def window(self) -> int:
        """The input window of a tile (m + 2)."""
        return self.tile + 2

    @property
    def tile_rows(self) -> int:
        """Tile rows of one image."""
        return -(-self.oh // self.tile)

    @property
    def tiles(self) -> int:
        """Tiles of one tile row."""
        return -(-self.ow // self.tile)


def winograd_of(k: AccelKernel) -> Winograd:
    """The `Winograd` of an `accel.conv2d_winograd` kernel."""
    props = k.op.properties
    n, c, h, w = k.in_shape(0)
    top, left, bottom, right = pad_2d(get_ints(props, "padding"))
    names = iter(k.ins[2:])
    bias = next(names) if get_bool(props, "has_bias") else None
    residual = next(names) if get_bool(props, "has_residual") else None
    oh, ow = h + top + bottom - 2, w + left + right - 2
    tile = get_int(props, "tile") if "tile" in props else 2
    relu, pool = get_bool(props, "has_relu"), get_bool(props, "has_max_pool")
    clip = clip_bounds(k.op)
    return Winograd(
        n, c, h, w, k.in_shape(1)[2], oh, ow, top, left, tile, bias, residual, relu, pool, clip
    )


SCRATCH_FLOATS = 28 * 1024
"""The most scratch a thread keeps on its stack (112 KiB: F(4x4) with 32 input channels,
F(2x2) with 64, `accel-winograd`'s bounds); a hand-written op past it is refused."""


def scratch_floats(conv: Winograd) -> int:
    """Floats of one thread's scratch: `V` for every input channel, `M` for one block."""
    return conv.window**2 * (conv.c + min(conv.k, BLOCK)) * VL_MAX


def conv2d_winograd(k: AccelKernel) -> None:
    """Print the Winograd convolution of `k` (see the module docstring), its tile rows split
    across threads; `Unsupported` when its scratch would not fit `SCRATCH_FLOATS`."""
    conv = winograd_of(k)
    if scratch_floats(conv) > SCRATCH_FLOATS:
        raise Unsupported(
            f"{conv.c} input channels need {scratch_floats(conv) * 4 // 1024} KiB of stack "
            f"scratch at tile {conv.tile}, more than {SCRATCH_FLOATS * 4 // 1024} KiB"
        )
    rows = conv.n * conv.tile_rows
    work = rows * conv.tiles * conv.window**2 * conv.k * conv.c
    most = k.team.parts(rows, work, GRAIN)
    k.team.run(k, rows, most, lambda inner: _tile_rows(inner.w, conv))


def _tile_rows(w: CWriter, conv: Winograd) -> None:
    """The tile rows `q0 <= q < q1` (image `q / tile_rows`), group by group."""
    block = min(conv.k, BLOCK)
    positions = conv.window**2
    w.line(f"float xw_v[{positions * conv.c * VL_MAX}] __attribute__((aligned(64)));")
    w.line(f"float xw_m[{positions * block * VL_MAX}] __attribute__((aligned(64)));")
    w.line(f"const {INDEX} groups = ({conv.tiles} + XA_VL - 1) / XA_VL;")
    with w.loop("q", "q1", "q0"):
        if conv.n == 1:
            w.line(f"const {INDEX} ty = q;")
        else:
            w.line(f"const {INDEX} n = q / {conv.tile_rows}, ty = q % {conv.tile_rows};")
        w.line(f"const {INDEX} iy0 = {conv.tile} * ty - {conv.top};")
        for r in range(conv.window):
            w.line(f"const int rv{r} = iy0 + {r} >= 0 && iy0 + {r} < {conv.h};")
        with w.loop("g", "groups"):
            _input_transform(w, conv)
            full, rest = divmod(conv.k, block)
            if full:
                with w.block(f"for ({INDEX} k0 = 0; k0 < {full * block}; k0 += {block})"):
                    _products(w, conv, block)
                    _outputs(w, conv, block)
            if rest:
                with w.block():
                    w.line(f"const {INDEX} k0 = {full * block};")
                    _products(w, conv, rest)
                    _outputs(w, conv, rest)


def _input_transform(w: CWriter, conv: Winograd) -> None:
    """`V[pos][c]` of the group `g` for every input channel (step 1)."""
    m, window = conv.tile, conv.window
    w.line(f"const {INDEX} ix0 = g * {m} * XA_VL - {conv.left};")
    for j in range(m + 1):
        col = f"ix0 + {j} * XA_VL" if j else "ix0"
        width = "2" if j == m else "XA_VL"
        w.line(f"const {INDEX} cl{j} = {col} < 0 ? -({col}) : 0;")
        w.line(f"const {INDEX} ce{j} = {conv.w} - ({col});")
        w.line(f"const {INDEX} ch{j} = ce{j} < {width} ? ce{j} : {width};")
        for r in range(window):
            w.line(f"const {INDEX} h{r}{j} = rv{r} ? ch{j} : 0;")
    first_new = window + m  # the first row the tile row after next reads that the next does not
    w.line(f"const int ahead = iy0 + {first_new + m - 1} < {conv.h};")
    bt = TRANSFORMS[m].bt
    with w.loop("c", conv.c):
        plane = f"(n * {conv.c} + c) * {conv.h}" if conv.n > 1 else f"c * {conv.h}"
        w.line(f"const float *p = in0 + ({plane} + iy0) * {conv.w} + ix0;")
        with w.block("if (ahead)"):
            for r in range(first_new, first_new + m):
                for line in range(m):
                    w.line(f"__builtin_prefetch(p + {r * conv.w + 16 * line});")
        for r in range(window):
            loads: list[str] = []
            for j in range(m + 1):
                at = f"p + {r * conv.w}" if r else "p"
                at = f"{at} + {j} * XA_VL" if j else at
                loads.append(f"d{r}_{j} = xa_ld_span({at}, cl{j}, h{r}{j})")
            w.line(f"const xa_v {', '.join(loads)};")
        for i in range(window):
            with w.block():
                rows = [
                    f"t{j} = {combination(bt[i], [f'd{r}_{j}' for r in range(window)])}"
                    for j in range(m + 1)
                ]
                w.line(f"const xa_v {', '.join(rows)};")
                columns = window_columns(w, m, [f"t{j}" for j in range(m + 1)])
                w.line(f"float *v = xw_v + ({i * window * conv.c} + c) * XA_VL;")
                for j in range(window):
                    at = f"v + {j * conv.c} * XA_VL" if j else "v"
                    w.line(f"xa_st({at}, {combination(bt[j], columns)});")


def _products(w: CWriter, conv: Winograd, block: int) -> None:
    """`M[k][pos]` for the `block` output channels from `k0` (step 2)."""
    acc = [f"a{o}" for o in range(block)]
    positions = conv.window**2
    with w.loop("pos", positions):
        w.line(f"const float *u = in1 + (pos * {conv.k} + k0) * {conv.c};")
        w.line(f"const float *v = xw_v + pos * {conv.c} * XA_VL;")
        w.line(f"xa_v {', '.join(f'{a} = {{0}}' for a in acc)};")
        with w.loop("c", conv.c):
            w.line("const xa_v x = xa_ld(v + c * XA_VL);")
            for o, a in enumerate(acc):
                w.line(f"{a} += u[{o * conv.c} + c] * x;")
        w.line("float *m = xw_m + pos * XA_VL;")
        for o, a in enumerate(acc):
            w.line(f"xa_st(m + {o * positions} * XA_VL, {a});" if o else f"xa_st(m, {a});")


def _outputs(w: CWriter, conv: Winograd, block: int) -> None:
    """`A^T M A` and the epilogue of each of the `block` output channels from `k0` (step 3)."""
    m, window = conv.tile, conv.window
    at = TRANSFORMS[m].at
    with w.loop("k", block):
        w.line(f"const float *m = xw_m + k * {window * window} * XA_VL;")
        for a in range(m):
            for j in range(window):
                terms = [f"xa_ld(m + {i * window + j} * XA_VL)" for i in range(window)]
                w.line(f"const xa_v s{a}_{j} = {combination(at[a], terms)};")
        start = f"xa_splat({conv.bias}[k0 + k])" if conv.bias else "(xa_v){0}"
        w.line(f"const xa_v b = {start};")
        for a in range(m):
            values = [f"s{a}_{j}" for j in range(window)]
            ys = [f"y{a}_{b} = {combination(at[b], values)} + b" for b in range(m)]
            w.line(f"xa_v {', '.join(ys)};")
        w.line(f"const {INDEX} x0 = g * {m} * XA_VL, nx = {conv.ow} - x0;")
        plane = f"(n * {conv.k} + k0 + k)" if conv.n > 1 else "(k0 + k)"
        if conv.residual:
            where = f"({plane} * {conv.oh} + {m} * ty) * {conv.ow} + x0"
            w.line(f"const float *r = {conv.residual} + {where};")
        if conv.pool:
            _pooled(w, conv, plane)
        else:
            _rows(w, conv, plane)


def _guard(row: str, rows: int, exact: bool) -> str:
    """`if (row < rows)` unless every tile row is whole (`exact`)."""
    return "" if exact else f"if ({row} < {rows})"


def _rows(w: CWriter, conv: Winograd, plane: str) -> None:
    """Each output row of the tiles, interleaved back into columns, through the epilogue."""
    m = conv.tile
    w.line(f"float *o = out0 + ({plane} * {conv.oh} + {m} * ty) * {conv.ow} + x0;")
    for a in range(m):
        head = "" if a == 0 else _guard(f"{m} * ty + {a}", conv.oh, conv.oh % m == 0)
        with w.block(head):
            outs = interleave(w, m, [f"y{a}_{b}" for b in range(m)], "z")
            row = f" + {a * conv.ow}" if a else ""
            for v, out in enumerate(outs):
                count = f"nx - {v} * XA_VL" if v else "nx"
                with w.block(f"if (nx > {v} * XA_VL)" if v else ""):
                    if conv.residual:
                        shift = f" + {v} * XA_VL" if v else ""
                        w.line(f"{out} += xa_ldn(r{row}{shift}, {count});")
                    if conv.relu:
                        w.line(f"{out} = xa_relu({out});")
                    if conv.clip:
                        w.line(f"{out} = {vector_clip(out, conv.clip)};")
                    shift = f" + {v} * XA_VL" if v else ""
                    w.line(f"xa_stn(o{row}{shift}, {out}, {count});")


def _pooled(w: CWriter, conv: Winograd, plane: str) -> None:
    """The 2x2 maxima of each tile after the epilogue, stored as m / 2 pooled rows."""
    m = conv.tile
    exact = conv.oh % m == 0
    for a in range(m):
        if conv.residual:  # the rows inside the output only
            row = f" + {a * conv.ow}" if a else ""
            with w.block(_guard(f"{m} * ty + {a}", conv.oh, exact) if a else ""):
                for v in range(m):
                    at, count = (
                        (f"r{row} + {v} * XA_VL", f"nx - {v} * XA_VL") if v else (f"r{row}", "nx")
                    )
                    load = f"nx > {v} * XA_VL ? xa_ldn({at}, {count}) : (xa_v){{0}}"
                    w.line(f"const xa_v q{v} = {load};")
                for b, column in enumerate(tile_columns(w, m, [f"q{v}" for v in range(m)])):
                    w.line(f"y{a}_{b} += {column};")
        if conv.relu:
            for b in range(m):
                w.line(f"y{a}_{b} = xa_relu(y{a}_{b});")
        if conv.clip:
            for b in range(m):
                w.line(f"y{a}_{b} = {vector_clip(f'y{a}_{b}', conv.clip)};")
    ph, pw, half = conv.oh // 2, conv.ow // 2, m // 2
    w.line(f"float *o = out0 + ({plane} * {ph} + {half} * ty) * {pw} + g * {half} * XA_VL;")
    for a in range(half):
        pooled: list[str] = []
        for b in range(half):
            taps = [f"y{2 * a + da}_{2 * b + db}" for da in (0, 1) for db in (0, 1)]
            pooled.append(f"xa_max(xa_max({taps[0]}, {taps[1]}), xa_max({taps[2]}, {taps[3]}))")
        head = "" if a == 0 else _guard(f"{half} * ty + {a}", ph, exact)
        with w.block(head):
            w.line(f"const xa_v {', '.join(f'p{b} = {x}' for b, x in enumerate(pooled))};")
            outs = ["p0"] if half == 1 else interleave(w, 2, ["p0", "p1"], "z")
            row = f" + {a * pw}" if a else ""
            for v, out in enumerate(outs):
                count = f"nx / 2 - {v} * XA_VL" if v else "nx / 2"
                shift = f" + {v} * XA_VL" if v else ""
                head = f"if (nx / 2 > {v} * XA_VL)" if v else ""
                with w.block(head):
                    w.line(f"xa_stn(o{row}{shift}, {out}, {count});")
