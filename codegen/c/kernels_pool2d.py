"""The host's float32 2-D pools on NCHW and NHWC: the shared library's vectorized pools.

`nn.max_pool2d` and `nn.avg_pool2d` (any pool size, strides, dilation,
padding, `ceil_mode`, `count_include_pad`) through `codegen/kernels/pool.py`'s
scratch-row kernel on NCHW or `codegen/kernels/pool_nhwc.py`'s channel-vector kernel on
NHWC, `nn.global_max_pool2d` and `nn.global_avg_pool2d` (NCHW) through
its plane reductions, each printed as a routine specialized to the op
(`codegen/kernels/routine.py`, the library's flags) over a range of planes
`[q0, q1)` (NHWC: of output rows). When they move at least two `threads.GRAIN` bytes, a
second routine runs it on a team of threads (`xn_team` of `codegen/kernels/threads.py`: the
build's `num_threads`, at most one thread per `threads.GRAIN` bytes read and written) that
claim contiguous chunks of the range (`xn_parallel`, through a third routine unpacking the
pointers); one thread calls the range routine directly. Other dtypes, other layouts, empty
planes and rows past the scratch budget keep the loops of `kernels_conv.py` and
`kernels_nn.py` (double sums, as the interpreter).
"""

from __future__ import annotations

from xrelay.codegen.c import kernels_conv, kernels_nn
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels import conv_plan, pool, pool_nhwc, routine, threads, vectors
from xrelay.dialects.relay.base import get_bool, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d

PARAMS = "const float *restrict in0, float *restrict out0"
RANGE_PARAMS = f"{PARAMS}, {INDEX} q0, {INDEX} q1"


def _float32_in(k: Kernel, layout: str = "NCHW") -> bool:
    """Whether `k` reads and writes float32 in `layout`, no dim 0."""
    return (
        get_str(k.op.properties, "layout") == layout
        and k.in_scalar(0).ctype == "float"
        and k.out_scalar().ctype == "float"
        and 0 not in (*k.in_shape(0), *k.out_shape())
    )


def _counts(start: int, dilation: int, size: int, end: int, include: bool) -> int:
    """Taps `t < size` of a window from `start` with `start + t * dilation < end` (the input's
    extent, or with `include` its extent and declared far padding) and, unless `include`,
    `>= 0`; at least 1 (an empty window's sum is 0)."""
    found = 0
    for t in range(size):
        at = start + t * dilation
        if at < end and (include or at >= 0):
            found += 1
    return max(found, 1)


def _window(k: Kernel) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A 2-D pool's (kh, kw), (sh, sw, dh, dw) and padding (top, left, bottom, right)."""
    props = k.op.properties
    size, strides = get_ints(props, "pool_size"), get_ints(props, "strides")
    return size, (*strides, *get_ints(props, "dilation")), pad_2d(get_ints(props, "padding"))


