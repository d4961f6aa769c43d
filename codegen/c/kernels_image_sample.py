"""Loop nest of `relay.image.grid_sample`: per output position, each axis's taps (indices,
-1 for a read of 0, and weights) are computed from the grid as `grid_taps` does, then
every channel sums them in double, the innermost axis first (the reference's order)."""

from __future__ import annotations

from typing import cast

from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, converted
from xrelay.codegen.c.kernels_image import double_literal
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine, strides
from xrelay.dialects.relay.base import get_bool, get_str, properties_with_defaults
from xrelay.dialects.relay.grid_taps import CUBIC_ALPHA, TAP_OFFSETS, bounds


def _reflect(w: CWriter, v: str, low: float, high: float) -> None:
    """Reflect double `v` by the near border into [low, high] (`grid_taps.reflect`)."""
    lo, hi, span = double_literal(low), double_literal(high), high - low
    if span <= 0:
        w.line(f"{v} = {lo};")
        return
    s = double_literal(span)
    with w.block(f"if ({v} < {lo})"):
        w.line(f"double d = {lo} - {v}, m = floor(d / {s}), r = d - m * {s};")
        w.line(f"{v} = fmod(m, 2) == 0 ? {lo} + r : {hi} - r;")
    with w.block(f"else if ({v} > {hi})"):
        w.line(f"double d = {v} - {hi}, m = floor(d / {s}), r = d - m * {s};")
        w.line(f"{v} = fmod(m, 2) == 0 ? {hi} - r : {lo} + r;")
    w.line(f"{v} = {v} < {lo} ? {lo} : {v} > {hi} ? {hi} : {v};")


def _cubic(w: CWriter, a: int) -> None:
    """Keys' weights (alpha -0.75) at distances 1 + t, t, 1 - t, 2 - t."""
    al = double_literal(CUBIC_ALPHA)
    outer = f"(({al} * (D) - 5 * {al}) * (D) + 8 * {al}) * (D) - 4 * {al}"
    inner = f"(({al} + 2) * (D) - ({al} + 3)) * (D) * (D) + 1"
    for k, (form, d) in enumerate(
        ((outer, "t + 1"), (inner, "t"), (inner, "1 - t"), (outer, "2 - t"))
    ):
        w.line(f"w{a}[{k}] = {form.replace('D', d)};")


def _axis(w: CWriter, k: Kernel, a: int, grid_at: str) -> None:
    """Declare p{a}[taps] and w{a}[taps] for spatial axis `a` from the grid value at `grid_at`."""
    full = properties_with_defaults(cast(IRDLOperation, k.op))
    method, padding = get_str(full, "method"), get_str(full, "padding_mode")
    align = get_bool(full, "align_corners")
    size = k.in_shape(0)[2 + a]
    offsets = TAP_OFFSETS[method]
    low, high = bounds(size, align)
    w.line(f"{INDEX} p{a}[{len(offsets)}];")
    w.line(f"double w{a}[{len(offsets)}];")
    with w.block():
        w.line(f"double g = (double)in1[{grid_at}];")
        if align:
            w.line(f"double x = (g + 1) / 2 * {size - 1};")
        else:
            w.line(f"double x = ((g + 1) * {size} - 1) / 2;")
        w.line("int fin = isfinite(x);")
        w.line("if (!fin) x = 0;")
        if method == "nearest":
            w.line("x = nearbyint(x);")
        lo, hi = double_literal(low), double_literal(high)
        if padding == "border":
            w.line(f"if (x < {lo} || x > {hi}) x = x < 0 ? 0 : x > {size - 1} ? {size - 1} : x;")
        elif padding == "reflection":
            _reflect(w, "x", low, high)
        w.line(f"double base = {'trunc' if method == 'nearest' else 'floor'}(x);")
        w.line("double t = x - base;")
        if method == "nearest":
            w.line(f"w{a}[0] = 1;")
        elif method == "bilinear":
            w.line(f"w{a}[0] = 1 - t;")
            w.line(f"w{a}[1] = t;")
        else:
            _cubic(w, a)
        w.line("(void)t;")
        for i, off in enumerate(offsets):
            with w.block():
                w.line(f"double q = base + {off};")
                if padding == "zeros":
                    w.line(f"p{a}[{i}] = fin && q >= 0 && q < {size} ? ({INDEX})q : -1;")
                    continue
                if padding == "reflection":
                    _reflect(w, "q", low, high)
                    w.line("q = trunc(q);")
                w.line(f"q = q < 0 ? 0 : q > {size - 1} ? {size - 1} : q;")
                w.line(f"p{a}[{i}] = fin ? ({INDEX})q : -1;")


def grid_sample(k: Kernel) -> None:
    """Per batch and output position: the taps of each axis, then each channel's sum."""
    dshape, gshape, oshape = k.in_shape(0), k.in_shape(1), k.out_shape()
    rank = len(dshape) - 2
    ds, gs, os_ = strides(dshape), strides(gshape), strides(oshape)
    method = get_str(properties_with_defaults(cast(IRDLOperation, k.op)), "method")
    taps = len(TAP_OFFSETS[method])
    element = k.out_scalar()
    w = k.w
    outs = [f"o{a}" for a in range(rank)]
    with w.loop("n", oshape[0]), w.loops(outs, oshape[2:]):
        for a in range(rank):
            at = affine(
                [("n", gs[0]), *[(o, gs[2 + i]) for i, o in enumerate(outs)]],
                (rank - 1 - a) * gs[1],
            )
            _axis(w, k, a, at)
        with w.loop("c", oshape[1]):
            _sums(w, rank, taps, ds)
            where = affine(
                [("n", os_[0]), ("c", os_[1]), *[(o, os_[2 + i]) for i, o in enumerate(outs)]]
            )
            w.line(f"out0[{where}] = {converted(element, 's0')};")


def _sums(w: CWriter, rank: int, taps: int, ds: list[int]) -> None:
    """`s0` = sum over axis 0's taps of w0 * (sum over axis 1's taps of w1 * ... data)."""

    def level(a: int) -> None:
        w.line(f"double s{a} = 0;")
        with w.loop(f"i{a}", taps):
            if a == rank - 1:
                valid = " && ".join(f"p{b}[i{b}] >= 0" for b in range(rank))
                at = affine(
                    [("n", ds[0]), ("c", ds[1]), *[(f"p{b}[i{b}]", ds[2 + b]) for b in range(rank)]]
                )
                w.line(f"double v = {valid} ? (double)in0[{at}] : 0.0;")
                w.line(f"s{a} += w{a}[i{a}] * v;")
            else:
                level(a + 1)
                w.line(f"s{a} += w{a}[i{a}] * s{a + 1};")

    level(0)
