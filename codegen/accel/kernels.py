"""Loop nests of the accel kernels: one printer per `accel.*` op, float32 only.

Each printer is a `KernelFn` (`codegen/c/kernel_api.py`): it reads `in0`,
`in1`, ... (operand order; the optional bias is `in2`) and writes `out0`.
Every kernel accumulates in `float` and ends in its epilogue: the bias (the
accumulator's start value) and the relu (`v <= 0 ? 0 : v`, NaN kept as numpy's
`maximum`) are applied as the value is stored, never as separate passes.

Loop order is chosen for the speed work to come: the innermost loops run
along contiguous output elements (convolution: one output row accumulated in
a local array, the input row read at a fixed stride; elementwise ops: one flat
loop), window bounds are computed per output row and per tap column, never
tested per element. Convolution and pools take every layout their op verifies
(`NCHW`/`NHWC` data, `OIHW`/`HWIO`/`OHWI`/`HWOI` weights) through per-dim strides.
The blocked and depthwise convs, the dense, the NCHW pools and the flat
loops split across threads (`parallel.py`); the generic conv, the other pools
and batch_norm run on the calling thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from xrelay.codegen.accel import (
    conv_blocked,
    conv_depthwise,
    conv_gemm,
    dense_gemm,
    pool_blocked,
)
from xrelay.codegen.accel.conv_winograd import conv2d_winograd
from xrelay.codegen.accel.dense_blocked import dense_blocked
from xrelay.codegen.accel.epilogues import clip, clip_bounds
from xrelay.codegen.accel.parallel import AccelKernel, AccelKernelFn
from xrelay.codegen.c.kernel_api import Kernel, better, numel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine, strides
from xrelay.dialects.relay.base import get_bool, get_float, get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d


def relu(value: str) -> str:
    """`max(value, 0)` with numpy's NaN: a NaN stays NaN, -0 becomes +0 (docs/semantics.md)."""
    return f"({value} <= 0.0f ? 0.0f : {value})"


def epilogue(k: Kernel, value: str) -> str:
    """`value` after the op's relu when it has one (`has_relu`), then its clip (`clip_min` /
    `clip_max`, `epilogues.py`; `value` must then be a plain name, read several times)."""
    props = k.op.properties
    if "has_relu" in props and get_bool(props, "has_relu"):
        value = relu(value)
    bounds = clip_bounds(k.op)
    return value if bounds is None else clip(value, bounds)


def has_bias(k: Kernel) -> bool:
    """Whether the op adds a bias (operand `in2`)."""
    return get_bool(k.op.properties, "has_bias")


def has_residual(k: Kernel) -> bool:
    """Whether a conv2d adds a residual (its last operand, after the bias)."""
    return get_bool(k.op.properties, "has_residual")


def taps(w: CWriter, name: str, base: str, step: int, extent: int, count: int) -> None:
    """Declare `name0 <= t < name1`: the `t < count` with `0 <= base + t * step < extent`.

    `base` is a C expression (an identifier or a number) for the coordinate of tap 0.
    """
    if step == 1:
        w.line(f"const {INDEX} {name}0 = {base} < 0 ? -{base} : 0;")
        w.line(f"const {INDEX} e{name} = {extent} - {base};")
    else:
        w.line(f"const {INDEX} {name}0 = {base} < 0 ? (-{base} + {step - 1}) / {step} : 0;")
        w.line(f"const {INDEX} e{name} = ({extent} - {base} + {step - 1}) / {step};")
    w.line(f"const {INDEX} {name}1 = e{name} < {count} ? e{name} : {count};")


def _dims(layout: str, shape: tuple[int, ...]) -> tuple[dict[str, int], dict[str, int]]:
    """(extent, element stride) of each dim letter of a layout."""
    return dict(zip(layout, shape, strict=True)), dict(zip(layout, strides(shape), strict=True))


# ------------------------------------------------------------------ conv2d


