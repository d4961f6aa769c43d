"""How each dnnl op becomes a oneDNN primitive: its descriptors at init, its arguments per run.

A printer (`PRINTERS[op class]`) fills a `Primitive` (`primitive.py`): the
memory descriptors oneDNN's 2.x operation descriptor takes (logical dims in
oneDNN's order, e.g. N, C, H, W, with the element strides of the buffer the
plan placed, so any layout is described as it is: NHWC activations, relay's
kernel layouts), the operation descriptor, the primitive (post-ops for conv2d
and dense), then one memory object per operand and result. Weights are
described with oneDNN's "any" format: the primitive picks its layout and the
constant weights are reordered into it once at init (an inner product of few rows keeps
relay's layout, `GEMV_ROWS`). Convolutions are printed by `conv.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Operation
from xrelay.codegen.c.kernel_api import numel
from xrelay.codegen.c.refs import CONST
from xrelay.codegen.c.writer import strides
from xrelay.codegen.dnnl.conv import conv2d
from xrelay.codegen.dnnl.dims import logical, permuted, plain
from xrelay.codegen.dnnl.primitive import ELTWISE_ALGORITHMS, Primitive
from xrelay.dialects import dnnl
from xrelay.dialects.relay.base import get_bool, get_float, get_int, get_str

BINARY_ALGORITHMS: dict[type[Operation], str] = {
    dnnl.AddOp: "dnnl_binary_add",
    dnnl.SubtractOp: "dnnl_binary_sub",
    dnnl.MultiplyOp: "dnnl_binary_mul",
}

GEMV_ROWS = 4
"""Up to this many rows, an inner product keeps relay's (N, K) constant weights: reading them
is the cost, and oneDNN's blocked weights pad N to 16 (tinyres's 10 units: 1.6x the bytes). Measured
with oneDNN 2.6, 1 row: gemm:jit on plain weights 0.17 ms for 100352 -> 10, brgemm on blocked
ones 0.29 ms; the MLP's 1024 -> 4096 -> 4096 -> 1000: 6.1 ms against 7.1."""


def dense(p: Primitive) -> None:
    """Inner product on the data's leading dims flattened: (M, K) x (N, K)^T. Weights in the
    layout oneDNN chooses, or as given when constant for at most `GEMV_ROWS` rows."""
    units, depth = p.shape(1)
    rows = numel(p.shape(0)[:-1])
    src = p.desc("src", [rows, depth], [depth, 1])
    dst = p.desc("dst", [rows, units], [units, 1])
    user = p.desc("user_weights", [units, depth], [depth, 1])
    constant = p.owner.ref(p.op.operands[1]).kind == CONST  # else reordered per run: "any"
    keep = rows <= GEMV_ROWS and constant
    weights = p.desc("weights", [units, depth], [depth, 1] if keep else None)
    bias = p.desc("bias", [units], [1]) if p.has_bias() else "NULL"
    p.init.line("dnnl_inner_product_desc_t desc;")
    p.check(
        f"dnnl_inner_product_forward_desc_init(&desc, dnnl_forward_inference, {src}, "
        f"{weights}, {bias}, {dst})",
        "describing the inner product",
    )
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0])
    p.weights(p.op.operands[1], user)
    if p.has_bias():
        p.buffer("DNNL_ARG_BIAS", "dnnl_query_weights_md", 1, p.op.operands[2])
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


def eltwise(p: Primitive) -> None:
    """Eltwise relu, tanh or logistic on the whole buffer."""
    data = p.desc("data", *plain(p.shape(0)))
    algorithm = ELTWISE_ALGORITHMS[p.op.name.removeprefix("dnnl.")]
    p.init.line("dnnl_eltwise_desc_t desc;")
    p.check(
        f"dnnl_eltwise_forward_desc_init(&desc, dnnl_forward_inference, {algorithm}, {data}, "
        "0.0f, 0.0f)",
        "describing the eltwise",
    )
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0])
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


