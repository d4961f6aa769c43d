"""Depthwise convolution, NCHW data / OIHW weights, groups = input channels, any channel
multiplier: the printer accel's `accel.conv2d` and the host's float32 `nn.conv2d` share.

Each (image, input channel) plane is one part of the range `q0 <= q < q1`.
Its output rows are computed in order; the input rows an output row reads are
copied into a small stack scratch (one channel: `slots` rows of `stride`
phases, `conv_direct.py`'s layout), zero-padded left and right, so that tap
`kx` of output columns `x .. x + n` reads `n` contiguous floats. Each output
channel of the plane then accumulates `xv` vectors of output columns
(`xv * XA_VL` floats) in registers over the kernel's taps: one vector load and
one fused multiply-add per vector and tap, the tap's weight broadcast. The
accumulators start at the bias and end in the epilogue (`conv_plan.finish`),
stored once. Columns past the last full block go one vector at a time, the
last one partial (`xa_stn`).

A depthwise layer does `KH * KW` multiply-adds per output, so it is bound by
loads from L1, not by the FMA units: the blocks keep the weights and the
scratch rows in L1 and never read an input element from memory twice.

`planes(w, dw, epilogue)` prints the loop; the caller declares `q0`, `q1`,
`in0`, `in1`, `out0` and the epilogue's pointers.
"""

from __future__ import annotations

from dataclasses import dataclass

from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine
from xrelay.codegen.kernels.conv_plan import Conv, Epilogue, fill_plane_rows, finish, taps
from xrelay.codegen.kernels.vectors import VL_MAX

SCRATCH_FLOATS = 16384
"""The scratch budget of one thread (64 KiB of its stack): one channel's rows."""

MAX_VECTORS = 8
"""At most this many vector accumulators per block (with as many loads in flight)."""


@dataclass(frozen=True)
class Depthwise:
    """A depthwise convolution: its `Conv` extents (`c` channels, `o = c * multiplier`)
    and the channel multiplier."""

    conv: Conv
    multiplier: int

    @property
    def vectors(self) -> int:
        """Vectors of columns per full block: as many full `VL_MAX`-lane vectors as the
        output row holds, at least 1, at most `MAX_VECTORS`."""
        return max(1, min(MAX_VECTORS, self.conv.ow // VL_MAX))


def fits(conv: Conv) -> bool:
    """Whether one channel's scratch rows fit the budget."""
    return conv.per_channel <= SCRATCH_FLOATS


def planes(w: CWriter, dw: Depthwise, epilogue: Epilogue) -> None:
    """The planes `q0 <= q < q1` (image `q / C`, input channel `q % C`), row by row."""
    conv = dw.conv
    w.line(f'_Static_assert(XA_VL <= {VL_MAX}, "scratch rows are padded for {VL_MAX} lanes");')
    w.line(f"float buf[{conv.per_channel}] __attribute__((aligned(64))) = {{0}};")
    w.line(f"{INDEX} held[{conv.slots}];")
    with w.loop("q", "q1", "q0"):
        w.line(f"const {INDEX} n = q / {conv.c}, c = q % {conv.c};")
        w.line(f"const float *restrict plane = in0 + q * {conv.h * conv.w};")
        with w.loop("s", conv.slots):
            w.line("held[s] = -1;")
        with w.loop("y", conv.oh):
            w.line(f"const {INDEX} iy = y * {conv.sh} - {conv.top};")
            taps(w, conv)
            w.line(f"{INDEX} slot[{conv.kh}];")
            fill_plane_rows(w, conv)
            with w.loop("m", dw.multiplier):
                w.line(f"const {INDEX} oc = c * {dw.multiplier} + m;")
                w.line(f"const float *restrict wk = in1 + oc * {conv.kh * conv.kw};")
                w.line(f"const {INDEX} at = {conv.out_row('oc', 'y')};")
                _column_blocks(w, dw, epilogue)


def _column_blocks(w: CWriter, dw: Depthwise, epilogue: Epilogue) -> None:
    """Blocks of `vectors` full vectors of columns, then one vector at a time."""
    ow, xv = dw.conv.ow, dw.vectors
    w.line(f"{INDEX} xo = 0;")
    with w.block(f"for (; xo + {xv} * XA_VL <= {ow}; xo += {xv} * XA_VL)"):
        _block(w, dw.conv, epilogue, xv, partial=False)
    with w.block(f"for (; xo < {ow}; xo += XA_VL)"):
        w.line(f"const {INDEX} nx = {ow} - xo;")
        _block(w, dw.conv, epilogue, 1, partial=True)


def _block(w: CWriter, conv: Conv, epilogue: Epilogue, xv: int, partial: bool) -> None:
    """`xv` vectors of columns from `xo` of output channel `oc`, row `y`; `partial`: one
    vector of `nx` columns, maybe fewer than `XA_VL`."""
    acc = [f"a{v}" for v in range(xv)]
    start = f"xa_splat({epilogue.bias}[oc])" if epilogue.bias else "(xa_v){0}"
    w.line(f"xa_v {', '.join(f'{a} = {start}' for a in acc)};")
    with w.loop("ky", "ky1", "ky0"):
        w.line("const float *s = buf + slot[ky] + xo;")
        w.line(f"const float *wr = wk + ky * {conv.kw};")
        for kx in range(conv.kw):
            reach = kx * conv.dw
            shift = (reach % conv.sw) * conv.row + reach // conv.sw
            with w.block():
                w.line(f"const float wv = wr[{kx}];")
                for v, a in enumerate(acc):
                    w.line(f"{a} += wv * xa_ld(s + {affine([('XA_VL', v)], shift)});")
    for v, a in enumerate(acc):
        place = f"at + xo + {v} * XA_VL" if v else "at + xo"
        residual = None
        if epilogue.residual:
            pointer = f"{epilogue.residual} + {place}"
            residual = f"xa_ldn({pointer}, nx)" if partial else f"xa_ld({pointer})"
        for line in finish(a, epilogue, residual):
            w.line(line)
        store = f"xa_stn(out0 + {place}, {a}, nx);" if partial else f"xa_st(out0 + {place}, {a});"
        w.line(store)
