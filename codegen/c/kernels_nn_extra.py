"""Loop nests of `nn_extra`'s ops (`dialects/relay/nn_extra.py`): batch_matmul.

As `dense` and `matmul`: floats accumulate in `double`, integers in 64 bits
(wrapping), converted once to the result's type.
"""

from __future__ import annotations

from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, converted
from xrelay.dialects.relay.base import get_bool, properties_with_defaults


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
