"""Loop nests of `collapse_sum_like` and `collapse_sum_to`: one loop per output element
over the kept dims, an inner loop nest over the collapsed ones (`like_ops.collapsed_axes`).
Floats accumulate in `double`, integers in 64 bits wrapping back to their type, booleans
or (as `relay.sum`). `broadcast_to_like` is `broadcast_to`'s loop nest (the output shape
is the like operand's); `reshape_like` is an alias and `cast_like` a fused elementwise
cast (`plan_memory.RESHAPE_LIKE`, `scalar_ops.SCALAR_RULES`)."""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, converted, numel
from xrelay.codegen.c.writer import affine, loop_names, strides
from xrelay.dialects.relay.like_ops import collapsed_axes


def collapse_sum(k: Kernel) -> None:
    """`out0[kept] = sum of in0 over the collapsed axes` (0 when those are empty)."""
    shape, out = k.in_shape(0), k.out_shape()
    if numel(out) == 0:
        return
    lead = len(shape) - len(out)
    axes = collapsed_axes(shape, out)
    kept = [a for a in range(len(shape)) if a not in axes]
    names = loop_names("j", len(shape))
    in_strides, out_strides = strides(shape), strides(out)
    tap = affine([(names[a], in_strides[a]) for a in range(len(shape))])
    where = affine([(names[a], out_strides[a - lead]) for a in kept])
    element = k.in_scalar(0)
    w = k.w
    with w.loops([names[a] for a in kept], [shape[a] for a in kept]):
        acc = "uint8_t" if element.kind == "bool" else element.accumulator()
        w.line(f"{acc} acc = 0;")
        with w.loops([names[a] for a in axes], [shape[a] for a in axes]):
            if element.kind == "bool":
                w.line(f"acc = (uint8_t)(acc | in0[{tap}]);")
            else:
                w.line(f"acc += ({acc})in0[{tap}];")
        w.line(f"out0[{where}] = {converted(k.out_scalar(), 'acc')};")
