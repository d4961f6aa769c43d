"""Converters for ONNX's linear quantization: QuantizeLinear, DequantizeLinear, QLinear*, *Integer.

Everything decomposes onto existing relay ops. Rounding is half to even, as
ONNX's `rint`; relay's `round` rounds half away from zero, so `rint_even`
builds it exactly from `floor`. Scales and zero points are per tensor (one
value), per axis (1-D along `axis`) or blocked (`block_size` along `axis`).
Quantized types are the integer ones relay has (int8/uint8/int16/uint16, and
int32 for DequantizeLinear); float8 and 2/4-bit types are refused by name.
"""

from __future__ import annotations

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import ANY
from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype
from xrelay.relay.frontend.onnx_ops_nn import conv_v1, matmul_v1
from xrelay.relay.frontend.onnx_registry import Node, Result, Value, converter, dtype_of_value

RANGES: dict[str, tuple[int, int]] = {
    "uint8": (0, 255),
    "int8": (-128, 127),
    "uint16": (0, 65535),
    "int16": (-32768, 32767),
}
"""The quantized integer types QuantizeLinear produces, with their ranges."""

LIMIT = float(1 << 20)
"""|x / scale| is clipped to this before the integer cast (beyond every 16-bit range + zp)."""


def rint_even(v: Expr) -> Expr:
    """Round a float tensor to the nearest integer, ties to even (numpy's `rint`), exactly."""
    dtype = dtype_of_value(v)
    f = E.floor(v)
    frac = E.subtract(v, f)  # exact: in [0, 1)
    half = const(0.5, dtype)
    two = const(2.0, dtype)
    odd = E.not_equal(E.subtract(f, E.multiply(E.floor(E.multiply(f, half)), two)), const(0, dtype))
    up = E.logical_or(E.greater(frac, half), E.logical_and(E.equal(frac, half), odd))
    return E.add(f, E.cast(up, dtype))


def _type_name(node: Node, attr: str) -> str | None:
    """A dtype attribute (`output_dtype`, `precision`) as a relay dtype; 0 or absent: None."""
    code = node.int_attr(attr, 0)
    if code == 0:
        return None
    dtype = relay_dtype(code)
    node.refuse(dtype is None, f"{attr} {onnx_type_name(code)} is not supported")
    assert dtype is not None
    return dtype


