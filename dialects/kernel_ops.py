"""What the kernel dialects (`accel`, `dnnl`) share: ops that extend one relay op.

A kernel op computes what one relay op computes (its `RELAY`), then the
target's epilogue (bias, residual or sum, relu, clip: each dialect has its own
spelling of those). It has the relay op's properties, copied with their
constraints and defaults (`relay_prop`, `relay_opt_prop`), relay's syntax and
verifier (`RelayOp`), and infers its type with the relay op's inference
(`KernelOp`). The operand and property sets both dialects have are defined
once here, and each dialect's op classes mix them in:

- `Conv2DAttrs`: relay.nn.conv2d's properties (strides, padding, ...);
- `UnaryKernel`, `BinaryKernel`: one tensor operand (`data`) or two (`lhs`,
  `rhs`), one result;
- `Pool2DKernel`, `GlobalAvgPool2DKernel`: the pools' operand and properties;
- `BatchNormKernel`: batch_norm in inference form, its first field only;
- `check_bias_operand` and `check_bounds`: the verifier rules of a bias operand
  and of a pair of clip bounds, with the same messages in both dialects.

A mixin's fields come before those of the classes after it in an op's bases
(xDSL collects fields along the MRO), so an op lists its own fields, then its
mixins' in base order: the order properties are defined, parsed and printed in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import (
    AttributeInvT,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xrelay.dialects.relay import nn, nn_pool
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    get_float,
    get_str,
)
from xrelay.dialects.relay.types import (
    dims_compatible,
    shape_of,
    tensor_element_type,
    tuple_elements,
)


def relay_prop(op: type[RelayOp], name: str, kind: type[AttributeInvT]) -> AttributeInvT:
    """A property definition equal to relay op `op`'s `name`: same constraint, same default.

    `kind` is the attribute class, for the accessor's static type.
    """
    definition = op.get_irdl_definition().properties[name]
    return cast(AttributeInvT, prop_def(definition.constr, definition.default_value))


def relay_opt_prop(op: type[RelayOp], name: str, kind: type[AttributeInvT]) -> AttributeInvT | None:
    """An optional property definition equal to relay op `op`'s optional `name`."""
    definition = op.get_irdl_definition().properties[name]
    return cast(AttributeInvT | None, opt_prop_def(definition.constr))


FALSE = IntegerAttr(0, i1)
"""The default of the epilogue flags (`has_bias`, `has_relu`, `has_sum`, ...)."""


PLAIN_LAYOUTS = {
    "data_layout": nn.CONV_DATA_LAYOUTS,
    "kernel_layout": nn.CONV_KERNEL_LAYOUTS,
    "layout": nn_pool.POOL_LAYOUTS,
}
"""The layouts a kernel op takes, by property."""


class KernelOp(RelayOp):
    """Base of kernel ops: relay's syntax and verifier, the type of the relay op `RELAY`."""

    RELAY: ClassVar[type[RelayOp]]
    """The relay op this kernel computes (before its epilogue)."""

    @classmethod
    def relay_type(cls, operand_types: Sequence[Attribute], props: Props) -> Attribute:
        """The result type relay's `RELAY` infers for these operands, in the plain layouts
        only (relay's blocked and permuted ones, `NCHW4c`, `HWNC`, are no kernel's)."""
        for name, allowed in PLAIN_LAYOUTS.items():
            if name in props:
                nn.layout_dims(get_str(props, name), allowed, name)
        (result,) = cls.RELAY.infer_result_types(operand_types, props)
        return result

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        return [cls.relay_type(operand_types, props)]


