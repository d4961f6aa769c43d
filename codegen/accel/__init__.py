"""The `accel` backend: the demo accelerator (design.md): what it takes, and its code generator.

Importing this package registers the target through the public hooks, as a
third-party backend would: op support predicates (`op_support`), the
composite pattern table (`patterns`), and the code generator
(`codegen/targets.py`): `convert-relay-to-accel` lowers its partitions,
`accel-fuse-residual` folds residual adds into convolutions, `accel-winograd`
takes the 3x3 stride-1 ones to Winograd's F(2x2, 3x3) and `accel-fuse-pool`
folds 2x2 max pools into those, then `AccelFunctionEmitter` (`emitter.py`,
kernels in `kernels.py`: the blocked convolution `conv_blocked.py` (per group), the
depthwise one `conv_depthwise.py`, Winograd `conv_winograd.py`, deep 1x1s as GEMMs
`conv_gemm.py`, dense `dense_blocked.py`, pools `pool_blocked.py` (the host's vectorized
pool where a window is cut), the clip epilogue `epilogues.py`, over the vector prelude
`vectors.py`, split across OpenMP
threads by `parallel.py`) prints them into `accel.c`, compiled with `CFLAGS`
and linked with `LDFLAGS`. The emitter is imported on first use, not with `xrelay`.

Threads: the build option `num_threads` fixes the count per library; without
it, OpenMP's default when the library runs (`OMP_NUM_THREADS` as set when the
process loads the OpenMP runtime, else the CPU count) decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrelay.codegen.accel import op_support, patterns

from xrelay.ext import CodegenTarget, register_codegen

if TYPE_CHECKING:
    from xdsl.dialects import func

    from xrelay.ext import CEmitter, FunctionEmitter


def function_emitter(owner: CEmitter, function: func.FuncOp, symbol: str) -> FunctionEmitter:
    """The printer of one lowered accel function (`emitter.AccelFunctionEmitter`)."""
    from xrelay.codegen.accel.emitter import AccelFunctionEmitter

    return AccelFunctionEmitter(owner, function, symbol)


LOWERING = (
    "convert-relay-to-accel",
    "accel-fuse-residual",
    "accel-winograd",
    "accel-fuse-pool",
)
"""accel's lowering passes: the partitions to accel ops, residual adds into convolutions,
Winograd where it pays, max pools into Winograd convolutions."""

CFLAGS = ("-O3", "-ffp-contract=fast", "-fopenmp")
"""accel.c's flags (after the host's `-O2` and the build's `-march`, `codegen/c/isa.py`:
by default `native`, the CPU family of the machine that compiles it, AVX-512 vectors where
it has them; the library records what it needs and refuses a CPU that lacks it).
`-ffp-contract=fast` lets `a += w * x` be one fused multiply-add (ISO C mode would not).
`-fopenmp`: kernels split across threads (`parallel.py`); compiled without it they run
on the calling thread."""

LDFLAGS = ("-fopenmp",)
"""The link flags of a library with accel code: OpenMP's runtime (libgomp with gcc)."""

ACCEPTS = ("relay.constant", "relay.tuple", "relay.tuple_get_item", "func.return")
"""The ops of other dialects an accel function holds after its lowering, and its emitter
prints (`emitter.py`): everything else in it must be an `accel.*` kernel."""

CODEGEN = register_codegen(
    CodegenTarget(
        "accel",
        LOWERING,
        function_emitter,
        cflags=CFLAGS,
        ldflags=LDFLAGS,
        dialect="accel",
        accepts=ACCEPTS,
    )
)
"""accel's code generator, as registered."""

__all__ = [
    "ACCEPTS",
    "CFLAGS",
    "CODEGEN",
    "LDFLAGS",
    "LOWERING",
    "function_emitter",
    "op_support",
    "patterns",
]
