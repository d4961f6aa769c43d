"""Host float32 elementwise loops calling the vectorized math (`codegen/kernels/vmath.py`).

`exp`, `log`, `tanh`, `sigmoid`, `erf` on float32, alone and fused in chains
(GELU with erf, a softmax-like `log(exp(x) + sigmoid(tanh(x)))`), built for
"c" and run against the interpreter (float64 numpy rounded once) on lengths
that are and are not a multiple of any vector width, with NaN, ±inf, ±0,
subnormals, overflow and underflow: within a few float32 ulps, NaN where the
interpreter has NaN, the sign of zeros kept. float64 keeps `<math.h>`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 88.8, -104.0, 1e30, -1e30, 3.9]


def values(length: int, seed: int, scale: float = 6.0) -> Array:
    rng = np.random.default_rng(seed)
    out = (rng.standard_normal(length) * scale).astype(np.float32)
    out[: min(length, len(SPECIAL))] = SPECIAL[: min(length, len(SPECIAL))]
    return out


def unary(name: str, x: relay.Expr) -> relay.Expr:
    fn: Any = getattr(relay, name)
    return fn(x)


def gelu(x: relay.Expr) -> relay.Expr:
    half, one = relay.const(np.float32(0.5)), relay.const(np.float32(1.0))
    inner = relay.erf(relay.multiply(x, relay.const(np.float32(0.7071067811865476))))
    return relay.multiply(relay.multiply(x, half), relay.add(one, inner))


def check(got: Array, want: Array, label: str, scale: Array | None = None) -> None:
    """Within 2e-6 relative (a few float32 ulps); with `scale`, also within 4 ulps of it
    (GELU: `1 + erf` cancels for negative x, erf's ulps of 1 remain, times x; a log of
    about 1: its argument's ulps remain)."""
    assert got.dtype == want.dtype, label
    assert got.shape == want.shape, label
    slack = 1e-37 if scale is None else 4 * 2.0**-24 * np.abs(scale.astype(np.float64))
    finite = np.isfinite(want)
    with np.errstate(invalid="ignore"):  # inf - inf where both are infinite
        error = np.abs(got.astype(np.float64) - want.astype(np.float64))
    bound = 2e-6 * np.abs(want.astype(np.float64)) + slack
    bad = np.flatnonzero(finite & ~(error <= bound))
    assert bad.size == 0, f"{label}: at {bad[:5]} got {got[bad[:5]]}, want {want[bad[:5]]}"
    same = (np.isnan(got) & np.isnan(want)) | (got == want)
    assert np.all(same[~finite]), label
    zeros = want == 0
    assert np.array_equal(np.signbit(got[zeros]), np.signbit(want[zeros])), label


@pytest.mark.parametrize("length", [1, 7, 33, 1000])
def test_functions_and_chains_against_the_interpreter(length: int, cache: Path) -> None:
    names = ["exp", "log", "tanh", "sigmoid", "erf"]
    params = [relay.var(f"x{i}", shape=(length,), dtype="float32") for i in range(3)]
    x, y, z = params
    outputs: list[relay.Expr] = [unary(name, x) for name in names]
    outputs.append(gelu(y))
    outputs.append(relay.log(relay.add(relay.exp(z), relay.sigmoid(relay.tanh(z)))))
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    inputs = [values(length, seed) for seed in range(3)]
    lib = xrelay.build(mod, options={"cache_dir": cache})
    model = lib.sources.files["model.c"]
    assert isinstance(model, str)
    for name in names:
        assert f"xv_{name}f(" in model, name
    assert "kernels_vmath.c" in lib.sources.files
    got = lib(*inputs)
    want = xrelay.evaluate(mod, *inputs)
    # the chain's log of a sum near 1: its argument's few ulps, as an absolute error
    scales: list[Array | None] = [None] * len(names) + [inputs[1], np.ones(length)]
    for label, g, w, scale in zip([*names, "gelu", "chain"], got, want, scales, strict=True):
        check(np.asarray(g), np.asarray(w), label, scale)


def test_multidimensional_and_broadcast_chain(cache: Path) -> None:
    x = relay.var("x", shape=(3, 5, 17), dtype="float32")
    b = relay.var("b", shape=(17,), dtype="float32")
    out = relay.sigmoid(relay.add(relay.tanh(x), relay.exp(b)))
    mod = IRModule.from_expr(relay.Function([x, b], out))
    inputs = [values(3 * 5 * 17, 4).reshape(3, 5, 17), values(17, 5, 2.0)]
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": True})
    check(np.asarray(lib(*inputs)), np.asarray(xrelay.evaluate(mod, *inputs)), "broadcast")


def test_float64_keeps_libm(cache: Path) -> None:
    x = relay.var("x", shape=(9,), dtype="float64")
    mod = IRModule.from_expr(relay.Function([x], relay.exp(relay.erf(x))))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    model = lib.sources.files["model.c"]
    assert isinstance(model, str)
    assert "xv_" not in model
    assert "kernels_vmath.c" not in lib.sources.files
    data = values(9, 6).astype(np.float64)
    np.testing.assert_array_equal(lib(data), xrelay.evaluate(mod, data))
