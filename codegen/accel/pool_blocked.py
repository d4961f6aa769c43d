"""`accel.max_pool2d` when no window is cut: NCHW, no padding, dilation 1, every window inside.

Then each output row is a loop over its columns whose body takes the maximum
of the window's taps at fixed offsets (unrolled: `pool_size` is small), with
no bounds to compute: a loop gcc vectorizes (strided loads, compare, blend).
The maximum keeps numpy's NaN: a tap replaces the running value when it is
greater or is a NaN, so one NaN in the window gives NaN, as the reference.
Every other pool (padding, `ceil_mode` windows past the edge, dilation,
NHWC, average) is `kernels.pool2d`'s.
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.writer import affine
from xrelay.dialects.relay.base import get_ints, get_str


def applies(k: Kernel) -> bool:
    """Whether `k` is a max pool this kernel takes (see the module docstring)."""
    props = k.op.properties
    if k.op.name != "accel.max_pool2d" or get_str(props, "layout") != "NCHW":
        return False
    (_, _, h, w), (_, _, oh, ow) = k.in_shape(0), k.out_shape()
    (kh, kw), (sh, sw) = get_ints(props, "pool_size"), get_ints(props, "strides")
    inside = (oh - 1) * sh + kh <= h and (ow - 1) * sw + kw <= w
    flat = all(p == 0 for p in get_ints(props, "padding"))
    return inside and flat and get_ints(props, "dilation") == (1, 1) and oh * ow > 0


def max_pool2d_inside(k: Kernel) -> None:
    """Print the max pool of `k`, one output row at a time."""
    props = k.op.properties
    (n, c, h, w), (_, _, oh, ow) = k.in_shape(0), k.out_shape()
    (kh, kw), (sh, sw) = get_ints(props, "pool_size"), get_ints(props, "strides")
    out = k.w
    with out.loop("p", n * c), out.loop("y", oh):
        out.line(f"const float *restrict row = in0 + {affine([('p', h * w), ('y', sh * w)])};")
        out.line(f"float *restrict to = out0 + {affine([('p', oh * ow), ('y', ow)])};")
        with out.loop("x", ow):
            out.line(f"float v = row[{affine([('x', sw)])}];")
            for ky in range(kh):
                for kx in range(kw):
                    if ky or kx:
                        out.line(
                            f"const float t{ky}_{kx} = row[{affine([('x', sw)], ky * w + kx)}];"
                        )
                        out.line(
                            f"v = (t{ky}_{kx} > v) | (t{ky}_{kx} != t{ky}_{kx}) ? t{ky}_{kx} : v;"
                        )
            out.line("to[x] = v;")