def _divisors(
    k: Kernel, extents: tuple[int, int, int, int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """An average pool's divisor per output row and per output column, for input and output
    extents `(h, w, oh, ow)`."""
    h, w, oh, ow = extents
    (kh, kw), (sh, sw, dh, dw), (top, left, bottom, right) = _window(k)
    include = get_bool(k.op.properties, "count_include_pad")
    ends = (h + bottom, w + right) if include else (h, w)
    rows = tuple(_counts(y * sh - top, dh, kh, ends[0], include) for y in range(oh))
    cols = tuple(_counts(x * sw - left, dw, kw, ends[1], include) for x in range(ow))
    return rows, cols


def plan(k: Kernel) -> pool.Pool | None:
    """The shared pool of `k` (a 2-D max or average pool), None for the loops."""
    if not _float32_in(k):
        return None
    (n, c, h, w), (_, _, oh, ow) = k.in_shape(0), k.out_shape()
    (kh, kw), (sh, sw, dh, dw), (top, left, _, _) = _window(k)
    conv = conv_plan.Conv(n, c, h, w, c, kh, kw, oh, ow, sh, sw, dh, dw, top, left)
    if not pool.fits(conv):
        return None
    if k.op.name.endswith("max_pool2d"):  # relay.nn's, or accel's (`accel/pool_blocked.py`)
        return pool.Pool(conv, True)
    return pool.Pool(conv, False, _divisors(k, (h, w, oh, ow)))


def plan_nhwc(k: Kernel) -> pool_nhwc.PoolNhwc | None:
    """The shared NHWC pool of `k` (a 2-D max or average pool on NHWC float32), else None."""
    if not _float32_in(k, "NHWC"):
        return None
    (n, h, w, c), (_, oh, ow, _) = k.in_shape(0), k.out_shape()
    (kh, kw), (sh, sw, dh, dw), (top, left, _, _) = _window(k)
    geometry = (n, h, w, c, oh, ow, kh, kw, sh, sw, dh, dw, top, left)
    if k.op.name.endswith("max_pool2d"):
        return pool_nhwc.PoolNhwc(*geometry, True)
    return pool_nhwc.PoolNhwc(*geometry, False, _divisors(k, (h, w, oh, ow)))


def pool2d(k: Kernel) -> None:
    """`nn.max_pool2d` / `nn.avg_pool2d`: the shared kernel's routine (NCHW or NHWC), or the
    loops."""
    nhwc = plan_nhwc(k)
    if nhwc is not None:
        print_nhwc(k, nhwc)
        return
    found = plan(k)
    if found is None:
        kernels_conv.pool(k)
        return
    conv = found.conv
    w = CWriter(1)
    pool.planes(w, found)
    moved = 4 * conv.n * conv.c * (conv.h * conv.w + conv.oh * conv.ow)
    _call(k, "xc_pool", w, conv.n * conv.c, moved)


def print_nhwc(k: Kernel, found: pool_nhwc.PoolNhwc) -> None:
    """The shared NHWC pool `found` of `k`: its routine and call."""
    w = CWriter(1)
    pool_nhwc.rows(w, found)
    _call(k, "xc_pool_nhwc", w, found.rows, found.moved)


def global_pool2d(k: Kernel) -> None:
    """`nn.global_max_pool2d` / `nn.global_avg_pool2d`: the plane reductions, or the loops."""
    if not _float32_in(k):
        kernels_nn.global_pool2d(k)
        return
    n, c, h, width = k.in_shape(0)
    w = CWriter(1)
    pool.global_planes(w, h * width, k.op.name == "relay.nn.global_max_pool2d")
    _call(k, "xc_global_pool", w, n * c, 4 * n * c * (h * width + 1))


def _call(k: Kernel, stem: str, body: CWriter, planes: int, moved: int) -> None:
    """The routine of `body` (a loop over the planes, or rows, `[q0, q1)`) and its call on `k`'s:
    directly, or, past two grains of bytes `moved`, through an entry routine that splits the
    planes over threads (`threads.call`)."""
    most = min(planes, moved // threads.GRAIN)
    preludes = (vectors.PRELUDE,)
    if most < 2:
        lines = [f"  const {INDEX} q0 = 0, q1 = {planes};", *body.lines]
        made = routine.routine(stem, PARAMS, lines, preludes)
    else:
        ranged = routine.routine(f"{stem}_range", RANGE_PARAMS, body.lines, preludes)
        ctypes = ["const float *", "float *"]
        part = routine.routine(
            f"{stem}_chunk", threads.PART_PARAMS, threads.trampoline(ranged.name, ctypes)
        )
        w = CWriter(1)
        w.line(f"const int team = xn_team(XR_NUM_THREADS, {most});")
        with w.block("if (team > 1)"):
            threads.call(w, "team", str(planes), str(most), part.name, ["in0", "out0"])
        with w.block("else"):
            w.line(f"{ranged.name}(in0, out0, 0, {planes});")
        made = routine.routine(stem, PARAMS, w.lines)
        k.routines += [ranged, part]
        k.libraries.add("threads")
    k.routines.append(made)
    k.w.line("/* the shared pool kernel (codegen/kernels) */")
    k.w.line(f"{made.name}(in0, out0);")
