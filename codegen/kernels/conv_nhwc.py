"""Direct convolution on NHWC data (HWIO or OHWI weights): register-blocked over output
channels, the vector dim of the layout.

`NhwcConv` describes one convolution (every extent, the group count, the kernel
layout); `grouped(w, conv, epilogue)` prints the kernel for any group count
whose groups have several input channels (groups = 1 included), `depthwise(w,
conv, epilogue)` the one for groups = input channels (any channel multiplier).
The caller declares `data`, `weight`, `out` and the epilogue's pointers (`eb`:
one float per output channel, the last dim; `er`: a tensor of the output's
layout).

Grouped. Per group and block of `ob` vectors of output channels (`ob * XA_VL`
channels), the block's weights are first packed into the thread's buffer
`xn_pack` as `[ky][kx][ci][ob * XA_VL]` (channels past the group's zeroed), so
the kernel reads them in order whatever the layout. Then each output row runs
in register blocks of `ob` channel vectors by `xb` output columns: per tap and
input channel, `ob` vector loads of the packed weights, `xb` broadcasts of the
input pixel's channel and `ob * xb` fused multiply-adds. The block starts at
the bias and ends in the epilogue (`conv_plan.finish`), stored once (the last
channel vector partial, `xa_stn`).

Depthwise. The weights are packed as `[ky][kx][o]` (zero-padded to whole
vectors) into a stack buffer; register blocks of `ob` channel vectors by `xb`
columns load, per tap, `ob` weight vectors and `ob * xb` input vectors (the
pixel's channels are contiguous; with a multiplier `m`, output channel `o`
reads input channel `o / m`, gathered by `xn_spread`).

Edges: the columns whose every tap is inside the input (`interior`) run the
blocks; the others one column at a time over their inside taps only, as the
kernel rows are (`conv_plan.taps`). No tap ever reads padding, so an infinite
or NaN weight adds nothing there, as in the reference (docs/semantics.md).

Numerics: each output is one float32 accumulator over its taps in order (kernel
row, kernel column, input channel), fused multiply-adds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine
from xrelay.codegen.kernels.conv_plan import Epilogue, finish
from xrelay.codegen.kernels.vectors import VL_MAX

PACK_FLOATS = 262144
"""The grouped kernel's packed-weight buffer (1 MiB, thread-local, one per unit): one
channel block's weights must fit."""

DEPTHWISE_PACK_FLOATS = 16384
"""The depthwise kernel's packed weights, on the stack (64 KiB)."""

ACCUMULATORS = 24
"""At most this many vector accumulators per grouped block (32 registers less the weights
and a broadcast)."""

DEPTHWISE_ACCUMULATORS = 12
"""At most this many per depthwise block (each needs its input vector loaded too)."""

PRELUDE = f"""\
#ifndef XN_PRELUDE
#define XN_PRELUDE
/* The NHWC kernels' packed weights: one channel block of one convolution at a time. */
static _Thread_local float xn_pack[{PACK_FLOATS}] __attribute__((aligned(64), unused));
/* Lanes l < n of d[(o + l) / m]: the input channels of output channels o.. (multiplier m). */
static inline xa_v xn_spread(const float *d, int64_t o, int64_t n, int64_t m) {{
  float lanes[XA_VL] = {{0}};
  for (int64_t l = 0; l < n && l < XA_VL; ++l) lanes[l] = d[(o + l) / m];
  return xa_ld(lanes);
}}
#endif
"""
"""File-scope C of the NHWC kernels; guarded, printed after the vector prelude."""


