"""Float32 softmax, log_softmax and layer_norm on "c": the shared row kernels
(`codegen/kernels/rows.py`) against the interpreter (float64, rounded once).

Shapes cover rows of 1, odd lengths and lengths that are not a multiple of
any vector width, every axis (the last: contiguous rows; others: the inner
stride, past one chunk of 256), rows holding NaN, +inf, -inf or all -inf;
layer_norm every `scale`/`center` combination, a large mean over a small
deviation (where a one-pass variance cancels), values whose squares overflow
float32 (the double fallback) and a constant row. Bound: 2e-6 of the
element's magnitude plus 2e-6 of the output's largest (float sums over rows of up
to a few thousand), the special values exactly as the interpreter's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.accel_cases import emit
from testlib.sanitized import main_inputs, main_outputs, run_main

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Make = Callable[[relay.Expr], relay.Expr]


def run_cases(cache: Path, cases: list[tuple[str, Array, Make]], scale: float = 2e-6) -> str:
    params = [
        relay.var(f"x{i}", shape=v.shape, dtype="float32") for i, (_, v, _) in enumerate(cases)
    ]
    outputs = [make(p) for p, (_, _, make) in zip(params, cases, strict=True)]
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    values = [v for _, v, _ in cases]
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got = lib(*values)
    want = xrelay.evaluate(mod, *values)
    for (label, _, _), g, w in zip(cases, got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype, label
        assert g.shape == w.shape, label
        finite = np.isfinite(w)
        assert np.array_equal(np.isnan(g), np.isnan(w)), label
        assert np.array_equal(g[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)]), label
        top = float(np.max(np.abs(w[finite]), initial=0.0))
        bound = scale * (np.abs(w[finite].astype(np.float64)) + top)
        error = np.abs(g[finite].astype(np.float64) - w[finite].astype(np.float64))
        assert np.all(error <= bound), f"{label}: worst {np.max(error - bound)} over bound"
    source = lib.sources.files.get("kernels_rows.c")
    assert isinstance(source, str)
    return source


SHAPES = [
    ((1, 1), -1),
    ((3, 7), -1),
    ((5, 33), 1),
    ((2, 1000), -1),
    ((4, 5, 3), 1),
    ((2, 9, 300), 1),
    ((6, 2, 17), 0),
    ((1, 3, 4, 5), 2),
]


def data(shape: tuple[int, ...], seed: int, scale: float = 3.0) -> Array:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
def test_softmax_shapes_and_axes(log: bool, cache: Path) -> None:
    fn = relay.nn.log_softmax if log else relay.nn.softmax
    cases: list[tuple[str, Array, Make]] = []
    for number, (shape, axis) in enumerate(SHAPES):
        cases.append((f"{shape} axis {axis}", data(shape, number), lambda x, a=axis: fn(x, a)))
    special = data((6, 19), 99)
    special[0, 3] = np.nan
    special[1, 5] = np.inf
    special[2, :] = -np.inf
    special[3, 7] = -np.inf
    special[4, :] = 1e30
    cases.append(("special rows", special, lambda x: fn(x, -1)))
    cases.append(("special columns", special.T.copy(), lambda x: fn(x, 0)))
    source = run_cases(cache, cases)
    assert "xn_softmax_f32" in source


def test_layer_norm_flags_axes_and_hard_rows(cache: Path) -> None:
    cases: list[tuple[str, Array, Make]] = []
    for number, (shape, axis) in enumerate(SHAPES):
        for scale in (False, True):
            for center in (False, True):
                extent = shape[axis]
                rng = np.random.default_rng(number)
                gamma = relay.const(rng.standard_normal(extent).astype(np.float32))
                beta = relay.const(rng.standard_normal(extent).astype(np.float32))

                def make(
                    x: relay.Expr,
                    g: Any = gamma,
                    b: Any = beta,
                    a: int = axis,
                    s: bool = scale,
                    c: bool = center,
                ) -> relay.Expr:
                    return relay.nn.layer_norm(x, g, b, axis=a, epsilon=1e-5, center=c, scale=s)

                label = f"{shape} axis {axis} scale {scale} center {center}"
                cases.append((label, data(shape, number), make))
    hard = data((7, 257), 7, 1e-3)
    hard[0] += 1000.0  # large mean over a small deviation
    hard[1] *= 1e22  # squares overflow float32: the double fallback
    hard[2] = 0.1  # constant: every element beta
    hard[3, 9] = np.nan
    hard[4, 2] = np.inf
    hard[5, 0] = -np.inf
    extent = hard.shape[1]
    ones = relay.const(np.ones(extent, np.float32))
    zeros = relay.const(np.full(extent, 0.5, np.float32))
    cases.append(("hard rows", hard, lambda x: relay.nn.layer_norm(x, ones, zeros, axis=-1)))
    cases.append(
        ("hard columns", hard.T.copy(), lambda x: relay.nn.layer_norm(x, ones, zeros, axis=0))
    )
    source = run_cases(cache, cases, scale=4e-6)
    assert "xn_layer_norm_f32" in source


def test_row_reduce_and_vmath_kernels_are_clean_under_sanitizers(
    cache: Path, tmp_path: Path
) -> None:
    """Every path of the row kernels, the reduction kernel and the vectorized math (contiguous
    rows with tails, inner strides past one chunk, the layer norm's double fallback is not
    reached by these inputs) under ASan and UBSan, outputs against the interpreter."""
    x = relay.var("x", shape=(3, 37), dtype="float32")
    z = relay.var("z", shape=(2, 5, 300), dtype="float32")
    gamma = relay.const(np.linspace(0.5, 1.5, 37, dtype=np.float32))
    beta = relay.const(np.linspace(-1, 1, 37, dtype=np.float32))
    ones = relay.const(np.ones(5, np.float32))
    outputs = [
        relay.nn.softmax(x),
        relay.nn.log_softmax(z, axis=1),
        relay.nn.layer_norm(x, gamma, beta),
        relay.nn.layer_norm(z, ones, ones, axis=1, center=False),
        relay.sum(z, axis=1),
        relay.max(x, axis=1),
        relay.mean(z, axis=(1, 2)),
        relay.log(relay.add(relay.sigmoid(relay.erf(x)), relay.exp(relay.tanh(x)))),
    ]
    mod = IRModule.from_expr(relay.Function([x, z], relay.Tuple(outputs)))
    stdout = run_main(emit(mod), cache, tmp_path)
    inputs = main_inputs([np.zeros((3, 37), np.float32), np.zeros((2, 5, 300), np.float32)])
    want = [np.asarray(w) for w in xrelay.evaluate(mod, *inputs)]
    for printed, w in zip(main_outputs(stdout), want, strict=True):
        got = np.array(printed, dtype=np.float64).reshape(w.shape)
        np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)
