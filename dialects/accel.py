"""The `accel` dialect: the kernel set of xrelay's demo accelerator (design.md, Backends).

One op per kernel: conv2d and dense with an optional bias, relu and clip, max/avg
and global average pools, elementwise add/subtract/multiply with an optional relu,
relu, clip, and batch_norm in inference form. `convert-relay-to-accel` lowers the
functions partitioned for `accel` into these ops; the accel C emitter prints them.

Each op extends one relay op (`RELAY`): it has that op's properties (the same
definitions and defaults, taken from the relay class; the operand and property
sets accel shares with dnnl are defined once, in `kernel_ops.py`), computes what the relay
op computes, followed by `+ bias` along the output channels when `has_bias` and
`max(., 0)` when `has_relu`, and infers its type with the relay op's inference.
The syntax is relay's (`base.RelayOp`)::

    %y = accel.conv2d %x, %w, %b {padding = [1, 1, 1, 1], has_bias = true, has_relu = true}
           : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>

The contract of each op is kept in `tests/filecheck/dialects/accel/{ops,invalid}.mlir`;
its numpy semantics are in `accel_reference.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xrelay.dialects.accel_base import (
    FALSE,
    AccelOp,
    ConvOperands,
    check_bias,
    check_clip,
    check_residual,
    relay_opt_prop,
    relay_prop,
)
from xrelay.dialects.accel_winograd import Conv2DWinogradOp
from xrelay.dialects.kernel_ops import (
    BatchNormKernel,
    BinaryKernel,
    Conv2DAttrs,
    GlobalAvgPool2DKernel,
    Pool2DKernel,
    UnaryKernel,
)
from xrelay.dialects.relay import elementwise, nn, nn_pool
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_bool,
    get_str,
)
from xrelay.dialects.relay.types import dims_compatible, format_shape

__all__ = [
    "ACCEL",
    "FALSE",
    "OPS",
    "AccelOp",
    "Conv2DWinogradOp",
    "check_bias",
    "check_clip",
    "check_residual",
    "relay_opt_prop",
    "relay_prop",
]


@irdl_op_definition
class Conv2DOp(Conv2DAttrs, ConvOperands, AccelOp):
    """`accel.conv2d`: relay.nn.conv2d, then `+ bias` per output channel, `+ residual`, relu.

    Every attribute of `relay.nn.conv2d` (strides, padding, dilation, groups,
    channels, kernel_size, data_layout, kernel_layout, out_dtype), with its
    meaning and default. The operands after data and weight are the bias, present
    iff `has_bias`, of shape `(out_channels,)` and the result's dtype, then the
    residual, present iff `has_residual`, of the result's type, added after the
    bias (`accel-fuse-residual` folds an `accel.add` of the convolution into it);
    `has_relu` clamps the sum at zero; `clip_min` / `clip_max` (both or neither, finite)
    clamp it into `[clip_min, clip_max]` after that (relay's `clip`, ReLU6).
    """

    name = "accel.conv2d"
    RELAY: ClassVar[type[RelayOp]] = nn.Conv2DOp

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        result = cls.relay_type(operand_types[:2], props)
        if get_bool(props, "has_residual"):
            if len(operand_types) < 3:
                raise RelayTypeError("has_residual is set but there is no residual operand")
            check_residual(operand_types[-1], result)
            operand_types = operand_types[:-1]
        elif len(operand_types) == 4:
            raise RelayTypeError("a fourth operand (a residual) needs has_residual = true")
        check_bias(operand_types, props, result, get_str(props, "data_layout").index("C"))
        check_clip(props)
        return [result]


@irdl_op_definition
class DenseOp(AccelOp):
    """`accel.dense`: relay.nn.dense (`data @ weight.T`), then `+ bias`, then relu.

    `units` and `out_dtype` as in relay; the bias operand is present iff
    `has_bias`, of shape `(units,)` and the result's dtype; `clip_min` / `clip_max` clamp
    the result after the relu (both or neither, finite).
    """

    name = "accel.dense"
    RELAY: ClassVar[type[RelayOp]] = nn.DenseOp

    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    result = result_def(TensorType)
    units = relay_opt_prop(nn.DenseOp, "units", IntegerAttr)
    out_dtype = relay_opt_prop(nn.DenseOp, "out_dtype", TypeAttribute)
    has_bias = prop_def(IntegerAttr, FALSE)
    has_relu = prop_def(IntegerAttr, FALSE)
    clip_min = opt_prop_def(FloatAttr)
    clip_max = opt_prop_def(FloatAttr)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        result = cls.relay_type(operand_types[:2], props)
        check_bias(operand_types, props, result, -1)
        check_clip(props)
        return [result]


class Pool2DOp(Pool2DKernel, AccelOp):
    """Base of the windowed pools: relay's pool attributes (pool_size, strides,
    dilation, padding, layout, ceil_mode), relay's output extents (`Pool2DKernel`)."""


