"""FastMath and the fast ops: reference values against math's functions, target c against the
interpreter, the pass keeping the numbers, and `relay.optimize` running it when required."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.numerics import run_and_check

import xrelay
from xrelay import IRModule, relay, transform

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(4)


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


@pytest.mark.parametrize(
    ("make", "exact"),
    [(relay.fast_exp, math.exp), (relay.fast_tanh, math.tanh), (relay.fast_erf, math.erf)],
)
def test_unary_reference_is_the_exact_function(make: Any, exact: Any) -> None:
    values = np.array([-3.0, -0.5, 0.0, 0.25, 2.0], np.float64)
    x = relay.var("x", shape=(5,), dtype="float64")
    got = np.asarray(xrelay.evaluate(IRModule.from_expr(relay.Function([x], make(x))), values))
    np.testing.assert_allclose(got, [exact(v) for v in values], rtol=1e-15)


def test_fast_softmax_reference_by_hand() -> None:
    x = relay.var("x", shape=(2, 2), dtype="float64")
    mod = IRModule.from_expr(relay.Function([x], relay.nn.fast_softmax(x, axis=0)))
    got = np.asarray(xrelay.evaluate(mod, np.array([[0.0, 1.0], [0.0, 3.0]])))
    e2 = math.exp(2.0)
    np.testing.assert_allclose(got, [[0.5, 1 / (1 + e2)], [0.5, e2 / (1 + e2)]], rtol=1e-15)


def test_c_target_matches_the_interpreter(tmp_path: Path) -> None:
    x = relay.var("x", shape=(3, 7))
    h = relay.var("h", shape=(5,), dtype="float16")
    outs = [relay.fast_exp(x), relay.fast_tanh(x), relay.fast_erf(x), relay.nn.fast_softmax(x)]
    outs += [relay.fast_tanh(h), relay.nn.fast_softmax(x, axis=0)]
    mod = IRModule.from_expr(relay.Function([x, h], relay.Tuple(outs)))
    values = [RNG.standard_normal((3, 7)).astype(np.float32) * 3, RNG.standard_normal(5)]
    values[1] = values[1].astype(np.float16)
    got = xrelay.build(mod, options={"cache_dir": tmp_path})(*values)
    want = xrelay.evaluate(mod, *values)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        rtol = 1e-3 if g.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * 1e-2)


def math_module() -> IRModule:
    x = relay.var("x", shape=(2, 6))
    y = relay.nn.softmax(relay.erf(relay.tanh(relay.exp(x))), axis=1)
    return IRModule.from_expr(relay.Function([x], relay.log(y)))


def test_pass_keeps_the_numbers() -> None:
    out = run_and_check(math_module(), transform.FastMath(), opt_level=4)
    for name in ("exp", "tanh", "erf", "nn.softmax"):
        assert count(out, f"relay.{name}") == 0
    for name in ("fast_exp", "fast_tanh", "fast_erf", "nn.fast_softmax", "log"):
        assert count(out, f"relay.{name}") == 1


def test_optimize_runs_fast_math_when_required_or_at_level_4() -> None:
    mod = math_module()
    before = str(mod)
    with transform.PassContext(opt_level=3):
        plain, params = relay.optimize(mod, target="c")
    assert "fast_exp" not in plain.astext()
    assert params == {}
    with transform.PassContext(opt_level=3, required_pass=["FastMath"]):
        fast, _ = relay.optimize(mod, target="c")
    assert "fast_exp" in fast.astext()
    with transform.PassContext(opt_level=4):
        fast4, _ = relay.optimize(mod)
    assert "nn.fast_softmax" in fast4.astext()
    assert str(mod) == before  # the caller's module is unchanged


def test_optimize_binds_params() -> None:
    x = relay.var("x", shape=(2,))
    w = relay.var("w", shape=(2,))
    mod = IRModule.from_expr(relay.Function([x, w], relay.multiply(x, w)))
    out, params = relay.optimize(mod, params={"w": np.array([2.0, 3.0], np.float32)})
    assert list(params) == ["w"]
    got = np.asarray(xrelay.evaluate(out, np.array([1.0, 1.0], np.float32)))
    np.testing.assert_array_equal(got, [2.0, 3.0])
