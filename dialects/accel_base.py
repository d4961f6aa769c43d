"""What every `accel` op shares: relay's properties, the optional bias, the residual.

`AccelOp` is the base of the ops that extend one relay op (`accel.py`);
`relay_prop` copies a relay op's property definition (constraint and default);
`check_bias` and `check_residual` are the verifier rules of the epilogue
operands, shared with the ops of other kernel dialects (`dnnl.py`,
`accel_winograd.py`); `check_clip` is the rule of the clip epilogue (`clip_min` /
`clip_max`: relay's `clip` after the relu); `ConvOperands` is what accel's two
convolutions share.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttributeInvT,
    OptionalDef,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    get_bool,
    get_float,
)
from xrelay.dialects.relay.types import dims_compatible, shape_of, tensor_element_type


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
"""The default of the `has_bias` / `has_relu` flags."""


class AccelOp(RelayOp):
    """Base of accel ops: relay's syntax and verifier, the type of the relay op `RELAY`."""

    RELAY: ClassVar[type[RelayOp]]
    """The relay op this kernel computes (before its bias and relu)."""

    @classmethod
    def relay_type(cls, operand_types: Sequence[Attribute], props: Props) -> Attribute:
        """The result type relay's `RELAY` infers for these operands."""
        (result,) = cls.RELAY.infer_result_types(operand_types, props)
        return result

    @classmethod
    def check_operand_count(cls, count: int) -> None:
        """Between the required operands and all of them (the bias is optional)."""
        defs = cls.get_irdl_definition().operands
        required = sum(1 for _, d in defs if not isinstance(d, OptionalDef))
        if not required <= count <= len(defs):
            want = str(required) if required == len(defs) else f"{required} or {len(defs)}"
            raise VerifyException(f"'{cls.name}' op expected {want} operands, got {count}")


def check_bias(
    operand_types: Sequence[Attribute], props: Props, result: Attribute, axis: int
) -> None:
    """Operand #2 is present iff `has_bias`, a 1-D vector of the result's dim on `axis`."""
    has_bias = get_bool(props, "has_bias")
    if has_bias != (len(operand_types) == 3):
        raise RelayTypeError(
            "has_bias is set but there is no bias operand"
            if has_bias
            else "a bias operand needs has_bias = true"
        )
    if not has_bias:
        return
    bias = expect_tensor(operand_types, 2, "bias")
    expect_rank(bias, 1, "bias")
    channels = shape_of(result)[axis]
    if not dims_compatible(bias[0], channels):
        raise RelayTypeError(f"bias of size {bias[0]} does not match {channels} output channels")
    bias_element, out_element = tensor_element_type(operand_types[2]), tensor_element_type(result)
    if bias_element != out_element:
        raise RelayTypeError(
            f"bias element type {bias_element} does not match result {out_element}"
        )


def check_clip(props: Props) -> None:
    """`clip_min` and `clip_max` (the clip epilogue) are both set or both absent, finite,
    `clip_min <= clip_max`."""
    present = [name in props for name in ("clip_min", "clip_max")]
    if not any(present):
        return
    if not all(present):
        raise RelayTypeError("clip_min and clip_max must be set together")
    lo, hi = get_float(props, "clip_min"), get_float(props, "clip_max")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RelayTypeError(f"clip bounds must be finite, got [{lo}, {hi}]")
    if lo > hi:
        raise RelayTypeError(f"clip_min ({lo}) must not exceed clip_max ({hi})")


def check_residual(residual: Attribute, result: Attribute) -> None:
    """The residual operand has the result's shape and element type."""
    shape, want = shape_of(residual), shape_of(result)
    same = len(shape) == len(want) and all(
        dims_compatible(a, b) for a, b in zip(shape, want, strict=True)
    )
    if not same or tensor_element_type(residual) != tensor_element_type(result):
        raise RelayTypeError(f"residual type {residual} does not match result {result}")


class ConvOperands(RelayOp):
    """The operands and epilogue flags of accel's convolutions (`accel.conv2d`,
    `accel.conv2d_winograd`): data and weight, then `extras`: the bias (present iff
    `has_bias`) and the residual (present iff `has_residual`, last); `has_relu`; the clip
    epilogue `clip_min` / `clip_max` (`check_clip`)."""

    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    extras = var_operand_def(TensorType)
    result = result_def(TensorType)
    has_bias = prop_def(IntegerAttr, FALSE)
    has_residual = prop_def(IntegerAttr, FALSE)
    has_relu = prop_def(IntegerAttr, FALSE)
    clip_min = opt_prop_def(FloatAttr)
    clip_max = opt_prop_def(FloatAttr)
    traits = traits_def(Pure())

    @property
    def bias(self) -> SSAValue | None:
        """The bias operand, None without `has_bias`."""
        return self.extras[0] if self.has_bias.value.data and self.extras else None

    @property
    def residual(self) -> SSAValue | None:
        """The residual operand (the last), None without `has_residual`."""
        return self.extras[-1] if self.has_residual.value.data and self.extras else None

    @classmethod
    def check_operand_count(cls, count: int) -> None:
        """Data and weight, then up to a bias and a residual."""
        if not 2 <= count <= 4:
            raise VerifyException(f"'{cls.name}' op expected 2 to 4 operands, got {count}")
