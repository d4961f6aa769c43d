"""`accel.dense` over many rows: the shared GEMM (`codegen/kernels/gemm.py`) with accel's epilogue.

`dense_blocked.py` is shaped for one row (dot products in vector lanes, no packing: at batch
64 it reaches ~70 GFLOP/s). From `ROWS` rows on, the dense is one `xg_sgemm_ep` call per
thread instead, applying the op's bias and relu or clip in the GEMM's epilogue (relu:
`v <= 0 ? 0 : v`, NaN kept, as `dense_blocked.py`). A constant weight (`B[q, u] =
weight[u, q]`) is packed once (`xg_sgemm_pp`, by the first call) into one buffer every
thread reads, and the rows split into one chunk of whole `gemm.MR`-row tiles per thread
(`parallel.py`, `coarse`): each thread packs only its own rows. A weight computed at run time
splits the output units instead, one contiguous range of columns per thread, each call
packing every row and its columns of the weight. On 2 threads of a loaded 2-vCPU machine the
row split measured 0.25 ms against the column split's 0.31-0.33 on the MLP (medians of 9)
and 0.84 against 0.91-0.94 ms on the transformer block. An op with both relu and clip keeps
the blocked kernel (the GEMM applies one activation).
"""

from __future__ import annotations

from xrelay.codegen.accel import dense_blocked
from xrelay.codegen.accel.epilogues import clip_bounds
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.kernels import gemm
from xrelay.dialects.relay.base import get_bool

ROWS = 3
"""Rows from which the GEMM is used (1 and 2 rows: the blocked kernel's dot products)."""

GRAIN = dense_blocked.GRAIN
"""Multiply-adds per thread, at least (as the blocked kernel's)."""


def epilogue(k: Kernel, bias_at: str = "") -> gemm.GemmEpilogue | None:
    """The GEMM epilogue of the op's bias (`in2` + `bias_at`), relu and clip (None: both relu
    and clip)."""
    relu = get_bool(k.op.properties, "has_relu")
    bounds = clip_bounds(k.op)
    if relu and bounds is not None:
        return None
    bias = f"in2{bias_at}" if get_bool(k.op.properties, "has_bias") else None
    if bounds is None:
        return gemm.GemmEpilogue(bias, None, 0, "relu" if relu else None)
    lo, hi = (float.fromhex(b.removesuffix("f")) for b in bounds)
    return gemm.GemmEpilogue(bias, None, 0, "clip", (lo, hi))


def takes(k: Kernel) -> bool:
    """Whether the GEMM computes this dense (enough rows, an epilogue it expresses)."""
    return numel(k.in_shape(0)[:-1]) >= ROWS and epilogue(k) is not None


def dense_gemm(k: AccelKernel) -> None:
    """Print the dense of `k` as GEMM calls over row tiles (a constant weight) or column ranges
    split across threads."""
    dshape, (units, depth) = k.in_shape(0), k.in_shape(1)
    rows = numel(dshape[:-1])
    ep, split = epilogue(k), epilogue(k, " + q0")
    assert ep is not None
    k.libraries.add("gemm")
    if 1 in k.constant_ins:
        _packed_rows(k, rows, units, depth, ep)
        return
    most = k.team.parts(units, rows * units * depth, GRAIN)

    def body(inner: Kernel) -> None:
        inner.w.line(
            gemm.call(
                (rows, "q1 - q0", depth),
                ("in0", depth, 1),
                ("in1 + q0 * " + str(depth), 1, depth),
                ("out0 + q0", units),
                split,
            )
        )

    k.team.run(k, units, most, body, coarse=True)


def _packed_rows(k: AccelKernel, rows: int, units: int, depth: int, ep: gemm.GemmEpilogue) -> None:
    """The dense of a constant weight: packed once (`xg_sgemm_pp`, by whichever thread comes
    first; the others wait for it) into one buffer every thread reads, the rows split into one
    chunk of whole `gemm.MR`-row tiles per thread."""
    tiles = -(-rows // gemm.MR)
    most = k.team.parts(tiles, rows * units * depth, GRAIN)
    size = gemm.packed_floats(units, depth)

    packing = gemm.call_site_packing("xp_b", size)
    packing.declare(k.w)
    state = list(packing.parameters())

    def body(inner: Kernel) -> None:
        w = inner.w
        w.line(f"const {INDEX} r0 = q0 * {gemm.MR};")
        w.line(f"const {INDEX} r1 = q1 * {gemm.MR} < {rows} ? q1 * {gemm.MR} : {rows};")
        args = (
            (f"in0 + r0 * {depth}", depth, 1),
            ("in1", 1, depth),
            (f"out0 + r0 * {units}", units),
        )
        w.line(gemm.call(("r1 - r0", units, depth), *args, ep, ("packed", "state")))

    k.team.run(k, tiles, most, body, coarse=True, state=state)
