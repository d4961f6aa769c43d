"""Vectorized `accel.dense`: blocks of data rows by output units, dot products in vector lanes.

`out[m, u] = bias[u] + sum_q data[m, q] * weight[u, q]` with `weight` as
relay has it (`units x depth`, row-major: each unit's weights are contiguous,
so no repacking is needed). A block of `mb` rows by `ub` units keeps
`mb * ub` vector accumulators; each step over the depth loads `mb` data
vectors and `ub` weight vectors (`ub` sequential streams: at batch 1 the
kernel is bound by reading the weights once, at full memory bandwidth) and
does `mb * ub` fused multiply-adds; the depth's tail is one partial vector.
Each accumulator's lanes are summed at the end (an order other than the
naive loop's, equal within float32 rounding), then the bias and relu.
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.dialects.relay.base import get_bool

ACCUMULATORS = 16
"""Vector accumulators per block."""


def blocks(rows: int, units: int) -> tuple[int, int]:
    """(rows, units) of a block: up to 4 rows, then as many units as accumulators allow."""
    mb = min(rows, 4)
    return mb, max(1, min(units, ACCUMULATORS // mb))


def dense_blocked(k: Kernel) -> None:
    """Print the blocked dense of `k` (see the module docstring)."""
    dshape, (units, depth) = k.in_shape(0), k.in_shape(1)
    rows = numel(dshape[:-1])
    mb, ub = blocks(rows, units)
    w = k.w
    for m_loop, m_size in _ranges("m0", rows, mb):
        with w.block(m_loop):
            for u_loop, u_size in _ranges("u0", units, ub):
                with w.block(u_loop):
                    _block(k, w, (m_size, u_size), depth, units)


def _ranges(name: str, extent: int, size: int) -> list[tuple[str, int]]:
    """(loop head, block size): the full blocks of `size`, then one block of the rest."""
    full, rest = divmod(extent, size)
    out: list[tuple[str, int]] = []
    if full:
        out.append((f"for ({INDEX} {name} = 0; {name} < {full * size}; {name} += {size})", size))
    if rest:
        first = full * size
        out.append((f"for ({INDEX} {name} = {first}; {name} < {extent}; {name} += {rest})", rest))
    return out


def _block(k: Kernel, w: CWriter, shape: tuple[int, int], depth: int, units: int) -> None:
    """`mb` rows from `m0` by `ub` units from `u0`."""
    mb, ub = shape
    acc = [[f"a{m}_{u}" for u in range(ub)] for m in range(mb)]
    w.line(f"xa_v {', '.join(f'{a} = {{0}}' for row in acc for a in row)};")
    w.line(f"{INDEX} q = 0;")

    def step(load: str) -> None:
        for m in range(mb):
            w.line(f"const xa_v x{m} = {load.format(f'in0 + (m0 + {m}) * {depth} + q')};")
        for u in range(ub):
            w.line(f"const xa_v w{u} = {load.format(f'in1 + (u0 + {u}) * {depth} + q')};")
            for m in range(mb):
                w.line(f"{acc[m][u]} += x{m} * w{u};")

    with w.block(f"for (; q + XA_VL <= {depth}; q += XA_VL)"):
        step("xa_ld({})")
    with w.block(f"if (q < {depth})"):
        w.line(f"const {INDEX} nq = {depth} - q;")
        step("xa_ldn({}, nq)")
    relu = get_bool(k.op.properties, "has_relu")
    bias = get_bool(k.op.properties, "has_bias")
    for m, row in enumerate(acc):
        for u, a in enumerate(row):
            value = f"xa_sum({a})" + (f" + in2[u0 + {u}]" if bias else "")
            w.line(f"const float v{m}_{u} = {value};")
            stored = f"(v{m}_{u} < 0.0f ? 0.0f : v{m}_{u})" if relu else f"v{m}_{u}"
            w.line(f"out0[(m0 + {m}) * {units} + u0 + {u}] = {stored};")
