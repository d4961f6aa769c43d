"""`accel.dense` over many rows: the shared GEMM (`codegen/kernels/gemm.py`) with accel's epilogue.

`dense_blocked.py` is shaped for one row (dot products in vector lanes, no packing: at batch
64 it reaches ~70 GFLOP/s). From `ROWS` rows on, the dense is one `xg_sgemm_ep` call per
thread instead: the output units split into one contiguous range of columns per thread,
claimed (`parallel.py`, `coarse`: each call packs the rows it multiplies), each thread
multiplying every row by its columns of the weight (`B[q, u] = weight[u, q]`) and applying
the op's bias and relu or clip in the GEMM's epilogue (relu: `v <= 0 ? 0 : v`, NaN kept, as
`dense_blocked.py`). With one thread and a constant weight, the weight is packed once
(`xg_sgemm_pp`). An op with both relu and clip keeps the blocked kernel (the GEMM applies
one activation).
"""

from __future__ import annotations

from xrelay.codegen.accel import dense_blocked
from xrelay.codegen.accel.epilogues import clip_bounds
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c.kernel_api import Kernel, numel
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
    """Print the dense of `k` as GEMM calls over column ranges split across threads."""
    dshape, (units, depth) = k.in_shape(0), k.in_shape(1)
    rows = numel(dshape[:-1])
    ep, split = epilogue(k), epilogue(k, " + q0")
    assert ep is not None
    k.libraries.add("gemm")
    most = k.team.parts(units, rows * units * depth, GRAIN)
    if most < 2 and 1 in k.constant_ins:
        size = gemm.packed_floats(units, depth)
        k.w.line(f"static float xp_b[{size}] __attribute__((aligned(64)));")
        k.w.line("static int xp_state;")
        packed = ("xp_b", "&xp_state")
        args = (("in0", depth, 1), ("in1", 1, depth), ("out0", units))
        k.w.line(gemm.call((rows, units, depth), *args, ep, packed))
        return

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
