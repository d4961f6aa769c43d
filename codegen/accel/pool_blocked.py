"""accel's NCHW pools: the shared library's kernel, else, for a max pool with no window cut, a
loop of fixed taps.

Every float32 NCHW pool (padding, `ceil_mode` windows past the edge, dilation, max or
average) whose rows fit the scratch takes the host's vectorized kernel
(`codegen/kernels/pool.py`, planned as the host plans it: `kernels_pool2d.plan`), its
(image, channel) planes split across threads (`pool2d_shared`). Its blocks of rows
reduce each input row once and combine the windows in trees; it is faster than the
fixed-tap loop below on every shape measured, unpadded ones included (SqueezeNet's 3x3/2
pool of 64 111x111 planes: 121 us against 460, 1 thread).

A max pool with no window cut (NCHW, no padding, dilation 1, every window inside) whose
rows do not fit the scratch: each output row is a loop over its columns whose body takes
the maximum of the window's taps at fixed offsets (unrolled: `pool_size` is small), with
no bounds to compute: a loop gcc vectorizes (strided loads, compare, blend). The maximum
keeps numpy's NaN: a tap replaces the running value when it is greater or is a NaN, so one
NaN in the window gives NaN, as the reference. The output rows (of every image and
channel) are split across threads (`parallel.py`). The rest (NHWC, wider rows) is
`kernels.pool2d`'s.
"""

from __future__ import annotations

from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c import kernels_pool2d
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import affine
from xrelay.codegen.kernels import pool
from xrelay.dialects.relay.base import get_ints, get_str

GRAIN = 1 << 16
"""Window taps per thread, at least (~10 us: memory-bound; tinyres-224's first pool, 800k
taps, gains ~1.5x on 2 threads, tinyres-32's, 16k taps, would lose ~15%)."""


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


def shared_applies(k: Kernel) -> bool:
    """Whether `k` (a max or average pool) takes the shared vectorized kernel."""
    return kernels_pool2d.plan(k) is not None


def pool2d_shared(k: AccelKernel) -> None:
    """Print the pool of `k` by the shared kernel, its planes split across threads."""
    found = kernels_pool2d.plan(k)
    assert found is not None
    conv = found.conv
    planes = conv.n * conv.c
    most = k.team.parts(planes, planes * conv.oh * conv.ow * conv.kh * conv.kw, GRAIN)
    k.team.run(k, planes, most, lambda inner: pool.planes(inner.w, found))


def max_pool2d_inside(k: AccelKernel) -> None:
    """Print the max pool of `k`, one output row at a time, the rows split across threads."""
    props = k.op.properties
    (n, c, _, _), (_, _, oh, ow) = k.in_shape(0), k.out_shape()
    kh, kw = get_ints(props, "pool_size")
    rows = n * c * oh
    most = k.team.parts(rows, rows * ow * kh * kw, GRAIN)
    k.team.run(k, rows, most, _rows)


def _rows(k: Kernel) -> None:
    """The output rows `q0 <= q < q1` (of every image and channel, flattened)."""
    props = k.op.properties
    (_, _, h, w), (_, _, oh, ow) = k.in_shape(0), k.out_shape()
    (kh, kw), (sh, sw) = get_ints(props, "pool_size"), get_ints(props, "strides")
    out = k.w
    with out.loop("q", "q1", "q0"):
        if h == oh * sh:  # the output rows' first input rows are equally spaced
            out.line(f"const float *restrict row = in0 + {affine([('q', sh * w)])};")
        else:
            out.line(f"const {INDEX} p = q / {oh}, y = q % {oh};")
            out.line(f"const float *restrict row = in0 + {affine([('p', h * w), ('y', sh * w)])};")
        out.line(f"float *restrict to = out0 + {affine([('q', ow)])};")
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
