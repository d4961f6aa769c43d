"""Register-blocked depthwise convolution: `accel.conv2d` with `groups` = input channels.

NCHW data, OIHW weights of shape `(C * multiplier, 1, KH, KW)`: output channel
`oc` reads input channel `oc / multiplier` only (MobileNet's 3x3 and 5x5 layers),
any stride, padding and dilation. Each (image, input channel) plane is one part
of the thread split (`parallel.py`). Its output rows are computed in order; the
input rows an output row reads are copied into a small stack scratch (one
channel: `slots` rows of `stride` phases, `conv_blocked.py`'s layout), zero-padded
left and right, so that tap `kx` of output columns `x .. x + n` reads `n`
contiguous floats. Each output channel of the plane then accumulates `xv` vectors
of output columns (`xv * XA_VL` floats) in registers over the kernel's taps:
one vector load and one fused multiply-add per vector and tap, the tap's weight
broadcast. The accumulators start at the bias and end in the epilogue
(`+ residual`, relu, clip: `epilogues.py`), stored once. Columns past the last
full block go one vector at a time, the last one partial (`xa_stn`).

A depthwise layer does `KH * KW` multiply-adds per output, so it is bound by
loads from L1, not by the FMA units: the blocks keep the weights and the
scratch rows in L1 and never read an input element from memory twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from xrelay.codegen.accel.conv_blocked import Conv, Epilogue, conv_of
from xrelay.codegen.accel.epilogues import clip_bounds, vector_clip
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.accel.vectors import VL_MAX
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine
from xrelay.dialects.relay.base import get_bool, get_int, get_str

SCRATCH_FLOATS = 16384
"""The scratch budget of one thread (64 KiB of its stack): one channel's rows."""

GRAIN = 1 << 16
"""Multiply-adds per thread, at least (an OpenMP fork and join costs ~1.5-2 us)."""

MAX_VECTORS = 8
"""At most this many vector accumulators per block (with as many loads in flight)."""


@dataclass(frozen=True)
class Depthwise:
    """A depthwise convolution: its `Conv` extents and the channel multiplier."""

    conv: Conv
    multiplier: int

    @property
    def vectors(self) -> int:
        """Vectors of columns per full block: as many full `VL_MAX`-lane vectors as the
        output row holds, at least 1, at most `MAX_VECTORS`."""
        return max(1, min(MAX_VECTORS, self.conv.ow // VL_MAX))


def applies(k: Kernel) -> bool:
    """Whether `k` (an `accel.conv2d`) is depthwise in NCHW / OIHW (groups = input channels,
    one input channel per group, output channels a multiple of them) and one channel's
    scratch rows fit the budget."""
    props = k.op.properties
    if get_str(props, "data_layout") != "NCHW" or get_str(props, "kernel_layout") != "OIHW":
        return False
    channels, groups = k.in_shape(0)[1], get_int(props, "groups")
    out_channels, per_group = k.in_shape(1)[:2]
    return (
        groups == channels
        and groups > 1
        and per_group == 1
        and out_channels % channels == 0
        and conv_of(k).per_channel <= SCRATCH_FLOATS
    )


def conv2d_depthwise(k: AccelKernel) -> None:
    """Print the depthwise convolution of `k` (see the module docstring), its planes split
    across threads."""
    conv = conv_of(k)
    props = k.op.properties
    names = iter(k.ins[2:])
    bias = next(names) if get_bool(props, "has_bias") else None
    residual = next(names) if "has_residual" in props and get_bool(props, "has_residual") else None
    epilogue = Epilogue(bias, residual, get_bool(props, "has_relu"), clip_bounds(k.op))
    dw = Depthwise(conv, conv.o // conv.c)
    planes = conv.n * conv.c
    work = conv.n * conv.o * conv.oh * conv.ow * conv.kh * conv.kw
    most = k.team.parts(planes, work, GRAIN)
    k.team.run(k, planes, most, lambda inner: _planes(inner.w, dw, epilogue))


def _planes(w: CWriter, dw: Depthwise, epilogue: Epilogue) -> None:
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
            _taps(w, conv)
            w.line(f"{INDEX} slot[{conv.kh}];")
            _fill(w, conv)
            with w.loop("m", dw.multiplier):
                w.line(f"const {INDEX} oc = c * {dw.multiplier} + m;")
                w.line(f"const float *restrict wk = in1 + oc * {conv.kh * conv.kw};")
                w.line(f"const {INDEX} at = ((n * {conv.o} + oc) * {conv.oh} + y) * {conv.ow};")
                _column_blocks(w, dw, epilogue)


def _taps(w: CWriter, conv: Conv) -> None:
    """`ky0 <= ky < ky1`: the kernel rows inside the input for this output row."""
    step = conv.dh
    if step == 1:
        w.line(f"const {INDEX} ky0 = iy < 0 ? -iy : 0;")
        w.line(f"const {INDEX} eky = {conv.h} - iy;")
    else:
        w.line(f"const {INDEX} ky0 = iy < 0 ? (-iy + {step - 1}) / {step} : 0;")
        w.line(f"const {INDEX} eky = ({conv.h} - iy + {step - 1}) / {step};")
    w.line(f"const {INDEX} ky1 = eky < {conv.kh} ? eky : {conv.kh};")


def _fill(w: CWriter, conv: Conv) -> None:
    """Copy the input rows this output row reads into their slots (row `r` in slot
    `r % slots`, phase `p` holding the padded columns `p, p + sw, ...`) unless held."""
    phase_rows = conv.sw * conv.row
    with w.loop("ky", "ky1", "ky0"):
        w.line(f"const {INDEX} r = iy + ky * {conv.dh};")
        w.line(f"slot[ky] = r % {conv.slots} * {phase_rows};")
        with w.block(f"if (held[r % {conv.slots}] != r)"):
            w.line(f"held[r % {conv.slots}] = r;")
            w.line(f"const float *restrict row = plane + r * {conv.w};")
            w.line("float *restrict to = buf + slot[ky];")
            for phase in range(conv.sw):
                start = max(0, -(-(conv.left - phase) // conv.sw))
                end = min(conv.row, -(-(conv.w + conv.left - phase) // conv.sw))
                if end > start:
                    column = affine([("j", conv.sw)], phase - conv.left)
                    with w.loop("j", end, start):
                        w.line(f"to[{affine([('j', 1)], phase * conv.row)}] = row[{column}];")


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
        if epilogue.residual:
            load = f"xa_ldn({epilogue.residual} + {place}, nx)" if partial else None
            w.line(f"{a} += {load or f'xa_ld({epilogue.residual} + {place})'};")
        if epilogue.relu:
            w.line(f"{a} = xa_relu({a});")
        if epilogue.clip:
            w.line(f"{a} = {vector_clip(a, epilogue.clip)};")
        store = f"xa_stn(out0 + {place}, {a}, nx);" if partial else f"xa_st(out0 + {place}, {a});"
        w.line(store)
