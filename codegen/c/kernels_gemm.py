"""`nn.dense`, `matmul` and `nn.batch_matmul` on float32: calls to the shared GEMM.

Each prints one `xg_sgemm` call per batch (`codegen/kernels/gemm.py`: packed,
register-blocked, vectorized, float32 accumulation), its strides expressing the
op's transposes and its base pointers the batch (a batch dim of 1 broadcasts:
its operand's base does not move). Other dtypes (and mixed ones) keep the
scalar loops of `kernels_nn.py`, `kernels_reduce.py` and `kernels_nn_extra.py`,
which accumulate in double as the interpreter does.

A constant weight of `nn.dense` (a `relay.constant`, or a parameter every call of a
fused function passes the same constant for) is packed once, by the first run, into a
static buffer of the model (`xg_sgemm_pp`): runs with more than 2 rows no longer repack
it (the MLP's 784x512 weight: ~70 of ~300 us per call at batch 64).

The float32 ops are epilogue producers (`codegen/c/epilogue.py`): a fused
`Kernel.epilogue` becomes `xg_sgemm_ep`'s bias (per output column), residual
(at the batch's output offset, rows `n` apart) and activation.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c import kernels_nn, kernels_nn_extra, kernels_reduce
from xrelay.codegen.c.epilogue import EPILOGUE_PRODUCERS
from xrelay.codegen.c.kernel_api import Kernel, Unsupported, leaf_types, numel, scalar
from xrelay.codegen.c.writer import affine, loop_names, strides
from xrelay.codegen.kernels import gemm
from xrelay.dialects.relay.base import get_bool, properties_with_defaults
from xrelay.dialects.relay.types import broadcast_shapes

PACK_CONSTANT_WEIGHTS = True
"""Whether a constant weight is packed once (`nn.dense`, and 1x1 convs by GEMM in
`kernels_conv2d`; benchmarks turn it off to compare)."""


def float32(k: Kernel) -> bool:
    """Whether every operand and result of the op is float32 (the GEMM's type)."""
    return all(k.in_scalar(i).ctype == "float" for i in range(len(k.in_types))) and (
        k.out_scalar().ctype == "float"
    )


def all_float32(op: Operation) -> bool:
    """Whether every operand and result of `op` is a float32 tensor (the GEMM's producers)."""
    try:
        values = [*op.operands, *op.results]
        return all(scalar(t).ctype == "float" for v in values for t in leaf_types(v.type))
    except Unsupported:
        return False


def epilogue(k: Kernel, residual_at: str, n: int) -> gemm.GemmEpilogue | None:
    """The GEMM's epilogue arguments for the kernel's fused chain (residual at `residual_at`,
    an offset into the output, rows `n` apart)."""
    ep = k.epilogue
    if ep is None:
        return None
    residual = None if ep.residual is None else f"{ep.residual} + {residual_at}"
    return gemm.GemmEpilogue(ep.bias, residual, n, ep.activation, ep.clip)


def dense(k: Kernel) -> None:
    """`data @ weight.T` over the data's leading dims: one GEMM, `B[q, u] = weight[u, q]`."""
    if not float32(k):
        kernels_nn.dense(k)
        return
    dshape, (units, depth) = k.in_shape(0), k.in_shape(1)
    rows = numel(dshape[:-1])
    k.libraries.add("gemm")
    ep = epilogue(k, "0", units)
    c = ("out0", units)
    packs = PACK_CONSTANT_WEIGHTS and 1 in k.constant_ins
    if packs and rows > 2 and units > 0 and depth > 0:  # pack the weight once
        size = gemm.packed_floats(units, depth)
        packing = gemm.call_site_packing("xp_b", size)
        packing.declare(k.w)
        packed = (packing.buffer, packing.state)
        args = ((rows, units, depth), ("in0", depth, 1), ("in1", 1, depth), c, ep, packed)
        k.w.line(gemm.call(*args))
        return
    k.w.line(gemm.call((rows, units, depth), ("in0", depth, 1), ("in1", 1, depth), c, ep))


def _operand(rows: int, cols: int, transposed: bool) -> tuple[int, int]:
    """(row stride, column stride) of a `rows x cols` operand stored as is or transposed."""
    return (1, rows) if transposed else (cols, 1)


def matmul(k: Kernel) -> None:
    """numpy's matmul with broadcast batch dims and optional transposes: a GEMM per batch."""
    if not float32(k):
        kernels_reduce.matmul(k)
        return
    props = k.op.properties
    a, b, out = k.in_shape(0), k.in_shape(1), k.out_shape()
    ta, tb = get_bool(props, "transpose_a"), get_bool(props, "transpose_b")
    m, depth = (a[-1], a[-2]) if ta else (a[-2], a[-1])
    n = b[-2] if tb else b[-1]
    batch = out[:-2]
    assert broadcast_shapes(a[:-2], b[:-2]) == batch
    names = loop_names("b", len(batch))

    def base(shape: tuple[int, ...]) -> list[tuple[str, int]]:
        own = shape[:-2]
        shift = len(batch) - len(own)
        step = strides(shape)
        return [(names[i + shift], step[i]) for i, d in enumerate(own) if d != 1]

    where = affine([*zip(names, strides(out)[:-2], strict=True)])
    a_at, b_at = affine(base(a)), affine(base(b))
    k.libraries.add("gemm")
    with k.w.loops(names, batch):
        k.w.line(
            gemm.call(
                (m, n, depth),
                (f"in0 + {a_at}", *_operand(m, depth, ta)),
                (f"in1 + {b_at}", *_operand(depth, n, tb)),
                (f"out0 + {where}", n),
                epilogue(k, where, n),
            )
        )


def batch_matmul(k: Kernel) -> None:
    """`out[b] = x[b] @ y[b]` (per the transposes; TVM's default `y` is `N x K`), a batch of 1
    broadcast: a GEMM per batch."""
    if not float32(k):
        kernels_nn_extra.batch_matmul(k)
        return
    assert isinstance(k.op, IRDLOperation)
    props = properties_with_defaults(k.op)
    ta, tb = get_bool(props, "transpose_a"), get_bool(props, "transpose_b")
    (bx, x1, x2), (by, y1, y2) = k.in_shape(0), k.in_shape(1)
    batch, m, n = k.out_shape()
    depth = x1 if ta else x2
    x_base = f"b * {x1 * x2}" if bx != 1 else "0"
    y_base = f"b * {y1 * y2}" if by != 1 else "0"
    k.libraries.add("gemm")
    with k.w.loop("b", batch):
        k.w.line(
            gemm.call(
                (m, n, depth),
                (f"in0 + {x_base}", *_operand(m, depth, ta)),
                (f"in1 + {y_base}", *_operand(depth, n, tb)),
                (f"out0 + b * {m * n}", n),
                epilogue(k, f"b * {m * n}", n),
            )
        )


EPILOGUE_PRODUCERS.update(
    {
        "relay.nn.dense": all_float32,
        "relay.matmul": all_float32,
        "relay.nn.batch_matmul": all_float32,
    }
)
