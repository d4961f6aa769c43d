"""Loop nest of `relay.sparse_to_dense`: fill with the default value (converted as `cast`
does), then one guarded write per index row, in order (the reference's scatter rule: a
negative index counts from the end once, a row still out of range is dropped)."""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.kernels_movement import (
    _convert,  # pyright: ignore[reportPrivateUsage]
)
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import offset


def sparse_to_dense(k: Kernel) -> None:
    """`out0 = default; out0[indices[y]] = values[y]` for each row `y`."""
    indices, values, out = k.in_shape(0), k.in_shape(1), k.out_shape()
    count, total = numel(out), (indices[0] if indices else 1)
    if count:
        fill = _convert("in2[0]", k.in_scalar(2), k.out_scalar())
        with k.w.block(f"for ({INDEX} e = 0; e < {count}; ++e)"):
            k.w.line(f"out0[e] = {fill};")
    if not count or not total:
        return
    depth = indices[1] if len(indices) == 2 else 1
    with k.w.block(f"for ({INDEX} y = 0; y < {total}; ++y)"):
        tests: list[str] = []
        for level in range(depth):
            name, size = f"q{level}", out[level]
            k.w.line(f"{INDEX} {name} = (int64_t)in0[y * {depth} + {level}];")
            k.w.line(f"{name} = {name} < 0 ? {name} + {size} : {name};")
            tests.append(f"{name} >= 0 && {name} < {size}")
        at = offset([f"q{level}" for level in range(depth)], out)
        value = "in1[y]" if values else "in1[0]"
        with k.w.block(f"if ({' && '.join(tests)})"):
            k.w.line(f"out0[{at}] = {value};")
