"""What every `accel` op shares: the optional bias, the residual, the clip epilogue.

`AccelOp` is the base of the ops that extend one relay op (`accel.py`), a
`kernel_ops.KernelOp` (what accel's and dnnl's ops share, with `relay_prop`,
copying a relay op's property definition, and `FALSE`, re-exported here);
`check_bias` and `check_residual` are the verifier rules of the epilogue
operands (`accel_winograd.py` uses them too); `check_clip` is the rule of the
clip epilogue (`clip_min` / `clip_max`: relay's `clip` after the relu);
`ConvOperands` is what accel's two convolutions share.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
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
from xrelay.dialects.kernel_ops import (
    FALSE,
    KernelOp,
    check_bias_operand,
    check_bounds,
    relay_opt_prop,
    relay_prop,
)
from xrelay.dialects.relay.base import Props, RelayOp, RelayTypeError, get_bool
from xrelay.dialects.relay.types import dims_compatible, shape_of, tensor_element_type

__all__ = [
    "FALSE",
    "AccelOp",
    "ConvOperands",
    "check_bias",
    "check_clip",
    "check_residual",
    "relay_opt_prop",
    "relay_prop",
]


class AccelOp(KernelOp):
    """Base of accel ops: relay's syntax and verifier, the type of the relay op `RELAY`
    (`kernel_ops.KernelOp`); the bias, and on some the residual, are optional operands."""

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
    if has_bias:
        check_bias_operand(operand_types, 2, result, axis)


def check_clip(props: Props) -> None:
    """`clip_min` and `clip_max` (the clip epilogue) are both set or both absent, finite,
    `clip_min <= clip_max`."""
    present = [name in props for name in ("clip_min", "clip_max")]
    if not any(present):
        return
    if not all(present):
        raise RelayTypeError("clip_min and clip_max must be set together")
    check_bounds(props, "clip_min", "clip_max", finite=True)


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
