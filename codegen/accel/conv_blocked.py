"""Register-blocked direct convolution: `accel.conv2d` on NCHW data with OIHW weights, any
group count but depthwise's (`conv_depthwise.py`).

The kernel is the shared library's (`codegen/kernels/conv_direct.py`: output rows, a
phase-split scratch of the input rows, blocks of output channels by vectors of columns in
registers, the epilogue in the store); this module reads an `accel.conv2d` into its plain
description (`conv_of`, the op's bias, residual, relu and clip as an `Epilogue`) and splits
the output rows (of every image) into one contiguous chunk per thread, claimed
(`parallel.py`, `coarse`: a chunk refills the scratch); each thread fills its own scratch (a
stack array of at most `conv_direct.SCRATCH_FLOATS`, 64 KiB: 43 KiB for tinyres's 16-channel
rows at width 224) and keeps the rows it holds by (image, row) key. Grouped convs
(ShuffleNet's 4-group 1x1s) run the kernel once per group over each thread's rows, on the
group's data, weights, output, bias and residual; a 1x1, stride 1, unpadded conv runs over
flattened rows that fill the vectors (`conv_direct.flat_rows`).
"""

from __future__ import annotations

from dataclasses import replace

from xrelay.codegen.accel.epilogues import clip_bounds
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels import conv_direct
from xrelay.codegen.kernels.conv_plan import Conv, Epilogue
from xrelay.dialects.relay.base import get_bool, get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d

GRAIN = 1 << 17
"""Multiply-adds per thread, at least (~3 us; an OpenMP fork and join costs ~1.5-2 us, so
tinyres-32's first conv, 442k multiply-adds, gains ~1.3x on 2 threads)."""


def applies(k: Kernel) -> bool:
    """Whether `k` (an `accel.conv2d`) takes the blocked kernel: NCHW, OIHW, not depthwise
    (more than one input channel per group), and one input channel's rows fit the scratch
    budget (wider rows take `kernels.conv2d_generic`)."""
    props = k.op.properties
    groups = get_int(props, "groups")
    return (
        get_str(props, "data_layout") == "NCHW"
        and get_str(props, "kernel_layout") == "OIHW"
        and (groups == 1 or k.in_shape(0)[1] // groups > 1)
        and conv_direct.fits(conv_of(k))
    )


def conv_of(k: Kernel) -> Conv:
    """The `Conv` of an `accel.conv2d` kernel, all channels (as the depthwise kernel takes it)."""
    props = k.op.properties
    n, c, h, w = k.in_shape(0)
    o, _, kh, kw = k.in_shape(1)
    _, _, oh, ow = k.out_shape()
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, _, _ = pad_2d(get_ints(props, "padding"))
    return Conv(n, c, h, w, o, kh, kw, oh, ow, sh, sw, dh, dw, top, left)


def group_conv_of(k: Kernel) -> Conv:
    """The `Conv` of one group of an `accel.conv2d` kernel (with its images' full extents)."""
    groups = get_int(k.op.properties, "groups")
    conv = conv_of(k)
    if groups == 1:
        return conv
    images = (conv.c * conv.h * conv.w, conv.o * conv.oh * conv.ow)
    return replace(conv, c=conv.c // groups, o=conv.o // groups, in_image=images[0],
                   out_image=images[1])  # fmt: skip


def epilogue_of(k: Kernel) -> Epilogue:
    """The bias, residual (operands after the weights), relu and clip of an `accel.conv2d`."""
    props = k.op.properties
    names = iter(k.ins[2:])
    bias = next(names) if get_bool(props, "has_bias") else None
    residual = next(names) if "has_residual" in props and get_bool(props, "has_residual") else None
    return Epilogue(bias, residual, get_bool(props, "has_relu"), clip_bounds(k.op))


def conv2d_blocked(k: AccelKernel) -> None:
    """Print the blocked convolution of `k`, its output rows split across threads (a grouped
    conv's rows of every group, group by group)."""
    groups = get_int(k.op.properties, "groups")
    conv = group_conv_of(k)
    epilogue = epilogue_of(k)
    work = conv.n * conv.oh * conv.ow * conv.o * conv.c * conv.kh * conv.kw * groups
    most = k.team.parts(conv.n * conv.oh * groups, work, GRAIN)
    # rows for every thread; a known thread count also weighs how evenly they split
    least = -(-k.team.team(most) // (conv.n * groups))
    threads = min(most, k.team.num_threads or 1)
    conv = conv_direct.flat_rows(conv, least=least, team=threads, groups=groups)
    rows = conv.n * conv.oh

    def body(inner: Kernel) -> None:
        if groups == 1:
            conv_direct.rows(inner.w, conv, epilogue)
        else:
            _groups(inner.w, conv, epilogue, groups, rows)

    # one chunk per thread: each chunk fills its own scratch of input rows (parallel.py)
    k.team.run(k, rows * groups, most, body, coarse=True)


def _groups(w: CWriter, conv: Conv, epilogue: Epilogue, groups: int, rows: int) -> None:
    """The kernel over parts `q0 <= q < q1` of `groups * rows` (group `q / rows`, its row
    `q % rows`): each group's rows in that range in turn, with `in0`, `in1`, `out0` and the
    epilogue's pointers moved to the group's (through `xg_` names: a declaration cannot read
    the name it shadows).

    The parts are group-major, so a thread's chunk holds whole groups where there are more
    groups than threads (ShuffleNet's 4-group 1x1s on 2 threads: two groups each, on rows
    as wide as one thread's): splitting every group's rows instead cut a 7x7 plane into rows
    of 7 columns, 7 of 16 lanes, and 2 threads were slower than 1."""
    out_plane = conv.o * conv.oh * conv.ow
    moved = [
        ("in0", "const float *restrict", conv.c * conv.h * conv.w),
        ("in1", "const float *restrict", conv.o * conv.c * conv.kh * conv.kw),
        ("out0", "float *restrict", out_plane),
    ]
    with w.block(f"for ({INDEX} g = q0 / {rows}; g * {rows} < q1; ++g)"):
        w.line(f"const {INDEX} xg_q0 = q0 > g * {rows} ? q0 - g * {rows} : 0;")
        w.line(f"const {INDEX} xg_q1 = q1 < (g + 1) * {rows} ? q1 - g * {rows} : {rows};")
        for name, ctype, step in moved:
            w.line(f"{ctype} xg_{name} = {name} + g * {step};")
        bias = residual = None
        if epilogue.bias:
            bias = "xg_bias"
            w.line(f"const float *restrict xg_bias = {epilogue.bias} + g * {conv.o};")
        if epilogue.residual:
            residual = "xg_residual"
            w.line(f"const float *restrict xg_residual = {epilogue.residual} + g * {out_plane};")
        with w.block():
            w.line(f"const {INDEX} q0 = xg_q0, q1 = xg_q1;")
            for name, ctype, _ in moved:
                w.line(f"{ctype} {name} = xg_{name};")
            conv_direct.rows(w, conv, replace(epilogue, bias=bias, residual=residual))
