"""Depthwise convolution: `accel.conv2d` on NCHW / OIHW with groups = input channels.

The kernel is the shared library's (`codegen/kernels/conv_depthwise.py`: one
(image, input channel) plane at a time, its rows through a phase-split scratch,
a block of output rows per vector of columns in registers, the epilogue in the store); this module
decides which ops take it and splits the planes across threads (`parallel.py`).
"""

from __future__ import annotations

from xrelay.codegen.accel.conv_blocked import conv_of, epilogue_of
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.kernels import conv_depthwise
from xrelay.codegen.kernels.conv_depthwise import Depthwise
from xrelay.dialects.relay.base import get_int, get_str

GRAIN = 1 << 16
"""Multiply-adds per thread, at least (an OpenMP fork and join costs ~1.5-2 us)."""


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
        and conv_depthwise.fits(conv_of(k))
    )


def conv2d_depthwise(k: AccelKernel) -> None:
    """Print the depthwise convolution of `k`, its planes split across threads."""
    conv = conv_of(k)
    epilogue = epilogue_of(k)
    dw = Depthwise(conv, conv.o // conv.c)
    planes = conv.n * conv.c
    work = conv.n * conv.o * conv.oh * conv.ow * conv.kh * conv.kw
    most = k.team.parts(planes, work, GRAIN)
    k.team.run(k, planes, most, lambda inner: conv_depthwise.planes(inner.w, dw, epilogue))