def conv2d(k: AccelKernel) -> None:
    """A GEMM per image for deep 1x1 convs (`conv_gemm.py`), the blocked kernel
    (`conv_blocked.py`) for NCHW / OIHW but depthwise, the depthwise one
    (`conv_depthwise.py`) for NCHW / OIHW / groups = input channels, else `conv2d_generic`."""
    if conv_gemm.applies(k):
        conv_gemm.conv2d_gemm(k)
    elif conv_blocked.applies(k):
        conv_blocked.conv2d_blocked(k)
    elif conv_depthwise.applies(k):
        conv_depthwise.conv2d_depthwise(k)
    else:
        conv2d_generic(k)


def conv2d_generic(k: Kernel) -> None:
    """Direct grouped, dilated convolution in any layout, one output row at a time.

    For each (image, output channel, output row) the row's accumulators start
    at the bias; each (input channel, kernel row inside the input, kernel
    column) adds `weight * input` over the output columns whose tap is inside
    the input (a contiguous range); the row is stored through the epilogue
    (`+ residual`, relu).
    """
    props = k.op.properties
    data_layout = get_str(props, "data_layout")
    dsize, ds = _dims(data_layout, k.in_shape(0))
    wsize, ws = _dims(get_str(props, "kernel_layout"), k.in_shape(1))
    osize, os_ = _dims(data_layout, k.out_shape())
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, _, _ = pad_2d(get_ints(props, "padding"))
    groups = get_int(props, "groups")
    oh, ow, cg = osize["H"], osize["W"], wsize["I"]
    w = k.w
    with w.loop("n", dsize["N"]), w.loop("oc", wsize["O"]):
        group_size = wsize["O"] // groups
        w.line(f"const {INDEX} c0 = {f'oc / {group_size} * {cg}' if groups > 1 else '0'};")
        w.line(f"const float start = {'in2[oc]' if has_bias(k) else '0.0f'};")
        with w.loop("y", oh):
            w.line(f"float acc[{ow}];")
            with w.loop("x", ow):
                w.line("acc[x] = start;")
            w.line(f"const {INDEX} iy = {affine([('y', sh)], -top)};")
            taps(w, "ky", "iy", dh, dsize["H"], wsize["H"])
            with w.loop("ic", cg), w.loop("ky", "ky1", "ky0"):
                rows = affine([("ky", dh)], "iy")
                row = affine([("n", ds["N"]), ("c0 + ic", ds["C"]), (rows, ds["H"])])
                w.line(f"const float *row = in0 + {row};")
                with w.loop("kx", wsize["W"]):
                    weight = affine(
                        [("oc", ws["O"]), ("ic", ws["I"]), ("ky", ws["H"]), ("kx", ws["W"])]
                    )
                    w.line(f"const float wv = in1[{weight}];")
                    w.line(f"const {INDEX} ix = {affine([('kx', dw)], -left)};")
                    taps(w, "x", "ix", sw, dsize["W"], ow)
                    with w.loop("x", "x1", "x0"):
                        tap = affine([("x", sw * ds["W"]), ("ix", ds["W"])])
                        w.line(f"acc[x] += wv * row[{tap}];")
            where = affine([("n", os_["N"]), ("oc", os_["C"]), ("y", os_["H"]), ("x", os_["W"])])
            total = f"(acc[x] + {k.ins[-1]}[{where}])" if has_residual(k) else "acc[x]"
            with w.loop("x", ow):
                w.line(f"out0[{where}] = {epilogue(k, total)};")


# ------------------------------------------------------------------ dense


def dense(k: AccelKernel) -> None:
    """The vectorized dense (`dense_blocked.py`); many rows through the shared GEMM
    (`dense_gemm.py`)."""
    if dense_gemm.takes(k):
        dense_gemm.dense_gemm(k)
    else:
        dense_blocked(k)


def dense_naive(k: Kernel) -> None:
    """`data @ weight.T` over the data's leading dims: one dot product per output, from the bias."""
    dshape, (units, depth) = k.in_shape(0), k.in_shape(1)
    w = k.w
    with w.loop("m", numel(dshape[:-1])):
        w.line(f"const float *row = in0 + {affine([('m', depth)])};")
        with w.loop("u", units):
            w.line(f"const float *col = in1 + {affine([('u', depth)])};")
            w.line(f"float acc = {'in2[u]' if has_bias(k) else '0.0f'};")
            with w.loop("q", depth):
                w.line("acc += row[q] * col[q];")
            w.line(f"out0[{affine([('m', units)], 'u')}] = {epilogue(k, 'acc')};")


