"""Dense constants in text: exact round trips (NaN, ±Inf, -0.0, subnormals), range errors, speed.

Each float dtype's special values go print -> parse -> evaluate (interpreter)
and -> build (C target), in lists (printed element by element), splats and
constants of more than 100 elements (printed as a hex blob), through both the
custom and the generic form; the bytes must come back unchanged.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xrelay.dialects.dense_literal import scan_literal
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.types import BFLOAT16, dense_from_numpy, dense_to_numpy

import xrelay
from xrelay import IRModule, relay

TYPES = {"float16": "f16", "float32": "f32", "float64": "f64"}


def special_values(dtype: str) -> npt.NDArray[np.floating]:
    """NaN (quiet, negative, with a payload), ±Inf, ±0, subnormals, extremes and inexact decimals."""
    info = np.finfo(dtype)
    bits = np.dtype(dtype).itemsize * 8
    unsigned = np.dtype(f"u{bits // 8}").type
    payload_nan = np.array([(1 << bits) - 1], dtype=unsigned).view(dtype)[0]  # all ones
    values = [
        np.nan,
        -np.nan,
        np.inf,
        -np.inf,
        0.0,
        -0.0,
        info.smallest_subnormal,
        -info.smallest_subnormal,
        info.smallest_normal - info.smallest_subnormal,  # largest subnormal
        info.max,
        -info.max,
        0.1,
        1 / 3,
    ]
    array = np.array(values, dtype=dtype)
    return np.concatenate([array, np.array([payload_nan], dtype=dtype)])


def constant_module(values: npt.NDArray[np.floating]) -> IRModule:
    return IRModule.from_expr(relay.Function([], relay.const(values, str(values.dtype))))


def text_of(values: npt.NDArray[np.floating], dtype: str) -> str:
    """A module whose constant lists `values` as MLIR bit patterns (hex) in the text."""
    ty = f"tensor<{values.size}x{TYPES[dtype]}>"
    bits = values.view(f"u{values.itemsize}")
    body = ", ".join(f"0x{int(b):X}" for b in bits)
    return (
        f"func.func @main() -> {ty} {{\n"
        f"  %0 = relay.constant dense<[{body}]> : {ty}\n"
        f"  func.return %0 : {ty}\n}}\n"
    )


def same_bytes(got: object, want: npt.NDArray[np.floating]) -> bool:
    array = np.asarray(got)
    return array.dtype == want.dtype and array.tobytes() == want.tobytes()


def variants(dtype: str) -> dict[str, npt.NDArray[np.floating]]:
    values = special_values(dtype)
    return {
        "list": values,
        "splat_nan": np.full(7, np.nan, dtype=dtype),
        "splat_minus_inf": np.full(3, -np.inf, dtype=dtype),
        "zero_and_minus_zero": np.array([0.0, -0.0], dtype=dtype),
        "hex_blob": np.tile(values, 10),  # > 100 elements
        "nested": np.tile(values, 2).reshape(2, 1, values.size),
    }


@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("generic", [False, True])
def test_print_parse_evaluate_keeps_every_bit(dtype: str, generic: bool) -> None:
    for name, values in variants(dtype).items():
        text = constant_module(values).astext(generic=generic)
        reparsed = xrelay.parse(text)
        assert same_bytes(xrelay.evaluate(reparsed), values), (name, text)
        assert reparsed.astext(generic=generic) == text, name


@pytest.mark.parametrize("dtype", TYPES)
def test_hex_elements_are_bit_patterns(dtype: str) -> None:
    values = special_values(dtype)
    mod = xrelay.parse(text_of(values, dtype))
    assert same_bytes(xrelay.evaluate(mod), values)


def test_special_values_print_as_mlir_does() -> None:
    text = constant_module(np.array([np.nan, np.inf, -np.inf, -0.0], dtype="float32")).astext()
    assert "dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.000000e+00]> : tensor<4xf32>" in text


@pytest.mark.parametrize("dtype", TYPES)
def test_built_library_computes_with_the_parsed_bits(dtype: str, tmp_path: Path) -> None:
    """The C target gets the same constants: multiplying by one keeps NaN, ±Inf, -0.0, subnormals."""
    tiny = np.finfo(dtype).smallest_subnormal
    values = np.array([np.nan, np.inf, -np.inf, -0.0, tiny, -tiny, 2.5], dtype=dtype)
    ones = np.ones(values.size, dtype=dtype)
    x = relay.var("x", shape=values.shape, dtype=dtype)
    splat = relay.const(np.full(values.shape, np.inf), dtype)
    body = relay.Tuple([relay.multiply(relay.const(values, dtype), x), relay.add(splat, x)])
    text = IRModule.from_expr(relay.Function([x], body)).astext()
    mod = xrelay.parse(text)
    lib = xrelay.build(mod, target="c", options={"cache_dir": tmp_path})
    product, total = lib(ones)
    assert same_bytes(product, values)
    assert same_bytes(total, np.full(values.shape, np.inf, dtype=dtype))
    want_product, want_total = xrelay.evaluate(mod, ones)
    assert same_bytes(want_product, values)
    assert same_bytes(want_total, np.full(values.shape, np.inf, dtype=dtype))


@pytest.mark.parametrize(
    ("literal", "ty", "message"),
    [
        ("[1.0e39]", "tensor<1xf32>", "2:30: error: float literal 1.0e39 is out of range for f32"),
        ("1.0e39", "tensor<3xf32>", "2:29: error: float literal 1.0e39 is out of range for f32"),
        ("[7.0e4]", "tensor<1xf16>", "2:30: error: float literal 7.0e4 is out of range for f16"),
        ("[300]", "tensor<1xi8>", "2:30: error: integer 300 is out of range for i8"),
        ("[1, 70000]", "tensor<2xi16>", "2:33: error: integer 70000 is out of range for i16"),
        ("[-1]", "tensor<1xui32>", "2:30: error: integer -1 is out of range for ui32"),
        ("[2]", "tensor<1xi1>", "2:30: error: integer 2 is out of range for i1"),
    ],
)
def test_out_of_range_literals_are_located_errors(literal: str, ty: str, message: str) -> None:
    text = f"func.func @main() -> {ty} {{\n  %0 = relay.constant dense<{literal}> : {ty}\n  func.return %0 : {ty}\n}}\n"
    with pytest.raises(DiagnosticError) as error:
        xrelay.parse(text, "m.mlir")
    assert str(error.value).startswith(f"m.mlir:{message}")


def test_integer_ranges_read_exactly() -> None:
    text = (
        "func.func @main() -> (tensor<3xi8>, tensor<2xui64>, tensor<2xi64>, tensor<3xi1>) {\n"
        "  %0 = relay.constant dense<[-128, 255, 0x7F]> : tensor<3xi8>\n"
        "  %1 = relay.constant dense<[0, 18446744073709551615]> : tensor<2xui64>\n"
        "  %2 = relay.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>\n"
        "  %3 = relay.constant dense<[true, false, 1]> : tensor<3xi1>\n"
        "  func.return %0, %1, %2, %3 : tensor<3xi8>, tensor<2xui64>, tensor<2xi64>, tensor<3xi1>\n"
        "}\n"
    )
    i8, u64, i64, flags = xrelay.evaluate(xrelay.parse(text))
    assert i8.tolist() == [-128, -1, 127]  # signless: 255 is the bit pattern of -1
    assert u64.tolist() == [0, 2**64 - 1]
    assert i64.tolist() == [-(2**63), 2**63 - 1]
    assert flags.tolist() == [True, False, True]


@pytest.mark.parametrize(
    ("body", "shape"),
    [
        ("1.5", None),
        ("[]", [0]),
        ("[[], []]", [2, 0]),
        ("[1, 2, 3]", [3]),
        ("[[1, 2], [3, 4], [5, 6]]", [3, 2]),
        ("[[[1]], [[2]]]", [2, 1, 1]),
        (" [ [ 0x1 , -2.5e3 ] ,\n [true, 4.] ] ", [2, 2]),
    ],
)
def test_scan_finds_the_shape_of_well_formed_literals(body: str, shape: list[int] | None) -> None:
    text = f"dense<{body}> : x"
    scanned = scan_literal(text, len("dense<"))
    assert scanned is not None
    tokens, got, end = scanned
    assert got == shape
    assert text[end] == ">"
    assert len(tokens) == (1 if shape is None else int(np.prod(shape)))


@pytest.mark.parametrize(
    "body",
    ["[1, 2], [3]", "[[1, 2], [3]]", "[1 2]", "[1,, 2]", "[[1], 2]", "[1e5]", "[- 1]", "[1]]"],
)
def test_scan_leaves_anything_else_to_the_slow_reader(body: str) -> None:
    assert scan_literal(f"dense<{body}> : x", len("dense<")) is None


def test_the_slow_reader_gives_the_same_values() -> None:
    """`- 1` (a space after the minus) is not scanned fast; the values must not differ."""
    text = (
        "func.func @main() -> tensor<3xf32> {\n"
        "  %0 = relay.constant dense<[- 1, 0x7FC00000, 2.5]> : tensor<3xf32>\n"
        "  func.return %0 : tensor<3xf32>\n}\n"
    )
    got = xrelay.evaluate(xrelay.parse(text))
    assert got.tobytes() == np.array([-1.0, np.nan, 2.5], dtype="float32").tobytes()


def test_a_splat_too_large_for_memory_is_a_located_error() -> None:
    ty = "tensor<1000000x1000000xf32>"  # 4 TB
    text = f"func.func @main() -> {ty} {{\n  %0 = relay.constant dense<1.0> : {ty}\n  func.return %0 : {ty}\n}}\n"
    with pytest.raises(DiagnosticError) as error:
        xrelay.parse(text, "m.mlir")
    assert str(error.value) == (
        "m.mlir:2:29: error: a splat of 1000000000000 elements does not fit in memory"
    )


@pytest.mark.parametrize(
    "dtype",
    ["float16", "bfloat16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool"],
)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0, 4), (1, 4, 1, 1)])
def test_dense_from_numpy_builds_what_the_verified_constructor_builds(
    dtype: str, shape: tuple[int, ...]
) -> None:
    """`dense_from_numpy` skips the attribute's verifier (`_dense`): the attribute equals,
    and hashes as, the one `DenseIntOrFPElementsAttr(type, data)` builds and verifies."""
    array = (
        np.arange(math.prod(shape))
        .reshape(shape)
        .astype(BFLOAT16 if dtype == "bfloat16" else np.dtype(dtype))
    )
    fast = dense_from_numpy(array)
    verified = DenseIntOrFPElementsAttr(fast.type, fast.data)
    assert fast == verified
    assert hash(fast) == hash(verified)
    assert np.array_equal(dense_to_numpy(fast), array)
