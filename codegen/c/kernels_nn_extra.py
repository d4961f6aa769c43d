"""Loop nests of `nn_extra`'s ops (`dialects/relay/nn_extra.py`): batch_matmul, the adaptive
pools (prelu is a fused elementwise rule in `scalar_ops`).

As `dense` and `matmul`: floats accumulate in `double`, integers in 64 bits
(wrapping), converted once to the result's type.
"""

from __future__ import annotations

from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, better, converted, extreme
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import affine, strides
from xrelay.dialects.relay.base import get_bool, get_str, properties_with_defaults


def _props(k: Kernel) -> dict[str, Attribute]:
    """The op's properties, defaults included."""
    assert isinstance(k.op, IRDLOperation)
    return properties_with_defaults(k.op)


def batch_matmul(k: Kernel) -> None:
    """`out[b, i, j] = sum_q x[b, i, q] * y[b, j, q]` (per the transposes), batch 1 broadcast."""
    props = _props(k)
    ta, tb = get_bool(props, "transpose_a"), get_bool(props, "transpose_b")
    (bx, x1, x2), (by, y1, y2) = k.in_shape(0), k.in_shape(1)
    batch, m, n = k.out_shape()
    depth = x1 if ta else x2
    element = k.out_scalar()
    acc = element.accumulator()
    # Element offsets: batch (0 when it broadcasts), then row and column.
    x_base = f"b * {x1 * x2}" if bx != 1 else "0"
    y_base = f"b * {y1 * y2}" if by != 1 else "0"
    x_at = f"{x_base} + q * {x2} + i" if ta else f"{x_base} + i * {x2} + q"
    y_at = f"{y_base} + j * {y2} + q" if tb else f"{y_base} + q * {y2} + j"
    w = k.w
    with w.loop("b", batch), w.loop("i", m), w.loop("j", n):
        w.line(f"{acc} acc = 0;")
        with w.loop("q", depth):
            w.line(f"acc += ({acc})in0[{x_at}] * ({acc})in1[{y_at}];")
        w.line(f"out0[b * {m * n} + i * {n} + j] = {converted(element, 'acc')};")


def adaptive_pool2d(k: Kernel) -> None:
    """The mean or maximum of each adaptive window (TOPI's floor/ceil bounds per output row
    and column), as the reference: sums in double, NaN wins a maximum."""
    props = _props(k)
    layout = get_str(props, "layout")
    ishape, oshape = k.in_shape(0), k.out_shape()
    dims = {d: ishape[layout.index(d)] for d in "NCHW"}
    out_h, out_w = (oshape[layout.index(d)] for d in "HW")
    ins = dict(zip(layout, strides(ishape), strict=True))
    outs = dict(zip(layout, strides(oshape), strict=True))
    element = k.out_scalar()
    is_max = k.op.name == "relay.nn.adaptive_max_pool2d"
    w = k.w
    with w.loop("n", dims["N"]), w.loop("c", dims["C"]), w.loop("y", out_h):
        w.line(f"const {INDEX} y0 = y * {dims['H']} / {out_h};")
        w.line(f"const {INDEX} y1 = ((y + 1) * {dims['H']} + {out_h - 1}) / {out_h};")
        with w.loop("x", out_w):
            w.line(f"const {INDEX} x0 = x * {dims['W']} / {out_w};")
            w.line(f"const {INDEX} x1 = ((x + 1) * {dims['W']} + {out_w - 1}) / {out_w};")
            tap = affine([("n", ins["N"]), ("c", ins["C"]), ("iy", ins["H"]), ("ix", ins["W"])])
            where = affine([("n", outs["N"]), ("c", outs["C"]), ("y", outs["H"]), ("x", outs["W"])])
            if is_max:
                w.line(f"{element.ctype} m = {extreme(element, '>')};")
            else:
                w.line("double sum = 0;")
            with w.loop("iy", "y1", "y0"), w.loop("ix", "x1", "x0"):
                if is_max:
                    w.line(f"const {element.ctype} v = in0[{tap}];")
                    w.line(f"m = {better(element, 'v', 'm', '>')} ? v : m;")
                else:
                    w.line(f"sum += (double)in0[{tap}];")
            if is_max:
                w.line(f"out0[{where}] = m;")
            else:
                count = "(double)((y1 - y0) * (x1 - x0))"
                if not element.is_float:  # an empty window gives 0, not 0 / 0
                    count = f"({count} > 0 ? {count} : 1.0)"
                w.line(f"out0[{where}] = {converted(element, f'sum / {count}')};")
