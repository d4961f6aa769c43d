"""`dense_resource` blobs and elided constants: exact round trips through text, by the API."""

from __future__ import annotations

import io

import numpy as np
import pytest
from xrelay.dialects.dense_literal import ExactPrinter
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.types import dense_to_numpy
from xrelay.dialects.resources import ElidedConstantError, blob_text, split_resources

import xrelay
from xrelay import IRModule, relay

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"]


def _values(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(len(dtype))
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    values = rng.standard_normal(shape).astype(dtype)
    flat = values.reshape(-1)
    flat[:4] = [np.nan, np.inf, -0.0, -np.inf]
    bits = flat.view(f"u{flat.itemsize}")
    bits[4] = bits[0] | 1  # a NaN with a payload survives
    return values


def _text(
    mod: IRModule, resources_if_larger: int | None = None, elide_if_larger: int | None = None
) -> str:
    stream = io.StringIO()
    printer = ExactPrinter(
        stream=stream, resources_if_larger=resources_if_larger, elide_if_larger=elide_if_larger
    )
    printer.print_op(mod.module)
    return stream.getvalue()


def _constants(mod: IRModule) -> list[np.ndarray]:
    from xrelay.dialects.relay.structure import ConstantOp
    from xrelay.dialects.walk import walk_ops

    return [
        np.asarray(dense_to_numpy(op.value))
        for op in walk_ops(mod.module)
        if isinstance(op, ConstantOp)
    ]


@pytest.mark.parametrize("dtype", DTYPES)
def test_resources_round_trip_every_bit(dtype: str) -> None:
    values = _values(dtype, (3, 5, 7))
    mod = IRModule.from_expr(relay.Function([], relay.const(values, dtype)))
    text = _text(mod, resources_if_larger=10)
    assert "dense_resource<" in text
    assert "{-#" in text
    first = xrelay.parse(text)
    (back,) = _constants(first)
    assert back.dtype == values.dtype
    assert back.tobytes() == values.tobytes()
    # The name read is kept: printing again without options gives the same text.
    assert first.astext() == text + "\n"


def test_two_constants_get_distinct_names_and_equal_ones_share() -> None:
    a = relay.const(np.arange(200, dtype="float32"))
    b = relay.const(np.arange(200, dtype="float32") + 1)
    mod = IRModule.from_expr(relay.Function([], relay.Tuple([a, b, a])))
    text = _text(mod, resources_if_larger=100)
    _, blobs = split_resources(text)
    assert len(blobs) == 2
    parsed = xrelay.parse(text)
    got = _constants(parsed)
    assert [g.tolist() for g in got] == [list(range(200)), list(range(1, 201))]


def test_a_splat_stored_once_is_written_whole() -> None:
    values = np.full((4, 4), 2.5, "float32")
    mod = IRModule.from_expr(relay.Function([], relay.const(values)))
    # Splats are not made resources by a threshold, but a named one prints whole.
    assert "dense_resource" not in _text(mod, resources_if_larger=1)
    text = (
        "func.func @main() -> tensor<4x4xf32> {\n"
        "  %0 = relay.constant dense_resource<s> : tensor<4x4xf32>\n"
        "  func.return %0 : tensor<4x4xf32>\n}\n"
        f'{{-# dialect_resources: {{ builtin: {{ s: "{blob_text(values.tobytes(), 4)}" }} }} #-}}\n'
    )
    (back,) = _constants(xrelay.parse(text))
    assert back.tolist() == values.tolist()


def test_elided_constants_verify_and_refuse_to_compute() -> None:
    x = relay.var("x", shape=(300,), dtype="float32")
    w = relay.const(np.arange(300, dtype="float32"))
    mod = IRModule.from_expr(relay.Function([x], relay.add(x, w)))
    text = _text(mod, elide_if_larger=100)
    assert "dense_resource<__elided__> : tensor<300xf32>" in text
    assert "{-#" not in text
    parsed = xrelay.parse(text)
    with pytest.raises(DiagnosticError, match=r"<string>:3:10: error: .*elided from the text"):
        xrelay.evaluate(parsed, np.zeros(300, "float32"))
    (op,) = [op for op in parsed.module.walk() if op.name == "relay.constant"]
    with pytest.raises(ElidedConstantError):
        dense_to_numpy(op.properties["value"])  # pyright: ignore[reportArgumentType]


def test_unknown_resource_is_located() -> None:
    text = (
        "func.func @main() -> tensor<2xf32> {\n"
        "  %0 = relay.constant dense_resource<nope> : tensor<2xf32>\n"
        "  func.return %0 : tensor<2xf32>\n}\n"
    )
    with pytest.raises(DiagnosticError, match=r"m.mlir:2:38: error: unknown resource 'nope'"):
        xrelay.parse(text, "m.mlir")


def test_a_section_opener_in_a_string_or_comment_is_no_section() -> None:
    text = (
        'func.func @main() -> tensor<f32> attributes {note = "a {-# b"} {\n'
        "  %0 = relay.constant dense<1.0> : tensor<f32>\n"
        "  func.return %0 : tensor<f32>\n}\n"
        "// {-# not a section either\n"
    )
    assert '"a {-# b"' in xrelay.parse(text).astext()
