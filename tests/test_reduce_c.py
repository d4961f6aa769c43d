"""Float32 reductions on "c": the shared kernel (`codegen/kernels/reduce.py`) against the
interpreter (float64 sums rounded once).

Every reduction the kernel takes (`sum mean prod max min`) over axes that are
adjacent (the last, the first, the middle, several, all, with unit dims
between, `keepdims`, `exclude`), on rows of 1, odd lengths and lengths past
one vector and one chunk, NaN, ±inf and empty axes; and a case the kernel does
not take (kept axis between reduced ones) through the old loops. Sums and
products are in double, so every result is within one float32 rounding of the
float64 value (numpy on the float64 data, computed here); the interpreter, which
sums float32 in float32 pairwise (numpy's `dtype=x.dtype`), agrees within 1e-5
of the output's magnitude.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]

OPS = ["sum", "mean", "prod", "max", "min"]
CASES: list[tuple[tuple[int, ...], Any, bool, bool]] = [
    # shape, axis, keepdims, exclude
    ((1,), None, False, False),
    ((7,), 0, True, False),
    ((3, 1000), -1, False, False),
    ((3, 33), 0, False, False),
    ((2, 5, 600), 1, False, False),
    ((2, 3, 4, 5), (2, 3), True, False),
    ((2, 1, 3, 1, 7), (1, 2, 4), False, False),
    ((4, 6, 9), (0,), False, True),
    ((3, 0, 4), 1, False, False),
    ((3, 4, 5), (0, 2), False, False),
]


def data(shape: Sequence[int], seed: int, specials: bool) -> Array:
    rng = np.random.default_rng(seed)
    out = rng.uniform(0.5, 1.5, shape).astype(np.float32)  # products stay in range
    out *= rng.choice(np.float32([-1, 1]), shape)
    flat = out.reshape(-1)
    if specials and flat.size > 40:
        flat[3], flat[17], flat[29] = np.nan, np.inf, -np.inf
    return out


@pytest.mark.parametrize("specials", [False, True], ids=["finite", "special"])
def test_reductions_against_the_interpreter(specials: bool, cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    labels: list[str] = []
    for number, (shape, axis, keepdims, exclude) in enumerate(CASES):
        x = relay.var(f"x{number}", shape=shape, dtype="float32")
        params.append(x)
        values.append(data(shape, number, specials))
        for op in OPS:
            fn: Any = getattr(relay, op)
            outputs.append(fn(x, axis=axis, keepdims=keepdims, exclude=exclude))
            labels.append(f"{op} {shape} axis={axis} keepdims={keepdims} exclude={exclude}")
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    source = lib.sources.files.get("model.c")
    assert isinstance(source, str)
    assert source.count("xs_reduce_f32(") == 5 * (len(CASES) - 1)  # not the last case
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    exact = [
        reference(op, values[number], axis, keepdims, exclude)
        for number, (_, axis, keepdims, exclude) in enumerate(CASES)
        for op in OPS
    ]
    for label, g, w, e in zip(labels, got, want, exact, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype, label
        assert g.shape == w.shape, label
        np.testing.assert_allclose(g, e, rtol=2**-24, atol=0, equal_nan=True, err_msg=label)
        top = float(np.max(np.abs(w[np.isfinite(w)]), initial=0.0))
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * top, equal_nan=True, err_msg=label)


def reference(op: str, x: Array, axis: Any, keepdims: bool, exclude: bool) -> Array:
    """The float64 value of `op`, rounded once to float32."""
    every = range(x.ndim)
    given = every if axis is None else [a % x.ndim for a in np.atleast_1d(axis)]
    axes = tuple(a for a in every if (a in given) != exclude)
    wide = x.astype(np.float64)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the mean of an empty axis: NaN
        if op in ("max", "min"):
            pick = np.max if op == "max" else np.min
            start = -np.inf if op == "max" else np.inf
            value = pick(wide, axis=axes, keepdims=keepdims, initial=start)
        else:
            fn: Any = getattr(np, op)
            value = fn(wide, axis=axes, keepdims=keepdims)
        return np.asarray(value).astype(np.float32)
