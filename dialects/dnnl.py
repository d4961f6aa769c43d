"""The `dnnl` dialect: the oneDNN primitives xrelay's `dnnl` backend calls (design.md, Backends).

One op per primitive the backend creates: convolution and inner product
(`dnnl.conv2d`, `dnnl.dense`) with their post-ops (a bias, a `sum` of one more
tensor of the result's shape, then one eltwise: relu, tanh, sigmoid, clip, gelu_erf or gelu_erf_x2
between `a_min` and `a_max`),
eltwise (`dnnl.relu`, `dnnl.tanh`, `dnnl.sigmoid`), binary (`dnnl.add`,
`dnnl.subtract`, `dnnl.multiply`), batch normalization in inference form,
pooling (`dnnl.max_pool2d`, `dnnl.avg_pool2d`, `dnnl.global_avg_pool2d`) and
reorder (`dnnl.reorder`: a transposition between two layouts of one tensor,
e.g. NCHW to NHWC), matmul (`dnnl.batch_matmul`, `dnnl.matmul`), softmax and layer
normalization (`dnnl.softmax`, `dnnl.layer_norm`).
`convert-relay-to-dnnl` lowers the functions partitioned for `dnnl` into these ops; the
dnnl C emitter prints them as oneDNN calls.

Each op extends one relay op (`RELAY`): it has that op's properties (same
definitions and defaults; the operand and property sets dnnl shares with
accel are defined once, in `kernel_ops.py`), computes what the relay op computes and infers its
type with the relay op's inference. The layout of activations is relay's
`data_layout` (conv2d) or `layout` (pools): the backend runs convolutions and
pools on NHWC activations. Post-ops apply in oneDNN's order::

    %y = dnnl.conv2d %x, %w, %b, %s {data_layout = "NHWC", has_bias = true, has_sum = true,
           eltwise = "relu"} : (...) -> tensor<1x8x8x4xf32>
    // y = relu(conv2d(x, w) + b (per output channel) + s)

The binary ops broadcast their right operand only (as oneDNN does): the left
one has the result's shape. The contract of each op is kept in
`tests/filecheck/dialects/dnnl/{ops,invalid}.mlir`; its numpy semantics are
in `dnnl_reference.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, Operation, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xrelay.dialects.kernel_ops import (
    FALSE,
    BatchNormKernel,
    BinaryKernel,
    Conv2DAttrs,
    GlobalAvgPool2DKernel,
    KernelOp,
    Pool2DKernel,
    UnaryKernel,
    check_bias_operand,
    check_bounds,
    relay_opt_prop,
    relay_prop,
)
from xrelay.dialects.relay import elementwise, nn, nn_extra, nn_norm, nn_pool, reduce, tensor
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_bool,
    get_str,
)
from xrelay.dialects.relay.types import (
    format_shape,
    shape_of,
)

ELTWISE = ("relu", "tanh", "sigmoid", "clip", "gelu_erf", "gelu_erf_x2")
"""The eltwise post-ops of conv2d and dense (oneDNN's relu, tanh, logistic, clip and gelu_erf,
`x * 0.5 * (1 + erf(x / sqrt(2)))`, and twice that, `x * (1 + erf(x / sqrt(2)))`: a GELU
whose 0.5 FoldScaleAxis moved into the next layer's weights; relu and clip are applied
after the primitive, keeping NaN as relay does)."""


class DnnlOp(KernelOp):
    """Base of dnnl ops: relay's syntax and verifier, the type of the relay op `RELAY` (the
    primitive before its post-ops; `kernel_ops.KernelOp`)."""


class PostOpKernel(DnnlOp):
    """Base of conv2d and dense: data, weight, then the bias and the sum operand if flagged.

    `extra` holds the post-ops' operands in order: the bias (`has_bias`, one
    value per output channel) then the sum operand (`has_sum`, of the
    result's type). `eltwise` (`ELTWISE`) is applied last; `clip` clamps
    into `[a_min, a_max]` (relay.clip's properties, both required with it, `a_min <= a_max`).
    """

    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    extra = var_operand_def(TensorType)
    result = result_def(TensorType)
    has_bias = prop_def(IntegerAttr, FALSE)
    has_sum = prop_def(IntegerAttr, FALSE)
    eltwise = opt_prop_def(StringAttr)
    a_min = opt_prop_def(FloatAttr)
    a_max = opt_prop_def(FloatAttr)

    @classmethod
    def channel_axis(cls, props: Props, rank: int) -> int:
        """The result's axis of output channels."""
        raise NotImplementedError

    @classmethod
    def check_operand_count(cls, count: int) -> None:
        if not 2 <= count <= 4:
            raise VerifyException(f"'{cls.name}' op expected 2 to 4 operands, got {count}")

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        result = cls.relay_type(operand_types[:2], props)
        has_bias, has_sum = get_bool(props, "has_bias"), get_bool(props, "has_sum")
        extra = operand_types[2:]
        if len(extra) != has_bias + has_sum:
            want = has_bias + has_sum
            raise RelayTypeError(
                f"has_bias = {str(has_bias).lower()} and has_sum = {str(has_sum).lower()} "
                f"need {want} operand{'' if want == 1 else 's'} after the weight, got {len(extra)}"
            )
        if has_bias:
            axis = cls.channel_axis(props, len(shape_of(result)))
            check_bias_operand(operand_types, 2, result, axis)
        if has_sum and extra[-1] != result:
            raise RelayTypeError(f"sum operand {extra[-1]} is not of the result type {result}")
        eltwise = props.get("eltwise")
        if isinstance(eltwise, StringAttr) and eltwise.data not in ELTWISE:
            raise RelayTypeError(
                f"eltwise must be one of {', '.join(ELTWISE)}, got '{eltwise.data}'"
            )
        check_clip_bounds(props)
        return [result]


def check_clip_bounds(props: Props) -> None:
    """`a_min` and `a_max` with eltwise `clip` (`a_min <= a_max`), neither without it."""
    eltwise = props.get("eltwise")
    clip = isinstance(eltwise, StringAttr) and eltwise.data == "clip"
    bounds = [props.get(name) for name in ("a_min", "a_max")]
    if not clip:
        if any(b is not None for b in bounds):
            raise RelayTypeError("a_min and a_max are the bounds of eltwise clip only")
        return
    if not all(isinstance(b, FloatAttr) for b in bounds):
        raise RelayTypeError("eltwise clip needs a_min and a_max")
    check_bounds(props, "a_min", "a_max")


def clip_bounds(op: Operation) -> tuple[float, float]:
    """(a_min, a_max) of a conv2d or dense with eltwise clip."""
    lo, hi = op.properties["a_min"], op.properties["a_max"]
    assert isinstance(lo, FloatAttr)
    assert isinstance(hi, FloatAttr)
    return float(lo.value.data), float(hi.value.data)


def eltwise_of(op: Operation) -> str | None:
    """The eltwise post-op of a conv2d or dense (relu, tanh, ...), None if it has none."""
    attr = op.properties.get("eltwise")
    return attr.data if isinstance(attr, StringAttr) else None


@irdl_op_definition
class Conv2DOp(Conv2DAttrs, PostOpKernel):
    """`dnnl.conv2d`: relay.nn.conv2d, then `+ bias` per output channel, `+ sum`, eltwise.

    Every attribute of `relay.nn.conv2d` (strides, padding, dilation, groups,
    channels, kernel_size, data_layout, kernel_layout, out_dtype) with its
    meaning and default; the backend uses NHWC activations (`data_layout`).
    """

    name = "dnnl.conv2d"
    RELAY: ClassVar[type[RelayOp]] = nn.Conv2DOp

    traits = traits_def(Pure())

    @classmethod
    def channel_axis(cls, props: Props, rank: int) -> int:
        return get_str(props, "data_layout").index("C")


@irdl_op_definition
class DenseOp(PostOpKernel):
    """`dnnl.dense`: relay.nn.dense (`data @ weight.T`), then `+ bias`, `+ sum`, eltwise.

    `units` and `out_dtype` as in relay; the bias has one value per unit.
    """

    name = "dnnl.dense"
    RELAY: ClassVar[type[RelayOp]] = nn.DenseOp

    units = relay_opt_prop(nn.DenseOp, "units", IntegerAttr)
    out_dtype = relay_opt_prop(nn.DenseOp, "out_dtype", TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def channel_axis(cls, props: Props, rank: int) -> int:
        return rank - 1


class EltwiseOp(UnaryKernel, DnnlOp):
    """Base of the eltwise primitives: one operand, the result of its shape."""


@irdl_op_definition
class ReluOp(EltwiseOp):
    """`dnnl.relu`: relay.nn.relu, `max(x, 0)` (oneDNN eltwise relu)."""

    name = "dnnl.relu"
    RELAY: ClassVar[type[RelayOp]] = nn.ReluOp


@irdl_op_definition
class TanhOp(EltwiseOp):
    """`dnnl.tanh`: relay.tanh (oneDNN eltwise tanh)."""

    name = "dnnl.tanh"
    RELAY: ClassVar[type[RelayOp]] = elementwise.TanhOp


@irdl_op_definition
class SigmoidOp(EltwiseOp):
    """`dnnl.sigmoid`: relay.sigmoid, `1 / (1 + exp(-x))` (oneDNN eltwise logistic)."""

    name = "dnnl.sigmoid"
    RELAY: ClassVar[type[RelayOp]] = elementwise.SigmoidOp


class BinaryOp(BinaryKernel, DnnlOp):
    """Base of the binary primitives: `lhs` has the result's shape, `rhs` broadcasts to it."""

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        result = cls.relay_type(operand_types, props)
        lhs = expect_tensor(operand_types, 0, "lhs")
        if tuple(lhs) != tuple(shape_of(result)):
            raise RelayTypeError(
                f"lhs of shape {format_shape(lhs)} is broadcast to {format_shape(shape_of(result))}"
                "; oneDNN broadcasts the rhs only"
            )
        return [result]


@irdl_op_definition
class AddOp(BinaryOp):
    """`dnnl.add`: `lhs + rhs` (relay.add, the rhs broadcast; oneDNN binary add)."""

    name = "dnnl.add"
    RELAY: ClassVar[type[RelayOp]] = elementwise.AddOp


@irdl_op_definition
class SubtractOp(BinaryOp):
    """`dnnl.subtract`: `lhs - rhs` (relay.subtract, the rhs broadcast; oneDNN binary sub)."""

    name = "dnnl.subtract"
    RELAY: ClassVar[type[RelayOp]] = elementwise.SubtractOp


@irdl_op_definition
class MultiplyOp(BinaryOp):
    """`dnnl.multiply`: `lhs * rhs` (relay.multiply, the rhs broadcast; oneDNN binary mul)."""

    name = "dnnl.multiply"
    RELAY: ClassVar[type[RelayOp]] = elementwise.MultiplyOp


@irdl_op_definition
class BatchNormOp(BatchNormKernel, DnnlOp):
    """`dnnl.batch_norm`: relay.nn.batch_norm in inference form; one result, the data.

    `(x - moving_mean) / sqrt(moving_var + epsilon) * gamma + beta` along
    `axis` (without `gamma` when `scale` is false, without `beta` when `center`
    is false): field 0 of relay's tuple (oneDNN's batch normalization with
    global statistics).
    """

    name = "dnnl.batch_norm"
    RELAY: ClassVar[type[RelayOp]] = nn.BatchNormOp


class Pool2DOp(Pool2DKernel, DnnlOp):
    """Base of the windowed pools: relay's pool attributes and output extents."""


@irdl_op_definition
class MaxPool2DOp(Pool2DOp):
    """`dnnl.max_pool2d`: relay.nn.max_pool2d, the maximum of each window (oneDNN pooling max)."""

    name = "dnnl.max_pool2d"
    RELAY: ClassVar[type[RelayOp]] = nn_pool.MaxPool2DOp


@irdl_op_definition
class AvgPool2DOp(Pool2DOp):
    """`dnnl.avg_pool2d`: relay.nn.avg_pool2d, the mean of each window (oneDNN pooling avg).

    `count_include_pad` counts the declared padding in the divisor, as relay does.
    """

    name = "dnnl.avg_pool2d"
    RELAY: ClassVar[type[RelayOp]] = nn_pool.AvgPool2DOp

    count_include_pad = relay_prop(nn_pool.AvgPool2DOp, "count_include_pad", IntegerAttr)


@irdl_op_definition
class GlobalAvgPool2DOp(GlobalAvgPool2DKernel, DnnlOp):
    """`dnnl.global_avg_pool2d`: relay.nn.global_avg_pool2d, the mean over H and W."""

    name = "dnnl.global_avg_pool2d"
    RELAY: ClassVar[type[RelayOp]] = nn_pool.GlobalAvgPool2DOp


@irdl_op_definition
class ReorderOp(UnaryKernel, DnnlOp):
    """`dnnl.reorder`: relay.layout_transform between two orders of the same axes (a transpose).

    `src_layout` and `dst_layout` name the same axes (e.g. NCHW and NHWC), with
    no blocked sub-axes: the data is the same tensor, its elements moved
    (oneDNN reorder between two plain memory formats).
    """

    name = "dnnl.reorder"
    RELAY: ClassVar[type[RelayOp]] = tensor.LayoutTransformOp

    src_layout = relay_prop(tensor.LayoutTransformOp, "src_layout", StringAttr)
    dst_layout = relay_prop(tensor.LayoutTransformOp, "dst_layout", StringAttr)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        src, dst = get_str(props, "src_layout"), get_str(props, "dst_layout")
        if not (src.isalpha() and src.isupper() and sorted(src) == sorted(dst)):
            raise RelayTypeError(
                f"'{src}' to '{dst}' is not a transposition (the same axes, none blocked)"
            )
        return [cls.relay_type(operand_types, props)]


class MatmulKernel(DnnlOp):
    """Base of the matrix products (oneDNN matmul): `x` and `y`, transposed as flagged."""

    x = operand_def(TensorType)
    y = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())


@irdl_op_definition
class BatchMatmulOp(MatmulKernel):
    """`dnnl.batch_matmul`: relay.nn.batch_matmul, `x @ y^T` per batch by default (oneDNN matmul).

    `x` is `[B, M, K]` (`[B, K, M]` with `transpose_a`), `y` is `[B, N, K]` with
    `transpose_b` (the default) or `[B, K, N]`; a batch of 1 broadcasts.
    """

    name = "dnnl.batch_matmul"
    RELAY: ClassVar[type[RelayOp]] = nn_extra.BatchMatmulOp

    out_dtype = relay_opt_prop(nn_extra.BatchMatmulOp, "out_dtype", TypeAttribute)
    transpose_a = relay_prop(nn_extra.BatchMatmulOp, "transpose_a", IntegerAttr)
    transpose_b = relay_prop(nn_extra.BatchMatmulOp, "transpose_b", IntegerAttr)


@irdl_op_definition
class MatmulOp(MatmulKernel):
    """`dnnl.matmul`: relay.matmul of two 2-D or two 3-D operands (oneDNN matmul).

    numpy's matmul, `transpose_a` / `transpose_b` swapping each operand's last two axes
    (neither by default); a batch of 1 broadcasts.
    """

    name = "dnnl.matmul"
    RELAY: ClassVar[type[RelayOp]] = reduce.MatmulOp

    out_dtype = relay_opt_prop(reduce.MatmulOp, "out_dtype", TypeAttribute)
    transpose_a = relay_prop(reduce.MatmulOp, "transpose_a", IntegerAttr)
    transpose_b = relay_prop(reduce.MatmulOp, "transpose_b", IntegerAttr)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        x, y = expect_tensor(operand_types, 0, "x"), expect_tensor(operand_types, 1, "y")
        if len(x) != len(y) or len(x) not in (2, 3):
            raise RelayTypeError(
                f"operands of ranks {len(x)} and {len(y)}; oneDNN's matmul here takes two "
                "2-D or two 3-D operands"
            )
        return [cls.relay_type(operand_types, props)]


@irdl_op_definition
class SoftmaxOp(UnaryKernel, DnnlOp):
    """`dnnl.softmax`: relay.nn.softmax along `axis` (oneDNN softmax, accurate: the row's
    maximum subtracted first)."""

    name = "dnnl.softmax"
    RELAY: ClassVar[type[RelayOp]] = nn.SoftmaxOp

    axis = relay_prop(nn.SoftmaxOp, "axis", IntegerAttr)


@irdl_op_definition
class LogSoftmaxOp(UnaryKernel, DnnlOp):
    """`dnnl.log_softmax`: relay.nn.log_softmax along `axis` (oneDNN softmax with its log
    algorithm: `x - max - log(sum(exp(x - max)))`)."""

    name = "dnnl.log_softmax"
    RELAY: ClassVar[type[RelayOp]] = nn.LogSoftmaxOp

    axis = relay_prop(nn.LogSoftmaxOp, "axis", IntegerAttr)


@irdl_op_definition
class LayerNormOp(DnnlOp):
    """`dnnl.layer_norm`: relay.nn.layer_norm, `(x - mean) / sqrt(var + epsilon) * gamma + beta`
    along `axis` (oneDNN layer normalization, statistics computed; gamma without `scale`,
    beta without `center` unused)."""

    name = "dnnl.layer_norm"
    RELAY: ClassVar[type[RelayOp]] = nn_norm.LayerNormOp

    data = operand_def(TensorType)
    gamma = operand_def(TensorType)
    beta = operand_def(TensorType)
    result = result_def(TensorType)
    axis = relay_prop(nn_norm.LayerNormOp, "axis", IntegerAttr)
    epsilon = relay_prop(nn_norm.LayerNormOp, "epsilon", FloatAttr)
    center = relay_prop(nn_norm.LayerNormOp, "center", IntegerAttr)
    scale = relay_prop(nn_norm.LayerNormOp, "scale", IntegerAttr)
    traits = traits_def(Pure())


def permutation(src_layout: str, dst_layout: str) -> tuple[int, ...]:
    """The axes of `src_layout` in `dst_layout`'s order: `numpy.transpose`'s argument."""
    return tuple(src_layout.index(axis) for axis in dst_layout)


OPS: tuple[type[DnnlOp], ...] = (
    Conv2DOp,
    DenseOp,
    ReluOp,
    TanhOp,
    SigmoidOp,
    AddOp,
    SubtractOp,
    MultiplyOp,
    BatchNormOp,
    MaxPool2DOp,
    AvgPool2DOp,
    GlobalAvgPool2DOp,
    ReorderOp,
    BatchMatmulOp,
    MatmulOp,
    SoftmaxOp,
    LayerNormOp,
    LogSoftmaxOp,
)
"""Every dnnl op; `op.RELAY` is the relay op each one extends."""

DNNL = Dialect("dnnl", list(OPS), [])