def binary(p: Primitive) -> None:
    """Binary add, sub or mul; the rhs broadcast (its dims padded on the left with 1). A rhs
    broadcast along the last axis only is described with that axis second, as oneDNN's
    channels (its jit kernels broadcast per channel, not per last axis)."""
    out = p.out_shape()
    rhs = [1] * (len(out) - len(p.shape(1))) + list(p.shape(1))
    order = list(range(len(out) or 1))
    if len(out) >= 3 and all(d == 1 for d in rhs[:-1]) and rhs[-1] != 1:
        order = [0, len(out) - 1, *range(1, len(out) - 1)]
    src0 = p.desc("src0", *permuted(p.shape(0), order))
    src1 = p.desc("src1", *permuted(rhs, order))
    dst = p.desc("dst", *permuted(out, order))
    algorithm = BINARY_ALGORITHMS[type(p.op)]
    p.init.line("dnnl_binary_desc_t desc;")
    p.check(
        f"dnnl_binary_desc_init(&desc, {algorithm}, {src0}, {src1}, {dst})",
        "describing the binary",
    )
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC_0", "dnnl_query_src_md", 0, p.op.operands[0])
    p.buffer("DNNL_ARG_SRC_1", "dnnl_query_src_md", 1, p.op.operands[1])
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


def batch_norm(p: Primitive) -> None:
    """Batch normalization with the global statistics, its channels the op's axis."""
    props = p.op.properties
    shape = p.shape(0)
    axis = get_int(props, "axis") % len(shape)
    order = [axis_ for axis_ in range(len(shape)) if axis_ != axis]
    order.insert(1, axis)
    row = strides(shape)
    data = p.desc("data", [shape[a] for a in order], [row[a] for a in order])
    channels = p.desc("channels", [shape[axis]], [1])
    flags = ["dnnl_use_global_stats"]
    flags += ["dnnl_use_scale"] if get_bool(props, "scale") else []
    flags += ["dnnl_use_shift"] if get_bool(props, "center") else []
    epsilon = get_float(props, "epsilon")
    p.init.line("dnnl_batch_normalization_desc_t desc;")
    p.check(
        f"dnnl_batch_normalization_forward_desc_init(&desc, dnnl_forward_inference, {data}, "
        f"{epsilon!r}f, {' | '.join(flags)})",
        "describing the batch normalization",
    )
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0])
    statistics = [("DNNL_ARG_MEAN", 3), ("DNNL_ARG_VARIANCE", 4)]
    statistics += [("DNNL_ARG_SCALE", 1)] if get_bool(props, "scale") else []
    statistics += [("DNNL_ARG_SHIFT", 2)] if get_bool(props, "center") else []
    for arg, index in statistics:
        p.buffer(arg, "dnnl_query_undef", 0, p.op.operands[index], channels)
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


def global_avg_pool2d(p: Primitive) -> None:
    """Global average pooling: one window over H and W (windowed pools are `shared_pools.py`'s)."""
    layout = get_str(p.op.properties, "layout")
    shape, out = p.shape(0), p.out_shape()
    src = p.desc("src", *logical(shape, layout, "NCHW"))
    dst = p.desc("dst", *logical(out, layout, "NCHW"))
    arrays = [
        p.array("pool_strides", [1, 1]),
        p.array("kernel", [shape[layout.index("H")], shape[layout.index("W")]]),
        p.array("dilation", [0, 0]),
        p.array("pad_l", [0, 0]),
        p.array("pad_r", [0, 0]),
    ]
    p.init.line("dnnl_pooling_v2_desc_t desc;")
    p.check(
        "dnnl_pooling_v2_forward_desc_init(&desc, dnnl_forward_inference, "
        f"dnnl_pooling_avg_exclude_padding, {src}, {dst}, {', '.join(arrays)})",
        "describing the pooling",
    )
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0])
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


def reorder(p: Primitive) -> None:
    """A reorder between the source's row-major buffer and the transposed one."""
    assert isinstance(p.op, dnnl.ReorderOp)
    order = dnnl.permutation(p.op.src_layout.data, p.op.dst_layout.data)
    shape, out = p.shape(0), p.out_shape()
    steps = [0] * len(shape)
    for position, (axis, step) in enumerate(zip(order, strides(out), strict=True)):
        assert out[position] == shape[axis]
        steps[axis] = step
    src = p.desc("src", *plain(shape))
    dst = p.desc("dst", list(shape) or [1], steps or [1])
    p.create_reorder(src, dst)
    p.buffer("DNNL_ARG_FROM", "dnnl_query_src_md", 0, p.op.operands[0])
    p.result("DNNL_ARG_TO", "dnnl_query_dst_md")