@irdl_op_definition
class MaxPool2DOp(Pool2DOp):
    """`accel.max_pool2d`: relay.nn.max_pool2d, the maximum of each window.

    Padding holds the dtype's lowest value, as in relay.
    """

    name = "accel.max_pool2d"
    RELAY: ClassVar[type[RelayOp]] = nn_pool.MaxPool2DOp


@irdl_op_definition
class AvgPool2DOp(Pool2DOp):
    """`accel.avg_pool2d`: relay.nn.avg_pool2d, the mean of each window.

    The divisor counts the window's elements inside the input, or inside the
    input and its declared padding with `count_include_pad`, as in relay.
    """

    name = "accel.avg_pool2d"
    RELAY: ClassVar[type[RelayOp]] = nn_pool.AvgPool2DOp

    count_include_pad = relay_prop(nn_pool.AvgPool2DOp, "count_include_pad", IntegerAttr)


@irdl_op_definition
class GlobalAvgPool2DOp(GlobalAvgPool2DKernel, AccelOp):
    """`accel.global_avg_pool2d`: relay.nn.global_avg_pool2d, the mean over H and W."""

    name = "accel.global_avg_pool2d"
    RELAY: ClassVar[type[RelayOp]] = nn_pool.GlobalAvgPool2DOp


class ElementwiseOp(BinaryKernel, AccelOp):
    """Base of add/subtract/multiply: two operands of one shape (no broadcasting), then relu."""

    has_relu = prop_def(IntegerAttr, FALSE)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        lhs, rhs = expect_tensor(operand_types, 0), expect_tensor(operand_types, 1)
        if len(lhs) != len(rhs) or not all(
            dims_compatible(a, b) for a, b in zip(lhs, rhs, strict=True)
        ):
            raise RelayTypeError(
                f"operand shapes {format_shape(lhs)} and {format_shape(rhs)} differ; "
                "accel elementwise ops do not broadcast"
            )
        return [cls.relay_type(operand_types, props)]


@irdl_op_definition
class AddOp(ElementwiseOp):
    """`accel.add`: `lhs + rhs` (relay.add on equal shapes), then relu if `has_relu`."""

    name = "accel.add"
    RELAY: ClassVar[type[RelayOp]] = elementwise.AddOp


@irdl_op_definition
class SubtractOp(ElementwiseOp):
    """`accel.subtract`: `lhs - rhs` (relay.subtract on equal shapes), then relu if `has_relu`."""

    name = "accel.subtract"
    RELAY: ClassVar[type[RelayOp]] = elementwise.SubtractOp


@irdl_op_definition
class MultiplyOp(ElementwiseOp):
    """`accel.multiply`: `lhs * rhs` (relay.multiply on equal shapes), then relu if `has_relu`."""

    name = "accel.multiply"
    RELAY: ClassVar[type[RelayOp]] = elementwise.MultiplyOp


@irdl_op_definition
class ReluOp(UnaryKernel, AccelOp):
    """`accel.relu`: relay.nn.relu, `max(x, 0)`."""

    name = "accel.relu"
    RELAY: ClassVar[type[RelayOp]] = nn.ReluOp


@irdl_op_definition
class ClipOp(UnaryKernel, AccelOp):
    """`accel.clip`: relay.clip, `x` clamped into `[a_min, a_max]`, a NaN kept."""

    name = "accel.clip"
    RELAY: ClassVar[type[RelayOp]] = elementwise.ClipOp

    a_min = relay_prop(elementwise.ClipOp, "a_min", FloatAttr)
    a_max = relay_prop(elementwise.ClipOp, "a_max", FloatAttr)


@irdl_op_definition
class BatchNormOp(BatchNormKernel, AccelOp):
    """`accel.batch_norm`: relay.nn.batch_norm in inference form; one result, the data.

    `(x - moving_mean) / sqrt(moving_var + epsilon) * gamma + beta` along
    `axis` (without `gamma` when `scale` is false, without `beta` when `center`
    is false): field 0 of relay's tuple. The moving statistics are inputs only.
    """

    name = "accel.batch_norm"
    RELAY: ClassVar[type[RelayOp]] = nn.BatchNormOp


OPS: tuple[type[AccelOp], ...] = (
    Conv2DOp,
    DenseOp,
    MaxPool2DOp,
    AvgPool2DOp,
    GlobalAvgPool2DOp,
    AddOp,
    SubtractOp,
    MultiplyOp,
    ReluOp,
    BatchNormOp,
    ClipOp,
)
"""The accel ops that extend a relay op (`op.RELAY`); the dialect also has
`Conv2DWinogradOp`."""

ACCEL = Dialect("accel", [*OPS, Conv2DWinogradOp], [])