@dataclass(frozen=True)
class NhwcConv:
    """One NHWC convolution: data `n x h x w x c`, output `n x oh x ow x o`, `groups`
    groups, weights in `layout` (HWIO: `kh x kw x c/groups x o`; OHWI: `o x kh x kw x
    c/groups`)."""

    n: int
    h: int
    w: int
    c: int
    o: int
    kh: int
    kw: int
    oh: int
    ow: int
    sh: int
    sw: int
    dh: int
    dw: int
    top: int
    left: int
    groups: int
    layout: Literal["HWIO", "OHWI"]

    @property
    def cg(self) -> int:
        """Input channels per group."""
        return self.c // self.groups

    @property
    def og(self) -> int:
        """Output channels per group."""
        return self.o // self.groups

    @property
    def is_depthwise(self) -> bool:
        return self.groups == self.c and self.groups > 1

    def weight(self, tap: str, ci: str, oc: str) -> str:
        """C offset of the weight of tap `tap` (`ky * kw + kx`), group input channel `ci`,
        output channel `oc` (of all)."""
        if self.layout == "HWIO":
            return f"({tap} * {self.cg} + {ci}) * {self.o} + {oc}"
        return f"(({oc}) * {self.kh * self.kw} + {tap}) * {self.cg} + {ci}"

    def interior(self) -> tuple[int, int]:
        """(first, end) of the output columns whose every tap is inside the input."""
        first = min(self.ow, -(-self.left // self.sw))
        last = (self.w - 1 + self.left - (self.kw - 1) * self.dw) // self.sw  # may be < 0
        return first, max(first, min(self.ow, last + 1))


Block = Callable[[CWriter, int, bool], None]
"""Prints one register block of the row's columns from `x`: `(w, columns, checked)`."""


def _vectors(channels: int) -> int:
    return -(-channels // VL_MAX)


def channel_block(channels: int, most: int) -> int:
    """Channel vectors per block: at most `most`, the fewest wasted lanes, then the most."""
    vectors = _vectors(channels)
    options = range(1, min(most, vectors) + 1)
    return min(options, key=lambda ob: (-(-vectors // ob) * ob - vectors, -ob))


def grouped_block(conv: NhwcConv) -> tuple[int, int]:
    """(channel vectors, columns) of the grouped kernel's register block."""
    ob = channel_block(conv.og, 4)
    first, end = conv.interior()
    return ob, max(1, min(ACCUMULATORS // ob, 8, end - first))


def depthwise_block(conv: NhwcConv) -> tuple[int, int]:
    """(channel vectors, columns) of the depthwise kernel's register block."""
    ob = channel_block(conv.o, 4)
    first, end = conv.interior()
    return ob, max(1, min(DEPTHWISE_ACCUMULATORS // ob, 4, end - first))


def fits(conv: NhwcConv) -> bool:
    """Whether the packed weights fit their buffer."""
    taps = conv.kh * conv.kw
    if conv.is_depthwise:
        return taps * _vectors(conv.o) * VL_MAX <= DEPTHWISE_PACK_FLOATS
    return taps * conv.cg * grouped_block(conv)[0] * VL_MAX <= PACK_FLOATS


def _row(w: CWriter, conv: NhwcConv) -> None:
    """Output row `q` (image `n`, row `y`): the kernel rows inside the input, `ky0..ky1`."""
    w.line(f"const {INDEX} n = q / {conv.oh}, y = q % {conv.oh};")
    w.line(f"const {INDEX} iy = y * {conv.sh} - {conv.top};")
    step = conv.dh
    if step == 1:
        w.line(f"const {INDEX} ky0 = iy < 0 ? -iy : 0;")
        w.line(f"const {INDEX} eky = {conv.h} - iy;")
    else:
        w.line(f"const {INDEX} ky0 = iy < 0 ? (-iy + {step - 1}) / {step} : 0;")
        w.line(f"const {INDEX} eky = ({conv.h} - iy + {step - 1}) / {step};")
    w.line(f"const {INDEX} ky1 = eky < {conv.kh} ? eky : {conv.kh};")


def _columns(w: CWriter, conv: NhwcConv, xb: int, block: Block) -> None:
    """The row's columns: single checked ones at the edges, blocks of `xb` inside, then one
    block of the interior's remaining columns (so that they too keep several accumulators)."""
    first, end = conv.interior()
    w.line(f"{INDEX} x = 0;")
    if first:
        with w.block(f"for (; x < {first}; ++x)"):
            block(w, 1, True)
    if end > first:
        full, rest = divmod(end - first, xb)
        if full:
            with w.block(f"for (; x < {first + full * xb}; x += {xb})"):
                block(w, xb, False)
        if rest:
            with w.block():
                block(w, rest, False)
                w.line(f"x += {rest};")
    if end < conv.ow:
        with w.block(f"for (; x < {conv.ow}; ++x)"):
            block(w, 1, True)


def _kx_range(w: CWriter, conv: NhwcConv, checked: bool) -> None:
    """`ix` (the block's first input column) and `kx0 <= kx < kx1`, the kernel columns
    inside the input for one column (`checked`), else all."""
    w.line(f"const {INDEX} ix = x * {conv.sw} - {conv.left};")
    if not checked:
        return
    step = conv.dw
    if step == 1:
        w.line(f"const {INDEX} kx0 = ix < 0 ? -ix : 0;")
        w.line(f"const {INDEX} ekx = {conv.w} - ix;")
    else:
        w.line(f"const {INDEX} kx0 = ix < 0 ? (-ix + {step - 1}) / {step} : 0;")
        w.line(f"const {INDEX} ekx = ({conv.w} - ix + {step - 1}) / {step};")
    w.line(f"const {INDEX} kx1 = ekx < {conv.kw} ? ekx : {conv.kw};")


def _store(
    w: CWriter, epilogue: Epilogue, acc: list[list[str]], at: str, count: str, row: str
) -> None:
    """The epilogue and the store of block `acc[o][j]` at `out + at + j * row + o * XA_VL`,
    channel vector `o` holding `count - o * XA_VL` channels (partial or none at the end)."""
    for o, column in enumerate(acc):
        left = f"{count} - {o} * XA_VL" if o else count
        with w.block(f"if ({left} > 0)" if o else ""):
            w.line(f"const {INDEX} m = {left};")
            for j, a in enumerate(column):
                place = affine([("XA_VL", o)], f"{at} + {affine([(row, j)])}" if j else at)
                residual = (
                    f"xa_ldn({epilogue.residual} + {place}, m)" if epilogue.residual else None
                )
                for line in finish(a, epilogue, residual):
                    w.line(line)
                w.line(f"xa_stn(out + {place}, {a}, m);")


# ------------------------------------------------------------------ grouped


def grouped(w: CWriter, conv: NhwcConv, epilogue: Epilogue) -> None:
    """Every group, channel block and output row of a grouped (or groups = 1) convolution."""
    ob, xb = grouped_block(conv)
    width = f"{ob} * XA_VL"
    w.line(f'_Static_assert(XA_VL <= {VL_MAX}, "the packed blocks are sized for {VL_MAX}");')
    blocks = f"for ({INDEX} o0 = 0; o0 < {conv.og}; o0 += {width})"
    with w.loop("g", conv.groups), w.block(blocks):
        w.line(f"const {INDEX} on = {conv.og} - o0 < {width} ? {conv.og} - o0 : {width};")
        w.line(f"const {INDEX} oc = g * {conv.og} + o0;")
        _pack_grouped(w, conv, width)
        if epilogue.bias:
            w.line(f"float bb[{ob * VL_MAX}] = {{0}};")
            with w.loop("j", "on"):
                w.line(f"bb[j] = {epilogue.bias}[oc + j];")
        with w.loop("q", conv.n * conv.oh):
            _row(w, conv)
            w.line(f"const float *restrict dn = data + n * {conv.h * conv.w * conv.c}"
                   f" + g * {conv.cg};")  # fmt: skip
            w.line(f"const {INDEX} orow = q * {conv.ow * conv.o} + oc;")
            _columns(w, conv, xb, _GroupedBlock(conv, epilogue, ob))


def _pack_grouped(w: CWriter, conv: NhwcConv, width: str) -> None:
    """The block's weights into `xn_pack[(tap * cg + ci) * width + j]`, zero past `on`."""
    with w.loop("t", conv.kh * conv.kw), w.loop("ci", conv.cg):
        w.line(f"float *restrict p = xn_pack + (t * {conv.cg} + ci) * ({width});")
        with w.loop("j", "on"):
            w.line(f"p[j] = weight[{conv.weight('t', 'ci', 'oc + j')}];")
        with w.loop("j", width, "on"):
            w.line("p[j] = 0.0f;")


@dataclass(frozen=True)
class _GroupedBlock:
    conv: NhwcConv
    epilogue: Epilogue
    ob: int

    def __call__(self, w: CWriter, xb: int, checked: bool) -> None:
        conv, ob = self.conv, self.ob
        acc = [[f"a{o}_{j}" for j in range(xb)] for o in range(ob)]
        with w.block():
            for o, column in enumerate(acc):
                start = f"xa_ld(bb + {o} * XA_VL)" if self.epilogue.bias else "(xa_v){0}"
                w.line(f"xa_v {', '.join(f'{a} = {start}' for a in column)};")
            _kx_range(w, conv, checked)
            with w.loop("ky", "ky1", "ky0"):
                w.line(f"const float *dr = dn + ((iy + ky * {conv.dh}) * {conv.w} + ix)"
                       f" * {conv.c};")  # fmt: skip
                with w.loop("kx", "kx1" if checked else conv.kw, "kx0" if checked else 0):
                    w.line(f"const float *d = dr + kx * {conv.dw * conv.c};")
                    w.line(f"const float *wp = xn_pack + (ky * {conv.kw} + kx) * "
                           f"{conv.cg * ob} * XA_VL;")  # fmt: skip
                    with w.loop("ci", conv.cg):
                        w.line(f"const float *wc = wp + ci * {ob} * XA_VL;")
                        for o in range(ob):
                            w.line(f"const xa_v w{o} = xa_ld(wc + {o} * XA_VL);")
                        for j in range(xb):
                            at = affine([("ci", 1)], j * conv.sw * conv.c)
                            w.line(f"const xa_v x{j} = xa_splat(d[{at}]);")
                        for o, column in enumerate(acc):
                            for j, a in enumerate(column):
                                w.line(f"{a} += w{o} * x{j};")
            _store(w, self.epilogue, acc, "orow + x * " + str(conv.o), "on", str(conv.o))


# ------------------------------------------------------------------ depthwise


def depthwise(w: CWriter, conv: NhwcConv, epilogue: Epilogue) -> None:
    """Every output row of a depthwise convolution (groups = input channels)."""
    ob, xb = depthwise_block(conv)
    padded = _vectors(conv.o) * VL_MAX
    taps = conv.kh * conv.kw
    w.line(f'_Static_assert(XA_VL <= {VL_MAX}, "the packed weights are padded for {VL_MAX}");')
    w.line(f"float pw[{taps * padded}] __attribute__((aligned(64))) = {{0}};")
    with w.loop("t", taps), w.loop("o", conv.o):
        w.line(f"pw[t * {padded} + o] = weight[{conv.weight('t', '0', 'o')}];")
    if epilogue.bias:
        w.line(f"float bb[{padded}] = {{0}};")
        with w.loop("o", conv.o):
            w.line(f"bb[o] = {epilogue.bias}[o];")
    with w.loop("q", conv.n * conv.oh):
        _row(w, conv)
        w.line(f"const float *restrict dn = data + n * {conv.h * conv.w * conv.c};")
        w.line(f"const {INDEX} orow = q * {conv.ow * conv.o};")
        _columns(w, conv, xb, _DepthwiseColumns(conv, epilogue, ob, padded))


@dataclass(frozen=True)
class _DepthwiseColumns:
    """`xb` columns: blocks of `ob` channel vectors, then the channel vectors left one at a
    time (the last partial)."""

    conv: NhwcConv
    epilogue: Epilogue
    ob: int
    padded: int

    def __call__(self, w: CWriter, xb: int, checked: bool) -> None:
        conv, ob = self.conv, self.ob
        with w.block():
            _kx_range(w, conv, checked)
            w.line(f"{INDEX} o0 = 0;")
            if ob > 1:
                with w.block(f"for (; o0 + {ob} * XA_VL <= {conv.o}; o0 += {ob} * XA_VL)"):
                    self.block(w, xb, checked, ob, partial=False)
            with w.block(f"for (; o0 < {conv.o}; o0 += XA_VL)"):
                self.block(w, xb, checked, 1, partial=True)

    def block(self, w: CWriter, xb: int, checked: bool, ob: int, partial: bool) -> None:
        conv = self.conv
        m = conv.o // conv.c  # the channel multiplier
        acc = [[f"a{o}_{j}" for j in range(xb)] for o in range(ob)]
        with w.block():
            w.line(f"const {INDEX} on = {conv.o} - o0;" if partial else f"const {INDEX} on = "
                   f"{ob} * XA_VL;")  # fmt: skip
            for o, column in enumerate(acc):
                start = f"xa_ld(bb + o0 + {o} * XA_VL)" if self.epilogue.bias else "(xa_v){0}"
                w.line(f"xa_v {', '.join(f'{a} = {start}' for a in column)};")
            with w.loop("ky", "ky1", "ky0"):
                w.line(f"const float *dr = dn + ((iy + ky * {conv.dh}) * {conv.w} + ix)"
                       f" * {conv.c};")  # fmt: skip
                with w.loop("kx", "kx1" if checked else conv.kw, "kx0" if checked else 0):
                    w.line(f"const float *d = dr + kx * {conv.dw * conv.c};")
                    w.line(f"const float *wp = pw + (ky * {conv.kw} + kx) * {self.padded} + o0;")
                    for o in range(ob):
                        w.line(f"const xa_v w{o} = xa_ld(wp + {o} * XA_VL);")
                    for o, column in enumerate(acc):
                        for j, a in enumerate(column):
                            w.line(f"{a} += w{o} * {self._input(o, j, partial, m)};")
            _store(w, self.epilogue, acc, "orow + x * " + str(conv.o) + " + o0", "on",
                   str(conv.o))  # fmt: skip

    def _input(self, o: int, j: int, partial: bool, m: int) -> str:
        """The input vector under channel vector `o` of column `j`."""
        column = j * self.conv.sw * self.conv.c
        channel = affine([("XA_VL", o)], "o0") if o else "o0"
        if m > 1:
            count = "on" if partial else "XA_VL"
            at = f"d + {column}" if column else "d"
            return f"xn_spread({at}, {channel}, {count}, {m})"
        place = f"d + {affine([('XA_VL', o)], f'o0 + {column}' if column else 'o0')}"
        return f"xa_ldn({place}, on)" if partial else f"xa_ld({place})"
