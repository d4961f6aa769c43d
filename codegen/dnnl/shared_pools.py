"""dnnl's windowed pools on xrelay's shared NHWC kernel, not a oneDNN primitive.

A `dnnl.max_pool2d` or `dnnl.avg_pool2d` (NHWC float32: the only pools dnnl takes,
`op_support.py`) runs `codegen/kernels/pool_nhwc.py`'s kernel, the host `c` target's
NHWC pool: a routine in the generated library units (compiled at `-O3` for the build's
`-march`, where `dnnl.c` is `-O0` glue), split over output rows on the build's OpenMP
threads, the pool oneDNN's primitives run on.

Any other windowed pool (NCHW, which dnnl's predicates do not give it, but a hand-written
`dnnl` module may hold) takes whatever the host would print for it: the NCHW shared kernel,
or the loops. So every windowed pool has relay's numerics, and oneDNN runs only the global
average pool.

Why: oneDNN 2.6's NHWC pooling loses relay's NaN (its max starts from -FLT_MAX and
drops a NaN), so its result needed a scan of the whole source for NaN and -inf before
it could be trusted; the shared kernel propagates NaN and keeps relay's padding rule by
itself. And it is faster: SqueezeNet's first pool (64 channels at 111x111, 3x3 stride 2)
took 718 us at 1 thread and 296-882 at 2 as oneDNN's pooling and the scan; the shared
kernel takes 212 and 92 (`benchmarks/kernels_ort.py --cases maxpool-squeezenet-nhwc`,
before and after, on a noisy 2-vCPU Intel VM).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Operation
from xrelay.codegen.c import kernels_pool2d
from xrelay.codegen.c.kernel_api import Kernel, leaf_types
from xrelay.codegen.c.writer import CWriter
from xrelay.dialects import dnnl

if TYPE_CHECKING:
    from xrelay.codegen.dnnl.emitter import DnnlFunctionEmitter


def is_shared_pool(op: Operation) -> bool:
    """Whether `op` runs the host's pool kernel (a windowed pool: no oneDNN primitive)."""
    return isinstance(op, (dnnl.MaxPool2DOp, dnnl.AvgPool2DOp))


def print_shared_pool(owner: DnnlFunctionEmitter, op: Operation, w: CWriter) -> bool:
    """Print `op` as a call of the host's pool kernel into `w` (its routines and libraries
    to the model's sources); False, printing nothing, if it is not a windowed pool."""
    if not is_shared_pool(op):
        return False
    body = CWriter(w.depth + 1)
    (in_type,), (out_type,) = leaf_types(op.operands[0].type), leaf_types(op.results[0].type)
    kernel = Kernel(op, body, ["in0"], ["out0"], [in_type], [out_type])
    kernels_pool2d.pool2d(kernel)
    source = owner.pointer(owner.ref(op.operands[0]))
    target = owner.pointer(owner.ref(op.results[0]))
    with w.block():
        w.line(f"/* {op.name}: the host's pool kernel (codegen/c/kernels_pool2d.py) */")
        w.line(f"const float *restrict in0 = (const float *){source};")
        w.line(f"float *restrict out0 = (float *){target};")
        w.lines.extend(body.lines)
    owner.owner.libraries.update(kernel.libraries)
    for routine in kernel.routines:
        owner.owner.routines.setdefault(routine.name, routine)
    return True
