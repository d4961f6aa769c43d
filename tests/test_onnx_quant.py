"""ONNX quantization converters against onnx.reference, on the interpreter and built for `c`.

Inputs are chosen to hit the edges: exact halves (rounding is half to even,
unlike relay's `round`), values beyond the quantized range (saturation),
per-axis and blocked scales, zero points of each integer type.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_both, node_model

from xrelay.relay.frontend import OnnxImportError, from_onnx

HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.49999997, 1e6, -1e6], np.float32)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16"])
def test_quantize_linear_rounds_half_to_even_and_saturates(dtype: str, cache: Path) -> None:
    node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])
    consts = {"s": np.array(1.0, np.float32), "z": np.array(3, dtype)}
    check_both(node, {"x": HALVES}, consts, cache)


def test_quantize_linear_default_uint8_and_int32_input(cache: Path) -> None:
    node = helper.make_node("QuantizeLinear", ["x", "s"], ["y"])
    x = np.array([-7, 0, 5, 7, 300, 1001], np.int32)
    check_both(node, {"x": x}, {"s": np.array(2.0, np.float32)}, cache)


def test_quantize_linear_per_axis(cache: Path) -> None:
    node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=1)
    x = np.arange(-12, 12, dtype=np.float32).reshape(2, 3, 4) * 1.25
    consts = {"s": np.array([0.5, 2.0, 4.0], np.float32), "z": np.array([0, -3, 7], np.int8)}
    check_both(node, {"x": x}, consts, cache)


def test_quantize_linear_blocked_with_a_remainder_block(cache: Path) -> None:
    node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=1, block_size=2)
    x = np.linspace(-20, 20, 15, dtype=np.float32).reshape(3, 5)
    s = np.array([[0.5, 1.0, 2.0]] * 3, np.float32)
    z = np.array([[1, 2, 3]] * 3, np.uint8)
    check_both(node, {"x": x}, {"s": s, "z": z}, cache)


def test_dequantize_linear_per_axis_and_int32(cache: Path) -> None:
    node = helper.make_node("DequantizeLinear", ["x", "s", "z"], ["y"], axis=0)
    x = np.array([[0, 255, 128], [7, 8, 9]], np.uint8)
    consts = {"s": np.array([0.5, 0.25], np.float32), "z": np.array([128, 3], np.uint8)}
    check_both(node, {"x": x}, consts, cache)
    node = helper.make_node("DequantizeLinear", ["x", "s"], ["y"])
    x32 = np.array([-(2**31), 2**31 - 1, 123456789], np.int32)
    check_both(node, {"x": x32}, {"s": np.array(0.001, np.float32)}, cache)


def test_dynamic_quantize_linear(cache: Path) -> None:
    node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])
    x = np.array([[-1.0, 2.5, 0.3], [7.25, -3.5, 0.0]], np.float32)
    check_both(node, {"x": x}, {}, cache, opset=11)
    check_both(node, {"x": np.abs(x) + 1}, {}, cache, opset=11)  # min adjusted to 0


def test_matmul_integer_with_zero_points(cache: Path) -> None:
    node = helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])
    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, (2, 3, 4)).astype(np.uint8)
    b = rng.integers(-128, 128, (4, 5)).astype(np.int8)
    consts = {"az": np.array(12, np.uint8), "bz": np.arange(-2, 3, dtype=np.int8)}
    check_both(node, {"a": a, "b": b}, consts, cache, opset=10)


def test_conv_integer_per_channel_weight_zero_point(cache: Path) -> None:
    node = helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], pads=[1, 1, 1, 1])
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, (1, 2, 4, 4)).astype(np.uint8)
    w = rng.integers(0, 256, (3, 2, 3, 3)).astype(np.uint8)
    consts = {"xz": np.array(100, np.uint8), "wz": np.array([1, 2, 3], np.uint8)}
    check_both(node, {"x": x, "w": w}, consts, cache, opset=10)


@pytest.mark.parametrize("dtype", ["uint8", "int8"])
def test_qlinear_matmul(dtype: str, cache: Path) -> None:
    names = ["a", "as", "az", "b", "bs", "bz", "ys", "yz"]
    node = helper.make_node("QLinearMatMul", names, ["y"])
    info = np.iinfo(dtype)
    rng = np.random.default_rng(2)
    a = rng.integers(info.min, info.max + 1, (2, 3, 4)).astype(dtype)
    b = rng.integers(info.min, info.max + 1, (4, 2)).astype(dtype)
    consts = {
        "as": np.array(0.05, np.float32),
        "az": np.array(3, dtype),
        "bs": np.array(0.02, np.float32),
        "bz": np.array(-1 if dtype == "int8" else 130, dtype),
        "ys": np.array(0.125, np.float32),
        "yz": np.array(5, dtype),
    }
    check_both(node, {"a": a, "b": b}, consts, cache, opset=10)


def test_qlinear_conv_per_channel_scale_and_bias(cache: Path) -> None:
    names = ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"]
    node = helper.make_node("QLinearConv", names, ["y"], strides=[2, 2], pads=[1, 0, 1, 0])
    rng = np.random.default_rng(3)
    x = rng.integers(0, 256, (1, 2, 5, 5)).astype(np.uint8)
    consts = {
        "xs": np.array(0.02, np.float32),
        "xz": np.array(120, np.uint8),
        "w": rng.integers(0, 256, (2, 2, 3, 3)).astype(np.uint8),
        "ws": np.array([0.01, 0.03], np.float32),
        "wz": np.array(128, np.uint8),
        "ys": np.array(0.2, np.float32),
        "yz": np.array(10, np.uint8),
        "bias": np.array([-1000, 2000], np.int32),
    }
    check_both(node, {"x": x}, consts, cache, opset=10)


def test_refusals_name_the_node() -> None:
    node = helper.make_node("QuantizeLinear", ["x", "s"], ["y"], name="q", output_dtype=22)
    model = node_model(node, {"x": HALVES}, {"s": np.array(1.0, np.float32)}, 21)
    with pytest.raises(OnnxImportError, match=r"node 'q' \(QuantizeLinear\): output_dtype INT4"):
        from_onnx(model)
    node = helper.make_node("DequantizeLinear", ["x", "s"], ["y"], name="dq")
    model = node_model(node, {"x": np.zeros(3, np.int64)}, {"s": np.array(1.0, np.float32)}, 21)
    with pytest.raises(OnnxImportError, match=r"node 'dq' \(DequantizeLinear\): .*int64"):
        from_onnx(model)


def test_qlinear_matmul_per_column_scale_and_zero_point(cache: Path) -> None:
    names = ["a", "as", "az", "b", "bs", "bz", "ys", "yz"]
    node = helper.make_node("QLinearMatMul", names, ["y"])
    rng = np.random.default_rng(4)
    a = rng.integers(0, 256, (3, 4)).astype(np.uint8)
    b = rng.integers(0, 256, (4, 3)).astype(np.uint8)
    consts = {
        "as": np.array(0.05, np.float32),
        "az": np.array(3, np.uint8),
        "bs": np.array([0.01, 0.02, 0.04], np.float32),
        "bz": np.array([120, 128, 136], np.uint8),
        "ys": np.array(0.25, np.float32),
        "yz": np.array(100, np.uint8),
    }
    check_both(node, {"a": a, "b": b}, consts, cache, opset=21)
