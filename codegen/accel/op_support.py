"""Which single relay ops the `accel` accelerator takes (`target.accel` predicates).

Its kernel set (design.md): conv2d, dense, relu, clip, add, subtract, multiply,
batch_norm (inference form), max_pool2d, avg_pool2d, global_avg_pool2d, all on
float32 tensors. The predicates read types and attributes, as an accelerator's
rules do:

- every operand and result is a float32 tensor of static shape;
- conv2d and the pools work on NCHW data (OIHW kernels); a conv2d whose constant
  weight holds ±Inf or NaN stays on the host (accel's kernels multiply the zero
  padding, where relay's padding adds nothing, and Winograd mixes the weights:
  docs/semantics.md);
- dense takes a 2-D input;
- add, subtract and multiply take two operands of one shape (the accelerator
  has no broadcasting unit; the host keeps the broadcasting ones);
- batch_norm normalizes axis 1 of an NCHW tensor;
- clip has finite bounds (ReLU6 is `clip(0, 6)`).
"""

from __future__ import annotations

import math

import numpy as np

from xrelay.byoc import ExprView, TypeView, register_op_attr

TARGET = "target.accel"


def _static_f32(t: TypeView) -> bool:
    return t.dtype == "float32" and all(d >= 0 for d in t.shape)


def _all_static_f32(expr: ExprView) -> bool:
    types = [a.checked_type for a in expr.args]
    if expr.checked_type.fields:
        types.extend(expr.checked_type.fields)
    else:
        types.append(expr.checked_type)
    return all(_static_f32(t) for t in types)


def _non_finite_weight(expr: ExprView) -> bool:
    """A conv2d whose constant weight holds ±Inf or NaN. accel's kernels multiply zero-padded
    rows (`0 * inf` is NaN; relay's padding adds nothing) and Winograd mixes the weights, so
    the host takes it (docs/semantics.md)."""
    weight = expr.args[1].data
    return weight is not None and not bool(np.isfinite(weight).all())


@register_op_attr("nn.conv2d", TARGET)
def _conv2d(expr: ExprView) -> bool:
    return (
        _all_static_f32(expr)
        and expr.attrs.get("data_layout", "NCHW") == "NCHW"
        and expr.attrs.get("kernel_layout", "OIHW") == "OIHW"
        and not _non_finite_weight(expr)
    )


@register_op_attr("nn.dense", TARGET)
def _dense(expr: ExprView) -> bool:
    return _all_static_f32(expr) and len(expr.args[0].checked_type.shape) == 2


@register_op_attr("nn.relu", TARGET)
def _relu(expr: ExprView) -> bool:
    return _all_static_f32(expr)


@register_op_attr("clip", TARGET)
def _clip(expr: ExprView) -> bool:
    bounds = (expr.attrs.get("a_min"), expr.attrs.get("a_max"))
    finite = all(isinstance(b, float) and math.isfinite(b) for b in bounds)
    return _all_static_f32(expr) and finite


def _same_shape_binary(expr: ExprView) -> bool:
    lhs, rhs = (a.checked_type for a in expr.args)
    return _all_static_f32(expr) and lhs.shape == rhs.shape


for _name in ("add", "subtract", "multiply"):
    register_op_attr(_name, TARGET, _same_shape_binary)


@register_op_attr("nn.batch_norm", TARGET)
def _batch_norm(expr: ExprView) -> bool:
    return (
        _all_static_f32(expr)
        and len(expr.args[0].checked_type.shape) == 4
        and expr.attrs.get("axis", 1) == 1
    )


def _pool(expr: ExprView) -> bool:
    return _all_static_f32(expr) and expr.attrs.get("layout", "NCHW") == "NCHW"


for _name in ("nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d"):
    register_op_attr(_name, TARGET, _pool)
