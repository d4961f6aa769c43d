"""Depthwise convolution, NCHW data / OIHW weights, groups = input channels, any channel
multiplier: the printer accel's `accel.conv2d` and the host's float32 `nn.conv2d` share.

Each (image, input channel) plane is one part of the range `q0 <= q < q1`. Its output
rows are computed in blocks of `Depthwise.rows` rows; the input rows a block reads are
copied into a small stack scratch (one channel: a ring of `Conv.span` rows of
`stride` phases, `conv_direct.py`'s layout, plus one row of zeros that stands for the
rows above and below the input), zero-padded left and right, so that tap `kx` of output
columns `x .. x + n` reads `n` contiguous floats. For each vector of output columns, the
block's rows accumulate in registers (one accumulator per output row): each input row's
vector at tap `kx` is loaded once and multiplied into every row of the block whose taps
read it, with that tap's weight broadcast. The accumulators start at the bias and end in
the epilogue (`conv_plan.finish`), stored once; the last vector of a row may be partial
(`xa_stn`).

A depthwise layer does `KH * KW` multiply-adds per output, so it is bound by loads and by
the multiply-add chains' latency, not by the FMA units' throughput. One row at a time
(the kernel before this one) made one chain of 9 dependent multiply-adds per vector, and
ShuffleNet's 14- and 7-wide rows hold one vector: 45 us for a 272-channel 14x14 layer
against onnxruntime's ~20. A block of rows makes that many independent chains and reads
each input vector once for up to `KH` output rows. The rows above and below the input read
the zero row: their taps add `w * 0`, as the interpreter's zero padding does.

`planes(w, dw, epilogue)` prints the loop; the caller declares `q0`, `q1`,
`in0`, `in1`, `out0` and the epilogue's pointers.
"""

from __future__ import annotations

from dataclasses import dataclass

from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels.conv_plan import Conv, Epilogue, fill_ring, finish, row_blocks
from xrelay.codegen.kernels.vectors import VL_MAX

SCRATCH_FLOATS = 16384
"""The scratch budget of one thread (64 KiB of its stack): one channel's rows."""


@dataclass(frozen=True)
class Depthwise:
    """A depthwise convolution: its `Conv` extents (`c` channels, `o = c * multiplier`)
    and the channel multiplier."""

    conv: Conv
    multiplier: int

    @property
    def rows(self) -> int:
        """Output rows per block (`Conv.block_rows` in the scratch budget)."""
        return self.conv.block_rows(SCRATCH_FLOATS)


def fits(conv: Conv) -> bool:
    """Whether one channel's scratch rows fit the budget (for blocks of one row)."""
    return conv.block_scratch(1) <= SCRATCH_FLOATS


def planes(w: CWriter, dw: Depthwise, epilogue: Epilogue) -> None:
    """The planes `q0 <= q < q1` (image `q / C`, input channel `q % C`), in blocks of rows."""
    conv, rows = dw.conv, dw.rows
    ring = conv.span(rows)
    w.line(f'_Static_assert(XA_VL <= {VL_MAX}, "scratch rows are padded for {VL_MAX} lanes");')
    w.line(f"float buf[{conv.block_scratch(rows)}] __attribute__((aligned(64))) = {{0}};")
    w.line(f"const float *const zero = buf + {ring * conv.sw * conv.row};")
    w.line(f"{INDEX} held[{ring}];")
    with w.loop("q", "q1", "q0"):
        w.line(f"const {INDEX} n = q / {conv.c}, c = q % {conv.c};")
        w.line(f"const float *restrict plane = in0 + q * {conv.h * conv.w};")
        with w.loop("s", ring):
            w.line("held[s] = -1;")
        row_blocks(w, conv, rows, lambda block: _rows(w, dw, epilogue, block, ring))


def _rows(w: CWriter, dw: Depthwise, epilogue: Epilogue, rows: int, ring: int) -> None:
    """Output rows `y0 .. y0 + rows` of every output channel of plane `q`: their input rows
    into the ring (`sp[t]`: input row `y0 * sh - top + t`, or the zero row), then each
    vector of columns."""
    conv, span = dw.conv, dw.conv.span(rows)
    fill_ring(w, conv, span, ring, "zero")
    with w.loop("m", dw.multiplier):
        w.line(f"const {INDEX} oc = c * {dw.multiplier} + m;")
        w.line(f"const float *restrict wk = in1 + oc * {conv.kh * conv.kw};")
        w.line(f"float wt[{conv.kh * conv.kw}];")
        with w.loop("i", conv.kh * conv.kw):
            w.line("wt[i] = wk[i];")
        w.line(f"{INDEX} xo = 0;")
        with w.block(f"for (; xo + XA_VL <= {conv.ow}; xo += XA_VL)"):
            _vector(w, conv, epilogue, rows, span, partial=False)
        with w.block(f"if (xo < {conv.ow})"):
            w.line(f"const {INDEX} nx = {conv.ow} - xo;")
            _vector(w, conv, epilogue, rows, span, partial=True)


def _vector(
    w: CWriter, conv: Conv, epilogue: Epilogue, rows: int, span: int, partial: bool
) -> None:
    """One vector of columns from `xo` of output channel `oc`, rows `y0 .. y0 + rows`;
    (reading `span` input rows, `sp`); `partial`: `nx` columns, maybe fewer than `XA_VL`."""
    acc = [f"a{j}" for j in range(rows)]
    start = f"xa_splat({epilogue.bias}[oc])" if epilogue.bias else "(xa_v){0}"
    w.line(f"xa_v {', '.join(f'{a} = {start}' for a in acc)};")
    for t in range(span):
        # output row j reads input row t at tap ky when j * sh + ky * dh == t
        users = [
            (j, (t - j * conv.sh) // conv.dh)
            for j in range(rows)
            if t >= j * conv.sh
            and (t - j * conv.sh) % conv.dh == 0
            and (t - j * conv.sh) // conv.dh < conv.kh
        ]
        if not users:
            continue
        with w.block():
            w.line(f"const float *s = sp[{t}] + xo;")
            for kx in range(conv.kw):
                w.line(f"const xa_v x{kx} = xa_ld(s + {conv.tap_shift(kx)});")
            for j, ky in users:
                for kx in range(conv.kw):
                    w.line(f"a{j} += wt[{ky * conv.kw + kx}] * x{kx};")
    for j, a in enumerate(acc):
        with w.block():
            w.line(f"const {INDEX} at = {conv.out_row('oc', f'y0 + {j}')} + xo;")
            residual = None
            if epilogue.residual:
                pointer = f"{epilogue.residual} + at"
                residual = f"xa_ldn({pointer}, nx)" if partial else f"xa_ld({pointer})"
            for line in finish(a, epilogue, residual):
                w.line(line)
            w.line(f"xa_stn(out0 + at, {a}, nx);" if partial else f"xa_st(out0 + at, {a});")