# ------------------------------------------------------------------ pools


def pool2d(k: AccelKernel) -> None:
    """Max or average pool with padding, dilation, ceil_mode and count_include_pad.

    Window bounds per output row and column; the body is `_max` or `_average`.
    A float32 NCHW pool whose rows fit its scratch is the shared library's
    (`pool_blocked.pool2d_shared`), another max pool with no window cut
    `pool_blocked.py`'s.
    """
    if pool_blocked.shared_applies(k):
        pool_blocked.pool2d_shared(k)
        return
    if pool_blocked.applies(k):
        pool_blocked.max_pool2d_inside(k)
        return
    props = k.op.properties
    layout = get_str(props, "layout")
    (size, ins), (osize, outs) = _dims(layout, k.in_shape(0)), _dims(layout, k.out_shape())
    (kh, kw), (sh, sw) = get_ints(props, "pool_size"), get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, bottom, right = pad_2d(get_ints(props, "padding"))
    w = k.w
    with w.loop("n", size["N"]), w.loop("c", size["C"]), w.loop("y", osize["H"]):
        w.line(f"const {INDEX} iy = {affine([('y', sh)], -top)};")
        taps(w, "ky", "iy", dh, size["H"], kh)
        with w.loop("x", osize["W"]):
            w.line(f"const {INDEX} ix = {affine([('x', sw)], -left)};")
            taps(w, "kx", "ix", dw, size["W"], kw)
            rows, cols = affine([("ky", dh)], "iy"), affine([("kx", dw)], "ix")
            tap = affine([("n", ins["N"]), ("c", ins["C"]), (rows, ins["H"]), (cols, ins["W"])])
            where = affine([("n", outs["N"]), ("c", outs["C"]), ("y", outs["H"]), ("x", outs["W"])])
            if k.op.name == "accel.max_pool2d":
                _max(k, tap, (kh, kw))
            else:
                sides = ((size["H"] + bottom, dh, kh), (size["W"] + right, dw, kw))
                _average(k, tap, sides)
            w.line(f"out0[{where}] = v;")


def _max(k: Kernel, tap: str, pool: tuple[int, int]) -> None:
    """`v`: the window's maximum, NaN winning; the padding (the reference's lowest
    float) takes part when the window reaches it."""
    w = k.w
    inside = f"ky0 == 0 && kx0 == 0 && ky1 == {pool[0]} && kx1 == {pool[1]}"
    w.line(f"float v = {inside} ? -INFINITY : -FLT_MAX;")
    with w.loop("ky", "ky1", "ky0"), w.loop("kx", "kx1", "kx0"):
        w.line(f"const float t = in0[{tap}];")
        w.line(f"v = {better(k.out_scalar(), 't', 'v', '>')} ? t : v;")


def _average(k: Kernel, tap: str, sides: tuple[tuple[int, int, int], ...]) -> None:
    """`v`: the sum of the taps inside the input over their count, or over the count
    inside the input and its declared padding (`count_include_pad`; `sides` holds
    (padded extent, dilation, pool size) of H and W); an empty window gives 0."""
    w = k.w
    w.line("float sum = 0.0f;")
    with w.loop("ky", "ky1", "ky0"), w.loop("kx", "kx1", "kx0"):
        w.line(f"sum += in0[{tap}];")
    for axis, (padded, step, count) in zip("yx", sides, strict=True):
        if get_bool(k.op.properties, "count_include_pad"):
            # i<axis> >= -(the declared front padding): only the far end can cut the window.
            reach = (
                f"{padded} - i{axis}"
                if step == 1
                else f"({padded} - i{axis} + {step - 1}) / {step}"
            )
            w.line(f"const {INDEX} p{axis} = {reach};")
            clamped = f"p{axis} < {count} ? (p{axis} > 0 ? p{axis} : 0) : {count}"
            w.line(f"const {INDEX} c{axis} = {clamped};")
        else:
            w.line(f"const {INDEX} c{axis} = k{axis}1 > k{axis}0 ? k{axis}1 - k{axis}0 : 0;")
    w.line(f"const {INDEX} count = cy * cx > 0 ? cy * cx : 1;")
    w.line("const float v = sum / (float)count;")


