"""Loop nest of `relay.image.resize2d`: the taps of each output row and column are tables
computed at build time (`resize_taps`, as the reference), the loops sum them in the
reference's order (along H, then W, in double) and convert once."""

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


def resize2d(k: Kernel) -> None:
    """Resize H and W: per output element, the sum over W taps of the sum over H taps."""
    resize2d_with(k, properties_with_defaults(cast(IRDLOperation, k.op)))


def resize2d_with(k: Kernel, full: Props) -> None:
    """`resize2d` of `k`'s input and output with the resize2d properties `full` (all given),
    for ops computed as a resize (`nn.upsampling`)."""
    layout = get_str(full, "layout")
    ishape, oshape = k.in_shape(0), k.out_shape()
    dims = {d: ishape[layout.index(d)] for d in layout}
    out = {d: oshape[layout.index(d)] for d in layout}
    ins = dict(zip(layout, strides(ishape), strict=True))
    outs = dict(zip(layout, strides(oshape), strict=True))
    h_axis, w_axis = axis_resizes(full, (dims["H"], dims["W"]), (out["H"], out["W"]))
    extrapolation = double_literal(get_float(full, "extrapolation_value"))
    element = k.out_scalar()
    w = k.w
    tables: list[tuple[str, Array, Array, Array]] = []
    for name, axis in (("h", h_axis), ("w", w_axis)):
        index, weights, outside = taps(axis)
        _table(w, INDEX, f"{name}_at", [[str(int(i)) for i in row] for row in index])
        _table(
            w, "double", f"{name}_by", [[double_literal(float(v)) for v in row] for row in weights]
        )
        tables.append((name, index, weights, outside))
    (_, h_index, _, h_out), (_, w_index, _, w_out) = tables
    for name, flags in (("h", h_out), ("w", w_out)):
        if flags.any():
            row = ", ".join("1" if f else "0" for f in flags)
            w.line(f"static const uint8_t {name}_out[{len(flags)}] = {{{row}}};")
    nh, nw = h_index.shape[1] if h_index.size else 0, w_index.shape[1] if w_index.size else 0
    with (
        w.loop("n", dims["N"]),
        w.loop("c", dims["C"]),
        w.loop("y", out["H"]),
        w.loop("x", out["W"]),
    ):
        w.line("double acc = 0;")
        with w.loop("j", nw):
            w.line("double t = 0;")
            with w.loop("i", nh):
                at = affine(
                    [
                        ("n", ins["N"]),
                        ("c", ins["C"]),
                        ("h_at[y][i]", ins["H"]),
                        ("w_at[x][j]", ins["W"]),
                    ]
                )
                w.line(f"t += h_by[y][i] * (double)in0[{at}];")
            if h_out.any():
                w.line(f"if (h_out[y]) t = {extrapolation};")
            w.line("acc += w_by[x][j] * t;")
        if w_out.any():
            w.line(f"if (w_out[x]) acc = {extrapolation};")
        where = affine([("n", outs["N"]), ("c", outs["C"]), ("y", outs["H"]), ("x", outs["W"])])
        value = converted(element, "acc") if element.is_float else _rounded(element, "acc")
        w.line(f"out0[{where}] = {value};")
