"""The vectorized float32 math of the shared kernel library (`codegen/kernels/vmath.py`).

Each function's array routine runs over every 1009th float32 bit pattern of
both signs (all exponents, subnormals included) and the special values; its
error against float64 numpy (`math.erf` for erf), in units in the last place
of the correctly rounded float32 result, must stay within the documented
`MAX_ULP`. Results that overflow float32 must be exactly ±inf; NaN, ±inf and
-0.0 follow numpy. The unit is compiled with the library's flags, and once
more without fused multiply-adds (`-ffp-contract=off`, a machine without FMA), both
for this machine's ISA (`-march=native`, as a default build).
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.codegen.build import compile_library
from xrelay.codegen.kernels import CFLAGS
from xrelay.codegen.kernels.vmath import MAX_ULP, standalone

Array = np.ndarray[Any, Any]

SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32)


def _erf(x: Array) -> Array:
    return np.frompyfunc(math.erf, 1, 1)(x).astype(np.float64)


REFERENCES: dict[str, Callable[[Array], Array]] = {
    "exp": np.exp,
    "log": np.log,
    "tanh": np.tanh,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "erf": _erf,
}


@pytest.fixture(scope="module", params=[(), ("-ffp-contract=off",)], ids=["fma", "no-fma"])
def library(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    flags: tuple[str, ...] = request.param
    path = compile_library(
        {"vm.c": standalone()},
        name="vmath",
        unit_cflags={"vm.c": ["-march=native", *CFLAGS, *flags]},
        cache_dir=tmp_path_factory.mktemp("vmath"),
    )
    return ctypes.CDLL(str(path))


def _sweep() -> Array:
    x = np.arange(0, 2**32, 1009, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([x[np.isfinite(x)], SPECIALS])


def run(library: Any, name: str, x: Array) -> Array:
    x = np.ascontiguousarray(x, dtype=np.float32)
    y = np.empty_like(x)
    routine = getattr(library, f"xv_{name}_f32")
    routine(ctypes.c_int64(x.size), ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(y.ctypes.data))
    return y


def ulp_errors(got: Array, want: Array) -> Array:
    """|got - want| in ulps of `want` rounded to float32 (at least the smallest normal's);
    0 where both are the same non-finite value, inf for any other non-finite mismatch."""
    with np.errstate(over="ignore"):
        rounded = want.astype(np.float32)
    finite = np.isfinite(rounded) & np.isfinite(want)
    spacing = np.spacing(np.maximum(np.abs(rounded), np.finfo(np.float32).tiny))
    g = got.astype(np.float64)
    with np.errstate(invalid="ignore"):
        error = np.abs(g - want) / np.where(finite, spacing.astype(np.float64), 1.0)
    same = (np.isnan(rounded) & np.isnan(got)) | (rounded == got)
    return np.where(finite, error, np.where(same, 0.0, np.inf))


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_maximum_error(library: Any, name: str) -> None:
    x = _sweep()
    with np.errstate(all="ignore"):
        want = REFERENCES[name](x.astype(np.float64))
    errors = ulp_errors(run(library, name, x), want)
    worst = int(np.argmax(errors))
    assert errors[worst] <= MAX_ULP[name], f"{name}({x[worst]!r}): {errors[worst]} ulp"


def test_special_values(library: Any) -> None:
    x = SPECIALS
    inf, nan = np.inf, np.nan
    expected = {
        "exp": [1, 1, inf, 0, nan],
        "log": [-inf, -inf, inf, nan, nan],
        "tanh": [0, -0.0, 1, -1, nan],
        "sigmoid": [0.5, 0.5, 1, 0, nan],
        "erf": [0, -0.0, 1, -1, nan],
        "gelu_erf": [0, -0.0, inf, nan, nan],
    }
    for name, values in expected.items():
        got = run(library, name, x)
        want = np.array(values, dtype=np.float32)
        np.testing.assert_array_equal(got, want, err_msg=name)
        assert list(np.signbit(got[:2])) == list(np.signbit(want[:2])), name


def test_overflow_and_underflow(library: Any) -> None:
    big = np.array([88.72, 88.73, 89.5, 100.0, 1e30], dtype=np.float32)
    assert list(run(library, "exp", big)[1:]) == [np.inf] * 4
    assert np.isfinite(run(library, "exp", big)[0])
    tiny = np.array([-87.0, -100.0, -103.0, -103.9, -104.0, -200.0], dtype=np.float32)
    want = np.exp(tiny.astype(np.float64))
    assert np.all(ulp_errors(run(library, "exp", tiny), want) <= MAX_ULP["exp"])
    assert run(library, "exp", tiny)[-1] == 0.0
    low = np.array([-20.0, -50.0, -88.0, -100.0, -104.0], dtype=np.float32)
    want = 1.0 / (1.0 + np.exp(-low.astype(np.float64)))
    assert np.all(ulp_errors(run(library, "sigmoid", low), want) <= MAX_ULP["sigmoid"])


def test_gelu_erf(library: Any) -> None:
    """`x * 0.5 * (1 + erf(x / sqrt 2))`: within 4 ulps of the larger of the result and x
    (for negative x the sum `1 + erf` cancels: erf's few ulps of 1 remain, times x)."""
    x = np.linspace(-12.0, 12.0, 100_001, dtype=np.float32)
    x64 = x.astype(np.float64)
    want = x64 * 0.5 * (1.0 + _erf(x64 / math.sqrt(2.0)))
    got = run(library, "gelu_erf", x).astype(np.float64)
    bound = 4 * 2.0**-24 * np.maximum(np.abs(want), np.abs(x64))
    worst = int(np.argmax(np.abs(got - want) - bound))
    assert abs(got[worst] - want[worst]) <= bound[worst], f"gelu_erf({x[worst]!r})"


def test_documented_in_semantics() -> None:
    text = (Path(__file__).parent.parent / "docs" / "semantics.md").read_text()
    for name, bound in MAX_ULP.items():
        assert f"`{name}` {bound:g} ulp" in text, name
