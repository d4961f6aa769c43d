"""Loop nests of `relay.image.resize1d/2d/3d`: the taps of each output position along each
spatial axis are tables computed at build time (`resize_taps`, as the reference), the loops
sum them in the reference's order (along the outermost spatial axis first, in double) and
convert once."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import numpy.typing as npt
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, converted
from xrelay.codegen.c.scalars import INDEX, Scalar
from xrelay.codegen.c.writer import CWriter, affine, strides
from xrelay.dialects.relay.base import Props, get_float, get_str, properties_with_defaults
from xrelay.dialects.relay.image import ResizeOp
from xrelay.dialects.relay.resize_taps import axis_resizes, taps

Array = npt.NDArray[Any]


def double_literal(value: float) -> str:
    """An exact C `double` constant."""
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "(-INFINITY)"
    return value.hex()


def _table(w: CWriter, ctype: str, name: str, rows: Sequence[Sequence[str]]) -> None:
    """`static const ctype name[R][C] = {...};` (one element for an empty table)."""
    if not rows or not rows[0]:
        w.line(f"static const {ctype} {name}[1][1] = {{{{0}}}};")
        return
    body = ", ".join("{" + ", ".join(row) + "}" for row in rows)
    w.line(f"static const {ctype} {name}[{len(rows)}][{len(rows[0])}] = {{{body}}};")


def _rounded(element: Scalar, expr: str) -> str:
    """A double converted to an integer element: half to even, saturated, NaN is 0."""
    if element.kind == "uint":
        low, high = "0", f"UINT{element.bits}_MAX"
    else:
        low, high = f"INT{element.bits}_MIN", f"INT{element.bits}_MAX"
    r = f"nearbyint({expr})"
    return (
        f"({r} != {r} ? ({element.ctype})0 : {r} <= (double){low} ? {low} : "
        f"{r} >= (double){high} ? {high} : ({element.ctype}){r})"
    )


def resize(k: Kernel) -> None:
    """`relay.image.resize1d/2d/3d`: per output element, nested sums over the taps of each
    spatial axis."""
    op = cast(ResizeOp, k.op)
    resize_with(k, properties_with_defaults(cast(IRDLOperation, op)), op.SPATIAL)


def resize_with(k: Kernel, full: Props, spatial: str) -> None:
    """Resize the axes `spatial` (outermost first) of `k`'s input into its output with the
    resize properties `full` (all given); also for ops computed as a resize (`nn.upsampling`).
    """
    layout = get_str(full, "layout")
    ishape, oshape = k.in_shape(0), k.out_shape()
    dims = {d: ishape[layout.index(d)] for d in layout}
    out = {d: oshape[layout.index(d)] for d in layout}
    ins = dict(zip(layout, strides(ishape), strict=True))
    outs = dict(zip(layout, strides(oshape), strict=True))
    axes = axis_resizes(full, [dims[d] for d in spatial], [out[d] for d in spatial])
    extrapolation = double_literal(get_float(full, "extrapolation_value"))
    w = k.w
    counts: list[int] = []
    outside: list[bool] = []
    for letter, axis in zip(spatial.lower(), axes, strict=True):
        index, weights, flags = taps(axis)
        _table(w, INDEX, f"{letter}_at", [[str(int(i)) for i in row] for row in index])
        by = [[double_literal(float(v)) for v in row] for row in weights]
        _table(w, "double", f"{letter}_by", by)
        if flags.any():
            row = ", ".join("1" if f else "0" for f in flags)
            w.line(f"static const uint8_t {letter}_out[{len(flags)}] = {{{row}}};")
        counts.append(index.shape[1] if index.size else 0)
        outside.append(bool(flags.any()))
    at = affine(
        [("n", ins["N"]), ("c", ins["C"])]
        + [(f"{d.lower()}_at[o{d.lower()}][i{d.lower()}]", ins[d]) for d in spatial]
    )

    def tap_sum(level: int) -> str:
        """Declare and compute `s<axis>`: the sum over the taps of spatial axis `level` of
        the sums over the axes before it (the input element at the first)."""
        letter = spatial[level].lower()
        total = f"s{letter}"
        w.line(f"double {total} = 0;")
        with w.loop(f"i{letter}", counts[level]):
            value = f"(double)in0[{at}]" if level == 0 else tap_sum(level - 1)
            w.line(f"{total} += {letter}_by[o{letter}][i{letter}] * {value};")
        if outside[level]:
            w.line(f"if ({letter}_out[o{letter}]) {total} = {extrapolation};")
        return total

    names = ["n", "c"] + [f"o{d.lower()}" for d in spatial]
    with w.loops(names, [dims["N"], dims["C"]] + [out[d] for d in spatial]):
        acc = tap_sum(len(spatial) - 1)
        where = affine(
            [("n", outs["N"]), ("c", outs["C"])] + [(f"o{d.lower()}", outs[d]) for d in spatial]
        )
        element = k.out_scalar()
        value = converted(element, acc) if element.is_float else _rounded(element, acc)
        w.line(f"out0[{where}] = {value};")