def broadcastable(node: Node, index: int, axis: int, block_size: int) -> Expr:
    """Scale or zero point `index`, shaped to broadcast against input 0 (ONNX's rules)."""
    value = node.expr(index)
    shape = node.shape(index)
    x_shape = node.shape(0)
    rank = len(x_shape)
    if not shape or (len(shape) == 1 and shape[0] == 1 and block_size <= 0):
        return T.reshape(value, []) if shape else value
    node.refuse(not -rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    if block_size <= 0:
        node.refuse(len(shape) != 1, f"input #{index} must be a scalar or 1-D, got {list(shape)}")
        node.refuse(
            x_shape[axis] not in (ANY, shape[0]),
            f"input #{index} has {shape[0]} values for dim {axis} of size {x_shape[axis]}",
        )
        dims = [1] * rank
        dims[axis] = shape[0]
        return T.reshape(value, dims)
    node.refuse(len(shape) != rank, f"blocked input #{index} must have rank {rank}")
    size = x_shape[axis]
    node.refuse(size == ANY, "blocked quantization needs a static dim along the axis")
    node.refuse(
        shape[axis] != -(-size // block_size),
        f"input #{index} has {shape[axis]} blocks for dim {size} and block_size {block_size}",
    )
    index_array = np.arange(size, dtype=np.int32) // block_size
    return T.take(value, const(index_array, "int32"), axis=axis)


def _axis_and_block(node: Node) -> tuple[int, int]:
    return node.int_attr("axis", 1), node.int_attr("block_size", 0)


def _float_input(node: Node, index: int, what: str) -> str:
    dtype = node.dtype(index)
    node.refuse(dtype not in ("float16", "bfloat16", "float32", "float64"), f"{what} is {dtype}")
    return dtype


def quantize(x: Expr, zero_point: Expr | None, out_dtype: str) -> Expr:
    """Round `x` (float) half to even, add the zero point, saturate to `out_dtype`'s range."""
    lo, hi = RANGES[out_dtype]
    rounded = E.clip(rint_even(x), -LIMIT, LIMIT)
    q = E.cast(rounded, "int32")
    if zero_point is not None:
        q = E.add(q, E.cast(zero_point, "int32"))
    return E.cast(E.clip(q, lo, hi), out_dtype)


@converter("QuantizeLinear", 10)
def quantize_linear_v10(node: Node) -> Result:
    """QuantizeLinear: saturate(rint(x / scale) + zero_point), per tensor, axis or block."""
    axis, block = _axis_and_block(node)
    out_dtype = _type_name(node, "output_dtype")
    if node.has(2):
        zp_dtype = node.dtype(2)
        node.refuse(
            out_dtype is not None and out_dtype != zp_dtype,
            f"output_dtype {out_dtype} differs from the zero point's {zp_dtype}",
        )
        out_dtype = zp_dtype
    out_dtype = out_dtype or "uint8"
    node.refuse(out_dtype not in RANGES, f"quantizing to {out_dtype} is not supported")
    x_dtype = node.dtype(0)
    scale_dtype = _float_input(node, 1, "the scale")
    precision = _type_name(node, "precision")
    x, scale = node.expr(0), broadcastable(node, 1, axis, block)
    if precision is not None:
        x, scale = E.cast(x, precision), E.cast(scale, precision)
    elif x_dtype == "int32":  # numpy: int32 / float -> float64
        x, scale = E.cast(x, "float64"), E.cast(scale, "float64")
    else:
        node.refuse(x_dtype != scale_dtype, f"x is {x_dtype} but the scale is {scale_dtype}")
    zero_point = broadcastable(node, 2, axis, block) if node.has(2) else None
    return quantize(E.divide(x, scale), zero_point, out_dtype)


@converter("DequantizeLinear", 10)
def dequantize_linear_v10(node: Node) -> Result:
    """DequantizeLinear: (x - zero_point) * scale, in float32 (float64 for int32 x)."""
    axis, block = _axis_and_block(node)
    x_dtype = node.dtype(0)
    node.refuse(x_dtype not in (*RANGES, "int32"), f"dequantizing {x_dtype} is not supported")
    scale_dtype = _float_input(node, 1, "the scale")
    out_dtype = _type_name(node, "output_dtype") or scale_dtype
    work = "float64" if x_dtype == "int32" else "float32"
    dx = E.cast(node.expr(0), work)
    if node.has(2):
        zp_dtype = node.dtype(2)
        node.refuse(zp_dtype != x_dtype, f"the zero point is {zp_dtype} but x is {x_dtype}")
        dx = E.subtract(dx, E.cast(broadcastable(node, 2, axis, block), work))
    y = E.multiply(dx, E.cast(broadcastable(node, 1, axis, block), work))
    return E.cast(y, out_dtype)


@converter("DynamicQuantizeLinear", 11)
def dynamic_quantize_linear_v11(node: Node) -> Result:
    """DynamicQuantizeLinear: uint8 with scale and zero point from x's range (including 0)."""
    node.refuse(node.dtype(0) != "float32", f"x is {node.dtype(0)}, float32 expected")
    x = node.expr(0)
    zero = const(0.0, "float32")
    hi = E.maximum(T.max(x), zero)
    lo = E.minimum(T.min(x), zero)
    span = E.subtract(hi, lo)
    span = E.where(E.equal(span, zero), const(1.0, "float32"), span)
    scale = E.divide(span, const(255.0, "float32"))
    initial = E.subtract(zero, E.divide(lo, scale))
    zp = rint_even(E.clip(initial, 0.0, 255.0))
    y = E.cast(E.clip(E.add(rint_even(E.divide(x, scale)), zp), 0.0, 255.0), "uint8")
    return [y, scale, E.cast(zp, "uint8")]


def _integer_operand(node: Node, index: int, zp_index: int, channel_axis: int | None) -> Expr:
    """Input `index` as int32 minus its zero point.

    A 1-D zero point runs along `channel_axis` (Conv weights: output channels),
    else it broadcasts as numpy does (ONNX's reference).
    """
    dtype = node.dtype(index)
    node.refuse(dtype not in ("int8", "uint8"), f"input #{index} is {dtype}, (u)int8 expected")
    value = E.cast(node.expr(index), "int32")
    if not node.has(zp_index):
        return value
    zp_dtype = node.dtype(zp_index)
    node.refuse(zp_dtype != dtype, f"input #{zp_index} is {zp_dtype} but input #{index} {dtype}")
    zp = E.cast(node.expr(zp_index), "int32")
    zp_shape = node.shape(zp_index)
    if zp_shape == (1,):
        zp = T.reshape(zp, [])
    elif len(zp_shape) == 1 and channel_axis is not None:
        dims = [1] * node.rank(index)
        dims[channel_axis] = -1
        zp = T.reshape(zp, dims)
    return E.subtract(value, zp)


def _derived(node: Node, inputs: list[Value], names: list[str]) -> Node:
    return Node(node.op_type, node.name, node.opset, inputs, names, node.attrs, 1)


@converter("MatMulInteger", 10)
def matmul_integer_v10(node: Node) -> Result:
    """MatMulInteger: (a - a_zp) @ (b - b_zp) in int32 (b_zp per column of b allowed)."""
    a = _integer_operand(node, 0, 2, None)
    b = _integer_operand(node, 1, 3, None)
    return matmul_v1(_derived(node, [a, b], node.input_names[:2]))


@converter("ConvInteger", 10)
def conv_integer_v10(node: Node) -> Result:
    """ConvInteger: Conv of (x - x_zp) and (w - w_zp, per output channel) in int32."""
    x = _integer_operand(node, 0, 2, None)
    w = _integer_operand(node, 1, 3, 0)
    return conv_v1(_derived(node, [x, w], node.input_names[:2]))


def _requantize(node: Node, acc: Expr, multiplier: Expr, zp_index: int, out_dtype: str) -> Expr:
    """acc (int32) * multiplier in float64, plus the output zero point, rint, saturate."""
    y = E.multiply(E.cast(acc, "float64"), E.cast(multiplier, "float64"))
    if node.has(zp_index):
        y = E.add(y, E.cast(node.expr(zp_index), "float64"))
    lo, hi = RANGES[out_dtype]
    return E.cast(E.clip(rint_even(y), lo, hi), out_dtype)


def _scalar(node: Node, index: int) -> Expr:
    shape = node.shape(index)
    node.refuse(shape not in ((), (1,)), f"input #{index} must be a scalar here")
    return T.reshape(node.expr(index), []) if shape else node.expr(index)


def _out_dtype(node: Node, zp_index: int, fallback: int) -> str:
    return node.dtype(zp_index) if node.has(zp_index) else node.dtype(fallback)


@converter("QLinearMatMul", 10)
def qlinear_matmul_v10(node: Node) -> Result:
    """QLinearMatMul: int32 matmul of zero-point-shifted operands, requantized to y's type."""
    a = _integer_operand(node, 0, 2, None)
    b = _integer_operand(node, 3, 5, None)
    acc = matmul_v1(_derived(node, [a, b], [node.input_names[0], node.input_names[3]]))
    assert isinstance(acc, Expr)
    # scales broadcast as numpy (a 1-D b_scale runs along the columns)
    multiplier = E.divide(E.multiply(node.expr(1), node.expr(4)), node.expr(6))
    return _requantize(node, acc, multiplier, 7, _out_dtype(node, 7, 0))


@converter("QLinearConv", 10)
def qlinear_conv_v10(node: Node) -> Result:
    """QLinearConv: int32 Conv (+ int32 bias), times x_scale * w_scale / y_scale, saturated."""
    x = _integer_operand(node, 0, 2, None)
    w = _integer_operand(node, 3, 5, 0)
    inputs: list[Value] = [x, w]
    names = [node.input_names[0], node.input_names[3]]
    if node.has(8):
        node.refuse(node.dtype(8) != "int32", f"the bias is {node.dtype(8)}, int32 expected")
        inputs.append(node.expr(8))
        names.append(node.input_names[8])
    acc = conv_v1(_derived(node, inputs, names))
    assert isinstance(acc, Expr)
    w_scale = node.expr(4)
    w_shape = node.shape(4)
    if w_shape and w_shape != (1,):
        node.refuse(len(w_shape) != 1, "w_scale must be a scalar or 1-D")
        w_scale = T.reshape(w_scale, [1, -1] + [1] * (node.rank(0) - 2))
    elif w_shape:
        w_scale = T.reshape(w_scale, [])
    multiplier = E.divide(E.multiply(_scalar(node, 1), w_scale), _scalar(node, 6))
    return _requantize(node, acc, multiplier, 7, _out_dtype(node, 7, 0))
