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