class Conv2DAttrs(RelayOp):
    """Every attribute of relay.nn.conv2d, with its meaning and default."""

    strides = relay_prop(nn.Conv2DOp, "strides", DenseArrayBase)
    padding = relay_prop(nn.Conv2DOp, "padding", DenseArrayBase)
    dilation = relay_prop(nn.Conv2DOp, "dilation", DenseArrayBase)
    groups = relay_prop(nn.Conv2DOp, "groups", IntegerAttr)
    channels = relay_opt_prop(nn.Conv2DOp, "channels", IntegerAttr)
    kernel_size = relay_opt_prop(nn.Conv2DOp, "kernel_size", DenseArrayBase)
    data_layout = relay_prop(nn.Conv2DOp, "data_layout", StringAttr)
    kernel_layout = relay_prop(nn.Conv2DOp, "kernel_layout", StringAttr)
    out_dtype = relay_opt_prop(nn.Conv2DOp, "out_dtype", TypeAttribute)


class UnaryKernel(KernelOp):
    """One tensor operand, `data`, and one result (the relay op's type)."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())


class BinaryKernel(KernelOp):
    """Two tensor operands, `lhs` and `rhs`, and one result."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())


class Pool2DKernel(KernelOp):
    """The windowed pools: relay's pool attributes (pool_size, strides, dilation, padding,
    layout, ceil_mode) and output extents."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    pool_size = relay_prop(nn_pool.MaxPool2DOp, "pool_size", DenseArrayBase)
    strides = relay_prop(nn_pool.MaxPool2DOp, "strides", DenseArrayBase)
    dilation = relay_prop(nn_pool.MaxPool2DOp, "dilation", DenseArrayBase)
    padding = relay_prop(nn_pool.MaxPool2DOp, "padding", DenseArrayBase)
    layout = relay_prop(nn_pool.MaxPool2DOp, "layout", StringAttr)
    ceil_mode = relay_prop(nn_pool.MaxPool2DOp, "ceil_mode", IntegerAttr)
    traits = traits_def(Pure())


class GlobalAvgPool2DKernel(KernelOp):
    """relay.nn.global_avg_pool2d's operand, result and layout."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    layout = relay_prop(nn_pool.GlobalAvgPool2DOp, "layout", StringAttr)
    traits = traits_def(Pure())


class BatchNormKernel(KernelOp):
    """relay.nn.batch_norm in inference form: its five operands and properties; one result,
    field 0 of relay's tuple (the moving statistics are inputs only)."""

    data = operand_def(TensorType)
    gamma = operand_def(TensorType)
    beta = operand_def(TensorType)
    moving_mean = operand_def(TensorType)
    moving_var = operand_def(TensorType)
    result = result_def(TensorType)
    axis = relay_prop(nn.BatchNormOp, "axis", IntegerAttr)
    epsilon = relay_prop(nn.BatchNormOp, "epsilon", FloatAttr)
    center = relay_prop(nn.BatchNormOp, "center", IntegerAttr)
    scale = relay_prop(nn.BatchNormOp, "scale", IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        return [tuple_elements(cls.relay_type(operand_types, props))[0]]


def check_bias_operand(
    operand_types: Sequence[Attribute], index: int, result: Attribute, axis: int
) -> None:
    """Operand `index` is a bias: 1-D, of the result's dim on `axis`, its element type."""
    bias = expect_tensor(operand_types, index, "bias")
    expect_rank(bias, 1, "bias")
    channels = shape_of(result)[axis]
    if not dims_compatible(bias[0], channels):
        raise RelayTypeError(f"bias of size {bias[0]} does not match {channels} output channels")
    bias_element = tensor_element_type(operand_types[index])
    out_element = tensor_element_type(result)
    if bias_element != out_element:
        raise RelayTypeError(
            f"bias element type {bias_element} does not match result {out_element}"
        )


def check_bounds(props: Props, low: str, high: str, finite: bool = False) -> None:
    """The float properties `low` <= `high` (both set), finite too with `finite`."""
    lo, hi = get_float(props, low), get_float(props, high)
    if finite and not (math.isfinite(lo) and math.isfinite(hi)):
        raise RelayTypeError(f"clip bounds must be finite, got [{lo}, {hi}]")
    if lo > hi:
        raise RelayTypeError(f"{low} ({lo}) must not exceed {high} ({hi})")
