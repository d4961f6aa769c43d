"""Register-blocked direct convolution: `accel.conv2d` on NCHW data with OIHW weights, groups 1.

The kernel is the shared library's (`codegen/kernels/conv_direct.py`: output
rows, a phase-split scratch of the input rows, blocks of output channels by
vectors of columns in registers, the epilogue in the store); this module reads
an `accel.conv2d` into its plain description (`conv_of`, the op's bias,
residual, relu and clip as an `Epilogue`) and splits the output rows (of every
image) into one contiguous range per thread (`parallel.py`); each thread fills
its own scratch (a stack array of at most `conv_direct.SCRATCH_FLOATS`, 64 KiB: 43 KiB for
tinyres's 16-channel rows at width 224) and keeps the rows it holds by
(image, row) key.
"""

from __future__ import annotations

from xrelay.codegen.accel.epilogues import clip_bounds
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.kernels import conv_direct
from xrelay.codegen.kernels.conv_plan import Conv, Epilogue
from xrelay.dialects.relay.base import get_bool, get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d

GRAIN = 1 << 17
"""Multiply-adds per thread, at least (~3 us; an OpenMP fork and join costs ~1.5-2 us, so
tinyres-32's first conv, 442k multiply-adds, gains ~1.3x on 2 threads)."""


def applies(k: Kernel) -> bool:
    """Whether `k` (an `accel.conv2d`) takes the blocked kernel: NCHW, OIHW, groups 1, and one
    input channel's rows fit the scratch budget (wider rows take `kernels.conv2d_generic`)."""
    props = k.op.properties
    return (
        get_str(props, "data_layout") == "NCHW"
        and get_str(props, "kernel_layout") == "OIHW"
        and get_int(props, "groups") == 1
        and conv_direct.fits(conv_of(k))
    )


def conv_of(k: Kernel) -> Conv:
    """The `Conv` of an `accel.conv2d` kernel."""
    props = k.op.properties
    n, c, h, w = k.in_shape(0)
    o, _, kh, kw = k.in_shape(1)
    _, _, oh, ow = k.out_shape()
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, _, _ = pad_2d(get_ints(props, "padding"))
    return Conv(n, c, h, w, o, kh, kw, oh, ow, sh, sw, dh, dw, top, left)


def epilogue_of(k: Kernel) -> Epilogue:
    """The bias, residual (operands after the weights), relu and clip of an `accel.conv2d`."""
    props = k.op.properties
    names = iter(k.ins[2:])
    bias = next(names) if get_bool(props, "has_bias") else None
    residual = next(names) if "has_residual" in props and get_bool(props, "has_residual") else None
    return Epilogue(bias, residual, get_bool(props, "has_relu"), clip_bounds(k.op))


def conv2d_blocked(k: AccelKernel) -> None:
    """Print the blocked convolution of `k`, its output rows split across threads."""
    conv = conv_of(k)
    epilogue = epilogue_of(k)
    rows = conv.n * conv.oh
    work = rows * conv.ow * conv.o * conv.c * conv.kh * conv.kw
    most = k.team.parts(rows, work, GRAIN)
    k.team.run(k, rows, most, lambda inner: conv_direct.rows(inner.w, conv, epilogue))
