"""Vectorized `accel.dense`: blocks of data rows by output units, dot products in vector lanes.

`out[m, u] = bias[u] + sum_q data[m, q] * weight[u, q]` with `weight` as
relay has it (`units x depth`, row-major: each unit's weights are contiguous,
so no repacking is needed). A block of `mb` rows by `ub` units keeps
`mb * ub` vector accumulators; each step over the depth loads `mb` data
vectors and `ub` weight vectors (`ub` sequential streams: at batch 1 the
kernel is bound by reading the weights once, at full memory bandwidth) and
does `mb * ub` fused multiply-adds; the depth's tail is one partial vector.
Each accumulator's lanes are summed at the end (an order other than the
naive loop's, equal within float32 rounding), then the bias, relu and clip.

Threads (`parallel.py`): the units are split into one contiguous range per
thread (at batch 1, each thread streams its units' weights); a range is
taken in blocks of `ub` units, then its rest in blocks of 8, 4, 2, 1 units.
"""

from __future__ import annotations

from xrelay.codegen.accel.epilogues import clip, clip_bounds
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.dialects.relay.base import get_bool

ACCUMULATORS = 16
"""Vector accumulators per block."""

GRAIN = 1 << 16
"""Multiply-adds per thread, at least (256 KiB of weights at batch 1: ~15 us; tinyres-224's
dense, 1M multiply-adds, gains ~2x on 2 threads)."""


def blocks(rows: int, units: int) -> tuple[int, int]:
    """(rows, units) of a block: up to 4 rows (at least 1), then as many units as
    accumulators allow."""
    mb = max(1, min(rows, 4))
    return mb, max(1, min(units, ACCUMULATORS // mb))


def dense_blocked(k: AccelKernel) -> None:
    """Print the blocked dense of `k` (see the module docstring), its output units split
    across threads (`parallel.py`)."""
    dshape, (units, depth) = k.in_shape(0), k.in_shape(1)
    rows = numel(dshape[:-1])
    most = k.team.parts(units, rows * units * depth, GRAIN)
    k.team.run(k, units, most, lambda inner: _units(inner, rows, units, depth))


def _units(k: Kernel, rows: int, units: int, depth: int) -> None:
    """Every row, the units `q0 <= u < q1`: blocks of `ub` units, then of fewer (powers of 2)."""
    mb, ub = blocks(rows, units)
    w = k.w
    for m_loop, m_size in _ranges("m0", rows, mb):
        with w.block(m_loop):
            w.line(f"{INDEX} u0 = q0;")
            with w.block(f"for (; u0 + {ub} <= q1; u0 += {ub})"):
                _block(k, w, (m_size, ub), depth, units)
            size = 1 << (ub - 1).bit_length()
            while size > 1:
                size //= 2
                with w.block(f"if (u0 + {size} <= q1)"):
                    _block(k, w, (m_size, size), depth, units)
                    w.line(f"u0 += {size};")


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
    bounds = clip_bounds(k.op)
    for m, row in enumerate(acc):
        for u, a in enumerate(row):
            value = f"xa_sum({a})" + (f" + in2[u0 + {u}]" if bias else "")
            w.line(f"const float v{m}_{u} = {value};")
            stored = f"(v{m}_{u} <= 0.0f ? 0.0f : v{m}_{u})" if relu else f"v{m}_{u}"
            if bounds is not None:  # clip reads its value thrice: name the relu's first
                if relu:
                    w.line(f"const float r{m}_{u} = {stored};")
                    stored = f"r{m}_{u}"
                stored = clip(stored, bounds)
            w.line(f"out0[(m0 + {m}) * {units} + u0 + {u}] = {stored};")
