"""Reference semantics of elementwise and structural ops, against scalar Python math."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

RNG = np.random.default_rng(42)


def run_unary(fn: Callable[[relay.Expr], relay.Expr], data: np.ndarray) -> np.ndarray:
    x = relay.var("x", shape=data.shape, dtype=data.dtype.name)
    return xrelay.evaluate(IRModule.from_expr(fn(x)), data)


def run_binary(
    fn: Callable[[relay.Expr, relay.Expr], relay.Expr], a: np.ndarray, b: np.ndarray
) -> np.ndarray:
    x = relay.var("a", shape=a.shape, dtype=a.dtype.name)
    y = relay.var("b", shape=b.shape, dtype=b.dtype.name)
    return xrelay.evaluate(IRModule.from_expr(relay.Function([x, y], fn(x, y))), a, b)


def elementwise(fn: Callable[[float], float], data: np.ndarray) -> np.ndarray:
    return np.array([fn(float(v)) for v in data.ravel()]).reshape(data.shape)


UNARY_CASES: list[tuple[Callable[[relay.Expr], relay.Expr], Callable[[float], float]]] = [
    (relay.negative, lambda v: -v),
    (relay.abs, abs),
    (relay.exp, math.exp),
    (relay.log, math.log),
    (relay.sqrt, math.sqrt),
    (relay.rsqrt, lambda v: 1 / math.sqrt(v)),
    (relay.tanh, math.tanh),
    (relay.sigmoid, lambda v: 1 / (1 + math.exp(-v))),
    (relay.erf, math.erf),
    (relay.floor, math.floor),
    (relay.ceil, math.ceil),
]


@pytest.mark.parametrize(("build", "scalar"), UNARY_CASES)
def test_unary_matches_scalar_math(
    build: Callable[[relay.Expr], relay.Expr], scalar: Callable[[float], float]
) -> None:
    data = (RNG.random((2, 3, 4)) * 3 + 0.1).astype("float32")
    if build in (relay.negative, relay.abs, relay.tanh, relay.erf, relay.floor, relay.ceil):
        data = data - 1.7
    out = run_unary(build, data)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, elementwise(scalar, data), rtol=2e-6, atol=1e-6)


def test_clip_and_cast() -> None:
    data = np.array([-3.0, -0.5, 0.25, 7.0], "float32")
    np.testing.assert_array_equal(
        run_unary(lambda x: relay.clip(x, -1.0, 2.0), data), [-1.0, -0.5, 0.25, 2.0]
    )
    cast = run_unary(lambda x: relay.cast(x, "int32"), np.array([1.9, -1.9, 0.2], "float32"))
    assert cast.dtype == np.int32
    np.testing.assert_array_equal(cast, [1, -1, 0])
    half = run_unary(lambda x: relay.cast(x, "float16"), data)
    assert half.dtype == np.float16


BINARY_CASES: list[
    tuple[Callable[[relay.Expr, relay.Expr], relay.Expr], Callable[[float, float], float]]
] = [
    (relay.add, lambda a, b: a + b),
    (relay.subtract, lambda a, b: a - b),
    (relay.multiply, lambda a, b: a * b),
    (relay.divide, lambda a, b: a / b),
    (relay.power, lambda a, b: a**b),
    (relay.maximum, max),
    (relay.minimum, min),
]


@pytest.mark.parametrize(("build", "scalar"), BINARY_CASES)
def test_binary_broadcasting_matches_scalar_loops(
    build: Callable[[relay.Expr, relay.Expr], relay.Expr], scalar: Callable[[float, float], float]
) -> None:
    a = (RNG.random((2, 1, 4)) + 0.5).astype("float32")
    b = (RNG.random((3, 1)) + 0.5).astype("float32")
    out = run_binary(build, a, b)
    assert out.shape == (2, 3, 4)
    expected = np.empty((2, 3, 4))
    for i in range(2):
        for j in range(3):
            for k in range(4):
                expected[i, j, k] = scalar(float(a[i, 0, k]), float(b[j, 0]))
    np.testing.assert_allclose(out, expected, rtol=2e-6)


def test_comparisons_give_booleans() -> None:
    a = np.array([1, 2, 3], "int32")
    b = np.array([2], "int32")
    expected = {
        relay.equal: [False, True, False],
        relay.not_equal: [True, False, True],
        relay.less: [True, False, False],
        relay.less_equal: [True, True, False],
        relay.greater: [False, False, True],
        relay.greater_equal: [False, True, True],
    }
    for build, want in expected.items():
        out = run_binary(build, a, b)
        assert out.dtype == np.bool_
        assert out.tolist() == want


def test_integer_division_truncates_like_tvm() -> None:
    out = run_binary(relay.divide, np.array([7, -7, 6], "int32"), np.array([2, 2, -4], "int32"))
    assert out.tolist() == [3, -3, -1]


def test_dynamic_batch_evaluates_any_size() -> None:
    x = relay.var("x", shape=(None, 3))
    mod = IRModule.from_expr(relay.add(x, relay.const(np.array([1.0, 2.0, 3.0], "float32"))))
    assert "tensor<?x3xf32>" in str(mod)
    for batch in (1, 5):
        out = xrelay.evaluate(mod, np.zeros((batch, 3), "float32"))
        assert out.tolist() == [[1.0, 2.0, 3.0]] * batch


def test_inputs_are_checked() -> None:
    x = relay.var("x", shape=(2, 3))
    mod = IRModule.from_expr(relay.exp(x))
    with pytest.raises(ValueError, match=r"input 'x': expected shape \(2, 3\), got \(3, 2\)"):
        xrelay.evaluate(mod, np.zeros((3, 2), "float32"))
    with pytest.raises(ValueError, match="input 'x': expected dtype float32, got float64"):
        xrelay.evaluate(mod, np.zeros((2, 3)))
    with pytest.raises(ValueError, match="takes 1 inputs, got 2"):
        xrelay.evaluate(mod, np.zeros((2, 3), "float32"), np.zeros(1))
    with pytest.raises(ValueError, match="no function 'nope'"):
        xrelay.evaluate(mod, np.zeros((2, 3), "float32"), entry="nope")


def test_non_contiguous_inputs_are_accepted() -> None:
    x = relay.var("x", shape=(3, 2))
    mod = IRModule.from_expr(relay.negative(x))
    data = np.arange(6, dtype="float32").reshape(2, 3).T
    np.testing.assert_array_equal(xrelay.evaluate(mod, data), -data)


def test_composite_and_annotations_evaluate_their_body() -> None:
    text = """
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<3xf32>
  %0 = relay.composite "accel.neg_exp" (%b) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%i: tensor<3xf32>):
    %n = relay.negative %i : tensor<3xf32>
    %e = relay.exp %n : tensor<3xf32>
    relay.yield %e : tensor<3xf32>
  }
  %e = relay.compiler_end %0 {compiler = "accel"} : tensor<3xf32>
  func.return %e : tensor<3xf32>
}
"""
    mod = xrelay.parse(text)
    data = np.array([0.0, 1.0, 2.0], "float32")
    np.testing.assert_allclose(xrelay.evaluate(mod, data), [math.exp(-v) for v in data], rtol=1e-6)
    # The builder keeps a composite it has no expression for whole when rebuilding.
    rebuilt = IRModule({"main": mod["main"]})
    assert str(rebuilt) == str(mod)


def test_evaluation_is_linear_in_graph_size() -> None:
    x = relay.var("x", shape=(2,))
    y: relay.Expr = x
    for _ in range(20000):
        y = relay.add(y, x)
    mod = IRModule.from_expr(relay.Function([x], y))
    out = xrelay.evaluate(mod, np.ones(2, "float32"))
    assert out.tolist() == [20001.0, 20001.0]


MATH_CASES: list[tuple[Callable[[relay.Expr], relay.Expr], Callable[[float], float], float]] = [
    (relay.sin, math.sin, -3.0),
    (relay.cos, math.cos, -3.0),
    (relay.tan, math.tan, -1.2),
    (relay.asin, math.asin, -0.9),
    (relay.acos, math.acos, -0.9),
    (relay.atan, math.atan, -3.0),
    (relay.sinh, math.sinh, -3.0),
    (relay.cosh, math.cosh, -3.0),
    (relay.asinh, math.asinh, -3.0),
    (relay.acosh, math.acosh, 1.0),
    (relay.atanh, math.atanh, -0.9),
    (relay.trunc, math.trunc, -3.0),
]


@pytest.mark.parametrize(("build", "scalar", "low"), MATH_CASES)
def test_float_math_matches_scalar_math(
    build: Callable[[relay.Expr], relay.Expr], scalar: Callable[[float], float], low: float
) -> None:
    span = 1.8 if low == -0.9 else 2.4 if low == -1.2 else 6.0
    data = (RNG.random((2, 3, 4)) * span + low).astype("float32")
    out = run_unary(build, data)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, elementwise(scalar, data), rtol=2e-6, atol=1e-6)


def test_round_halves_away_from_zero_and_keeps_the_sign_of_zero() -> None:
    data = np.array([0.5, -0.5, 1.5, 2.5, -2.5, -0.3, 0.49999997, 1e30, np.nan], "float32")
    out = run_unary(relay.round, data)
    want = [1.0, -1.0, 2.0, 3.0, -3.0, -0.0, 0.0, 1e30]
    assert out[:-1].tolist() == [float(np.float32(v)) for v in want]
    assert np.signbit(out[5])
    assert not np.signbit(out[6])
    assert np.isnan(out[-1])
    trunc = run_unary(relay.trunc, np.array([2.7, -2.7, -0.2, np.inf], "float32"))
    assert trunc.tolist() == [2.0, -2.0, -0.0, np.inf]
    assert np.signbit(trunc[2])


def test_sign_and_float_tests() -> None:
    floats = np.array([3.5, -2.0, 0.0, -0.0, np.inf, -np.inf, np.nan], "float32")
    sign = run_unary(relay.sign, floats)
    assert sign[:6].tolist() == [1.0, -1.0, 0.0, 0.0, 1.0, -1.0]
    assert not np.signbit(sign[3])
    assert np.isnan(sign[6])
    ints = np.array([-128, -1, 0, 1, 127], "int8")
    assert run_unary(relay.sign, ints).tolist() == [-1, -1, 0, 1, 1]
    tests = {relay.isnan: math.isnan, relay.isinf: math.isinf, relay.isfinite: math.isfinite}
    for build, scalar in tests.items():
        out = run_unary(build, floats)
        assert out.dtype == np.bool_
        assert out.tolist() == [scalar(float(v)) for v in floats]


def test_logical_and_bitwise_ops_on_booleans_and_integers() -> None:
    p = np.array([True, True, False, False])
    q = np.array([True, False, True, False])
    tables = {
        relay.logical_and: [True, False, False, False],
        relay.logical_or: [True, True, True, False],
        relay.logical_xor: [False, True, True, False],
        relay.bitwise_and: [True, False, False, False],
        relay.bitwise_or: [True, True, True, False],
        relay.bitwise_xor: [False, True, True, False],
    }
    for build, want in tables.items():
        out = run_binary(build, p, q)
        assert out.dtype == np.bool_
        assert out.tolist() == want
    assert run_unary(relay.logical_not, p).tolist() == [False, False, True, True]
    assert run_unary(relay.bitwise_not, p).tolist() == [False, False, True, True]
    a = np.array([12, -7, 0, 127], "int8")
    b = np.array([10, 3, -1, -128], "int8")
    scalar = {
        relay.bitwise_and: lambda x, y: x & y,
        relay.bitwise_or: lambda x, y: x | y,
        relay.bitwise_xor: lambda x, y: x ^ y,
    }
    for build, fn in scalar.items():
        assert run_binary(build, a, b).tolist() == [
            fn(int(x), int(y)) for x, y in zip(a, b, strict=True)
        ]
    assert run_unary(relay.bitwise_not, a).tolist() == [~int(x) for x in a]


def wrap(value: int, dtype: str) -> int:
    """`value` in `dtype`'s two's complement (or modulo 2^bits for unsigned types)."""
    info = np.iinfo(dtype)
    value %= 1 << info.bits
    return value - (1 << info.bits) if value > info.max else value


def trunc_div(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INTEGER_BINARY: dict[str, Callable[[int, int], int]] = {
    "mod": lambda a, b: 0 if b == 0 else a - trunc_div(a, b) * b,
    "floor_mod": lambda a, b: 0 if b == 0 else a % b,
    "floor_divide": lambda a, b: 0 if b == 0 else a // b,
    "trunc_divide": trunc_div,
}


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8"])
@pytest.mark.parametrize("name", sorted(INTEGER_BINARY))
def test_integer_modulo_and_division_against_python_integers(name: str, dtype: str) -> None:
    info = np.iinfo(dtype)
    values = sorted({info.min, info.min + 1, -7, -2, -1, 0, 1, 2, 3, 7, info.max - 1, info.max})
    values = [v for v in values if info.min <= v <= info.max]
    pairs = [(a, b) for a in values for b in values]
    a = np.array([p[0] for p in pairs], dtype)
    b = np.array([p[1] for p in pairs], dtype)
    out = run_binary(getattr(relay, name), a, b)
    assert out.dtype == np.dtype(dtype)
    want = [wrap(INTEGER_BINARY[name](x, y), dtype) for x, y in pairs]
    assert out.tolist() == want


def test_float_modulo_and_rounded_quotients() -> None:
    a = np.array([5.5, -5.5, 5.5, -5.5, 6.0, -6.0, 1.0], "float32")
    b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 0.0], "float32")
    mod = run_binary(relay.mod, a, b)
    assert mod[:6].tolist() == [math.fmod(x, y) for x, y in zip(a[:6], b[:6], strict=True)]
    assert np.signbit(mod[5])
    assert np.isnan(mod[6])
    floor_mod = run_binary(relay.floor_mod, a, b)
    assert floor_mod[:6].tolist() == [
        float(x) % float(y) for x, y in zip(a[:6], b[:6], strict=True)
    ]
    assert not np.signbit(floor_mod[5])  # a zero remainder takes the divisor's sign
    assert run_binary(relay.floor_divide, a, b)[:6].tolist() == [2.0, -3.0, -3.0, 2.0, 2.0, -2.0]
    assert run_binary(relay.trunc_divide, a, b)[:6].tolist() == [2.0, -2.0, -2.0, 2.0, 2.0, -2.0]


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8"])
def test_shifts_against_python_integers(dtype: str) -> None:
    info = np.iinfo(dtype)
    values = [v for v in (info.min, -5, -1, 0, 1, 3, 100, info.max) if v >= info.min]
    amounts = [v for v in (-1, 0, 1, 3, info.bits - 1, info.bits, info.bits + 3) if v >= info.min]
    pairs = [(a, s) for a in values for s in amounts]
    a = np.array([p[0] for p in pairs], dtype)
    s = np.array([p[1] for p in pairs], dtype)
    inside = [0 <= k < info.bits for _, k in pairs]
    left = [wrap(x << k, dtype) if ok else 0 for (x, k), ok in zip(pairs, inside, strict=True)]
    right = [
        x >> (k if ok else info.bits - 1 if info.min else info.bits)
        for (x, k), ok in zip(pairs, inside, strict=True)
    ]
    assert run_binary(relay.left_shift, a, s).tolist() == left
    assert run_binary(relay.right_shift, a, s).tolist() == right


def test_where_broadcasts_three_ways() -> None:
    cond = RNG.random((2, 1, 4)) < 0.5
    x = RNG.standard_normal((3, 1)).astype("float32")
    y = RNG.standard_normal((4,)).astype("float32")
    c_v = relay.var("c", shape=cond.shape, dtype="bool")
    x_v = relay.var("x", shape=x.shape)
    y_v = relay.var("y", shape=y.shape)
    mod = IRModule.from_expr(relay.Function([c_v, x_v, y_v], relay.where(c_v, x_v, y_v)))
    out = xrelay.evaluate(mod, cond, x, y)
    assert out.shape == (2, 3, 4)
    assert out.dtype == np.float32
    for i in range(2):
        for j in range(3):
            for k in range(4):
                assert out[i, j, k] == (x[j, 0] if cond[i, 0, k] else y[k])
