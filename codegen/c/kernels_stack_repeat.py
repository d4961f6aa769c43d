"""Loop nests of `relay.stack` and `relay.repeat`: plain copies, one per output element.

Both split the shape at the axis into an outer count (the dims before) and an inner block
(the dims after): stacking puts input `i`'s block `r` at output block `r * n + i`; repeating
writes each inner block of the axis's element `j` `repeats` times in a row.
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.dialects.relay import stack_repeat as sr
from xrelay.dialects.relay.base import get_int


def stack(k: Kernel) -> None:
    """`out0[(r * n + i) * inner + c] = in_i[r * inner + c]`."""
    shape = k.in_shape(0)
    at = sr.stack_axis(get_int(k.op.properties, "axis"), len(shape))
    outer, inner, n = numel(shape[:at]), numel(shape[at:]), len(k.ins)
    if outer * inner == 0:
        return
    for i, name in enumerate(k.ins):
        with k.w.loop("r", outer), k.w.loop("c", inner):
            k.w.line(f"out0[(r * {n} + {i}) * {inner} + c] = {name}[r * {inner} + c];")


def repeat(k: Kernel) -> None:
    """`out0[((r * d + j) * repeats + q) * inner + c] = in0[(r * d + j) * inner + c]`."""
    shape = k.in_shape(0)
    props = k.op.properties
    at = get_int(props, "axis") % len(shape)
    repeats = get_int(props, "repeats")
    outer, d, inner = numel(shape[:at]), shape[at], numel(shape[at + 1 :])
    if outer * d * inner == 0:
        return
    with k.w.loops(["r", "j", "q", "c"], [outer, d, repeats, inner]):
        row = f"(r * {d} + j)"
        k.w.line(f"out0[({row} * {repeats} + q) * {inner} + c] = in0[{row} * {inner} + c];")