def global_avg_pool2d(k: Kernel) -> None:
    """The mean over H and W of each (image, channel)."""
    layout = get_str(k.op.properties, "layout")
    (size, ins), (_, outs) = _dims(layout, k.in_shape(0)), _dims(layout, k.out_shape())
    w = k.w
    with w.loop("n", size["N"]), w.loop("c", size["C"]):
        w.line("float sum = 0.0f;")
        with w.loop("y", size["H"]), w.loop("x", size["W"]):
            tap = affine([("n", ins["N"]), ("c", ins["C"]), ("y", ins["H"]), ("x", ins["W"])])
            w.line(f"sum += in0[{tap}];")
        where = affine([("n", outs["N"]), ("c", outs["C"])])
        area = size["H"] * size["W"]  # an empty mean: 0 / 0, NaN
        w.line(f"out0[{where}] = {f'sum / {float(area)}f' if area else 'NAN'};")


# ------------------------------------------------------------------ elementwise, batch_norm

_SYMBOLS = {"accel.add": "+", "accel.subtract": "-", "accel.multiply": "*"}


FLAT_GRAIN = 1 << 16
"""Elements per thread of a flat loop, at least (memory-bound: ~10 us)."""


def flat(k: AccelKernel, value: str) -> None:
    """`out0[i] = value` for every element `i`, the elements split across threads."""
    total = numel(k.out_shape())

    def body(inner: Kernel) -> None:
        with inner.w.loop("i", "q1", "q0"):
            inner.w.line(f"out0[i] = {value};")

    k.team.run(k, total, k.team.parts(total, total, FLAT_GRAIN), body)


def elementwise(k: AccelKernel) -> None:
    """`lhs <op> rhs` on equal shapes, one flat loop, then the relu epilogue."""
    symbol = _SYMBOLS[k.op.name]
    flat(k, epilogue(k, f"(in0[i] {symbol} in1[i])"))


def clip_kernel(k: AccelKernel) -> None:
    """`clip(x, a_min, a_max)`, one flat loop (NaN kept, `epilogues.py`)."""
    bounds = clip_bounds(k.op)
    assert bounds is not None
    flat(k, clip("in0[i]", bounds))


def relu_kernel(k: AccelKernel) -> None:
    """`max(x, 0)`, one flat loop."""
    flat(k, relu("in0[i]"))


def batch_norm(k: Kernel) -> None:
    """`(x - mean) * s + beta` along `axis`, with `s = gamma / sqrt(var + eps)` per channel
    (computed once in double; no gamma without `scale`, no beta without `center`)."""
    props = k.op.properties
    shape = k.in_shape(0)
    axis = get_int(props, "axis") % len(shape)
    outer, extent, inner = numel(shape[:axis]), shape[axis], numel(shape[axis + 1 :])
    eps = get_float(props, "epsilon").hex()
    gamma = " * (double)in1[c]" if get_bool(props, "scale") else ""
    beta = "in2[c]" if get_bool(props, "center") else "0.0f"
    w = k.w
    with w.loop("o", outer), w.loop("c", extent):
        w.line(f"const float s = (float)(1.0 / sqrt((double)in4[c] + {eps}){gamma});")
        w.line(f"const float mean = in3[c], shift = {beta};")
        at = affine([("o", extent * inner), ("c", inner)], "i")
        with w.loop("i", inner):
            w.line(f"out0[{at}] = (in0[{at}] - mean) * s + shift;")


KERNELS: Mapping[str, AccelKernelFn] = MappingProxyType(
    {
        "accel.conv2d": conv2d,
        "accel.conv2d_winograd": conv2d_winograd,
        "accel.dense": dense,
        "accel.max_pool2d": pool2d,
        "accel.avg_pool2d": pool2d,
        "accel.global_avg_pool2d": global_avg_pool2d,
        "accel.add": elementwise,
        "accel.subtract": elementwise,
        "accel.multiply": elementwise,
        "accel.relu": relu_kernel,
        "accel.batch_norm": batch_norm,
        "accel.clip": clip_kernel,
    }
)
"""Accel op name -> printer of its loop nest."""
