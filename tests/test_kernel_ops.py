"""`dialects/kernel_ops.py`: the one definition of the kernel ops accel and dnnl both have.

The ops of both dialects that compute the same relay op take their operand and
property sets from one mixin, so they cannot drift apart; each dialect's base
(`AccelOp`, `DnnlOp`) stays its own; the shared verifier rules say the same.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import FloatAttr, TensorType, f32, f64
from xdsl.ir import Attribute
from xrelay.dialects import accel, dnnl, kernel_ops
from xrelay.dialects.relay.base import Props, RelayTypeError

PAIRS: list[tuple[type[kernel_ops.KernelOp], type[kernel_ops.KernelOp], type[object]]] = [
    (accel.Conv2DOp, dnnl.Conv2DOp, kernel_ops.Conv2DAttrs),
    (accel.MaxPool2DOp, dnnl.MaxPool2DOp, kernel_ops.Pool2DKernel),
    (accel.AvgPool2DOp, dnnl.AvgPool2DOp, kernel_ops.Pool2DKernel),
    (accel.GlobalAvgPool2DOp, dnnl.GlobalAvgPool2DOp, kernel_ops.GlobalAvgPool2DKernel),
    (accel.BatchNormOp, dnnl.BatchNormOp, kernel_ops.BatchNormKernel),
    (accel.ReluOp, dnnl.ReluOp, kernel_ops.UnaryKernel),
    (accel.AddOp, dnnl.AddOp, kernel_ops.BinaryKernel),
    (accel.SubtractOp, dnnl.SubtractOp, kernel_ops.BinaryKernel),
    (accel.MultiplyOp, dnnl.MultiplyOp, kernel_ops.BinaryKernel),
]


def own_fields(mixin: type[object]) -> set[str]:
    return {
        name
        for name in vars(mixin)
        if not name.startswith("_") and name not in ("traits", "infer_result_types")
    }


@pytest.mark.parametrize(("accel_op", "dnnl_op", "mixin"), PAIRS)
def test_both_dialects_take_the_shared_definition(
    accel_op: type[kernel_ops.KernelOp], dnnl_op: type[kernel_ops.KernelOp], mixin: type[object]
) -> None:
    assert issubclass(accel_op, mixin)
    assert issubclass(dnnl_op, mixin)
    assert issubclass(accel_op, accel.AccelOp)
    assert not issubclass(accel_op, dnnl.DnnlOp)
    assert issubclass(dnnl_op, dnnl.DnnlOp)
    assert not issubclass(dnnl_op, accel.AccelOp)
    assert accel_op.RELAY is dnnl_op.RELAY
    fields = own_fields(mixin)
    assert fields
    a, d = accel_op.get_irdl_definition(), dnnl_op.get_irdl_definition()
    for defs_a, defs_d in ((a.properties, d.properties), (dict(a.operands), dict(d.operands))):
        shared = fields & set(defs_a)
        assert shared == fields & set(defs_d)
        for name in shared:
            assert defs_a[name] == defs_d[name], name
    for name in fields & set(a.properties):
        relay = accel_op.RELAY.get_irdl_definition().properties[name]
        assert a.properties[name].default_value == relay.default_value, name


def tensor(*shape: int, element: Attribute = f32) -> TensorType[Attribute]:
    return TensorType(element, shape)


@pytest.mark.parametrize(
    ("bias", "message"),
    [
        (tensor(4), None),
        (tensor(3), "bias of size 3 does not match 4 output channels"),
        (tensor(4, 1), "bias"),
        (tensor(4, element=f64), "bias element type f64 does not match result f32"),
    ],
)
def test_one_bias_rule(bias: TensorType[Attribute], message: str | None) -> None:
    result = tensor(1, 4, 8, 8)
    operands: list[Attribute] = [tensor(1, 3, 8, 8), tensor(4, 3, 3, 3), bias]
    if message is None:
        kernel_ops.check_bias_operand(operands, 2, result, 1)
        return
    with pytest.raises(RelayTypeError, match=message):
        kernel_ops.check_bias_operand(operands, 2, result, 1)


def bounds(lo: float, hi: float) -> Props:
    return {"lo": FloatAttr(lo, f32), "hi": FloatAttr(hi, f32)}


def test_one_bounds_rule() -> None:
    kernel_ops.check_bounds(bounds(0.0, 6.0), "lo", "hi", finite=True)
    kernel_ops.check_bounds(bounds(0.0, float("inf")), "lo", "hi")
    with pytest.raises(RelayTypeError, match=r"^lo \(7.0\) must not exceed hi \(6.0\)$"):
        kernel_ops.check_bounds(bounds(7.0, 6.0), "lo", "hi")
    with pytest.raises(RelayTypeError, match=r"clip bounds must be finite, got \[0.0, inf\]"):
        kernel_ops.check_bounds(bounds(0.0, float("inf")), "lo", "hi", finite=True)