def matmul_dims(shape: Sequence[int], transpose: bool) -> tuple[list[int], list[int]]:
    """A row-major operand of a matrix product seen as (batch..., rows, columns), the last two
    axes swapped (by their strides) when `transpose`."""
    dims, steps = plain(shape)
    if transpose:
        dims[-2:], steps[-2:] = dims[-1:-3:-1], steps[-1:-3:-1]
    return dims, steps


def matmul(p: Primitive) -> None:
    """oneDNN matmul of (batch, M, K) by (batch, K, N) (or 2-D): a transposed operand is
    described by its strides, a batch of 1 broadcasts; plain row-major memory throughout."""
    props = p.op.properties
    src = p.desc("src", *matmul_dims(p.shape(0), get_bool(props, "transpose_a")))
    weights = p.desc("weights", *matmul_dims(p.shape(1), get_bool(props, "transpose_b")))
    dst = p.desc("dst", *plain(p.out_shape()))
    p.init.line("dnnl_matmul_desc_t desc;")
    p.check(f"dnnl_matmul_desc_init(&desc, {src}, {weights}, NULL, {dst})", "describing the matmul")
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0])
    p.buffer("DNNL_ARG_WEIGHTS", "dnnl_query_weights_md", 0, p.op.operands[1])
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


def softmax(p: Primitive) -> None:
    """oneDNN softmax along the op's axis: accurate (the maximum subtracted first) for
    `dnnl.softmax`, its log algorithm for `dnnl.log_softmax`."""
    assert isinstance(p.op, dnnl.SoftmaxOp | dnnl.LogSoftmaxOp)
    algorithm = (
        "dnnl_softmax_log" if isinstance(p.op, dnnl.LogSoftmaxOp) else "dnnl_softmax_accurate"
    )
    shape = p.shape(0)
    data = p.desc("data", *plain(shape))
    axis = p.op.axis.value.data % max(len(shape), 1)
    p.init.line("dnnl_softmax_v2_desc_t desc;")
    p.check(
        f"dnnl_softmax_v2_forward_desc_init(&desc, dnnl_forward_inference, "
        f"{algorithm}, {data}, {data}, {axis})",
        "describing the softmax",
    )
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0])
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


def layer_norm(p: Primitive) -> None:
    """oneDNN layer normalization over the last axis, its statistics computed, with gamma
    (`scale`) and beta (`center`) as its scale and shift."""
    props = p.op.properties
    shape = p.shape(0)
    data = p.desc("data", *plain(shape))
    channels = p.desc("channels", [shape[-1]], [1])
    flags = ["dnnl_use_scale"] if get_bool(props, "scale") else []
    flags += ["dnnl_use_shift"] if get_bool(props, "center") else []
    epsilon = get_float(props, "epsilon")
    p.init.line("dnnl_layer_normalization_desc_t desc;")
    p.check(
        f"dnnl_layer_normalization_forward_desc_init(&desc, dnnl_forward_inference, {data}, "
        f"NULL, {epsilon!r}f, {' | '.join(flags) or '0'})",
        "describing the layer normalization",
    )
    p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0])
    if get_bool(props, "scale"):
        p.buffer("DNNL_ARG_SCALE", "dnnl_query_undef", 0, p.op.operands[1], channels)
    if get_bool(props, "center"):
        p.buffer("DNNL_ARG_SHIFT", "dnnl_query_undef", 0, p.op.operands[2], channels)
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md")


PRINTERS: dict[type[dnnl.DnnlOp], Callable[[Primitive], None]] = {
    dnnl.Conv2DOp: conv2d,
    dnnl.DenseOp: dense,
    dnnl.ReluOp: eltwise,
    dnnl.TanhOp: eltwise,
    dnnl.SigmoidOp: eltwise,
    dnnl.AddOp: binary,
    dnnl.SubtractOp: binary,
    dnnl.MultiplyOp: binary,
    dnnl.BatchNormOp: batch_norm,
    dnnl.GlobalAvgPool2DOp: global_avg_pool2d,
    dnnl.ReorderOp: reorder,
    dnnl.BatchMatmulOp: matmul,
    dnnl.MatmulOp: matmul,
    dnnl.SoftmaxOp: softmax,
    dnnl.LayerNormOp: layer_norm,
    dnnl.LogSoftmaxOp: softmax,
}
"""The printer of each dnnl op."""
