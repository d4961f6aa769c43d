"""Loop nest of `relay.slice_like`: one loop per output dim reading the input at the same
index (the slice starts at 0 on every axis); `shape_like` is not read."""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.writer import loop_names, offset


def slice_like(k: Kernel) -> None:
    """`out0[j] = in0[j]` with `j` counted in the output's shape, offset in the input's."""
    shape, ishape = k.out_shape(), k.in_shape(0)
    if numel(shape) == 0:
        return
    names = loop_names("j", len(shape))
    with k.w.loops(names, shape):
        k.w.line(f"out0[{offset(names, shape)}] = in0[{offset(names, ishape)}];")
