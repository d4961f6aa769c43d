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

A max pool that alone reads the result of a conv (or dense) with a relu post-op applies
that relu itself, to what it stores (`defers_relu`): the primitive's relu would otherwise
be a pass over its whole result after it (`Primitive.after`; oneDNN's own relu loses NaN),
and a max pool commutes with relu where every window reads the input.

Why: oneDNN 2.6's NHWC pooling loses relay's NaN (its max starts from -FLT_MAX and
drops a NaN), so its result needed a scan of the whole source for NaN and -inf before
it could be trusted; the shared kernel propagates NaN and keeps relay's padding rule by
itself. And it is faster: SqueezeNet's first pool (64 channels at 111x111, 3x3 stride 2)
took 718 us at 1 thread and 882 at 2 as oneDNN's pooling and the scan; the shared
kernel takes 212 and 92 (`benchmarks/kernels_ort.py --cases maxpool-squeezenet-nhwc`,
before and after, on a noisy 2-vCPU Intel VM).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xrelay.codegen.c import kernels_pool2d
from xrelay.codegen.c.kernel_api import Kernel, leaf_types
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels import pool_nhwc
from xrelay.dialects import dnnl

if TYPE_CHECKING:
    from xrelay.codegen.dnnl.emitter import DnnlFunctionEmitter


def _kernel(op: Operation, w: CWriter) -> Kernel:
    (in_type,), (out_type,) = leaf_types(op.operands[0].type), leaf_types(op.results[0].type)
    return Kernel(op, w, ["in0"], ["out0"], [in_type], [out_type])


def takes_relu(pool: Operation) -> bool:
    """Whether `pool` is a max pool on the shared NHWC kernel that can apply its producer's
    relu to its own, smaller, result (`pool_nhwc.every_window_reads_input`)."""
    if not isinstance(pool, dnnl.MaxPool2DOp):
        return False
    found = kernels_pool2d.plan_nhwc(_kernel(pool, CWriter(0)))
    return found is not None and pool_nhwc.every_window_reads_input(found)


def defers_relu(op: Operation) -> bool:
    """Whether `op`'s relu post-op moves to the max pool that alone reads its result: then
    `op` stores without relu and the pool applies it to what it stores. The relu
    `Primitive.after` would apply is a pass over the whole result: SqueezeNet's first
    conv writes 3 MB, more than a core's L2, which the pool reads back anyway (a pool of
    3x3 stride 2 stores a quarter of it)."""
    eltwise = op.properties.get("eltwise")
    if not isinstance(eltwise, StringAttr) or eltwise.data != "relu" or len(op.results) != 1:
        return False
    uses = list(op.results[0].uses)
    return len(uses) == 1 and uses[0].index == 0 and takes_relu(uses[0].operation)


def is_shared_pool(op: Operation) -> bool:
    """Whether `op` runs the host's pool kernel (a windowed pool: no oneDNN primitive)."""
    return isinstance(op, (dnnl.MaxPool2DOp, dnnl.AvgPool2DOp))


def print_shared_pool(owner: DnnlFunctionEmitter, op: Operation, w: CWriter) -> bool:
    """Print `op` as a call of the host's pool kernel into `w` (its routines and libraries
    to the model's sources); False, printing nothing, if it is not a windowed pool."""
    if not is_shared_pool(op):
        return False
    body = CWriter(w.depth + 1)
    kernel = _kernel(op, body)
    producer = op.operands[0].owner
    found = kernels_pool2d.plan_nhwc(kernel)
    if found is not None and isinstance(producer, Operation) and defers_relu(producer):
        kernels_pool2d.print_nhwc(kernel, replace(found, relu=True))
    else:
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
