"""Float32 `nn.lrn` on the host: the shared library's row kernel (`codegen/kernels/lrn.py`)
against the interpreter, on rows that cross its chunks, every `beta` path, and 1 and 2
threads (`num_threads`; shapes big enough that the kernel splits its rows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]

CASES = [
    # shape, size, axis, bias, alpha, beta
    ((1, 24, 29, 31), 5, 1, 1.0, 1e-4, 0.75),  # 899 positions: a chunk and a tail
    ((2, 7, 23, 25), 4, 1, 2.0, 0.3, 0.5),  # even size: one more channel after
    ((1, 9, 700), 3, 1, 1.5, 0.7, 1.0),
    ((3, 1000, 11), 5, 2, 1.0, 0.5, 0.6),  # beta through pow; the axis is the last
    ((1, 33, 45, 50), 7, 1, 1.0, 2e-5, 0.75),  # 66k positions: both threads at work
]


def module(
    shape: tuple[int, ...], size: int, axis: int, bias: float, alpha: float, beta: float
) -> IRModule:
    x = relay.var("x", shape=shape)
    out = relay.nn.lrn(x, size, axis, bias=bias, alpha=alpha, beta=beta)
    return IRModule.from_expr(relay.Function([x], out))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", CASES, ids=[str(c[0]) for c in CASES])
def test_lrn_rows_match_the_interpreter(
    case: tuple[Any, ...], threads: int, tmp_path: Path
) -> None:
    shape, size, axis, bias, alpha, beta = case
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32) * 3
    mod = module(shape, size, axis, bias, alpha, beta)
    lib = xrelay.build(mod, options={"cache_dir": tmp_path, "num_threads": threads})
    assert "xn_lrn_f32(XR_NUM_THREADS," in str(lib.sources.files["model.c"])
    assert f"#define XR_NUM_THREADS {threads}\n" in str(lib.sources.files["model.h"])
    got = np.asarray(lib(x))
    want = np.asarray(xrelay.evaluate(mod, x))  # float64 inside, rounded once
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_lrn_special_values_keep_the_interpreters_rules(tmp_path: Path) -> None:
    x = np.random.default_rng(4).standard_normal((1, 6, 9, 70)).astype(np.float32)
    x[0, 2, 3, 5] = np.nan
    x[0, 4, 1, 1] = np.inf
    x[0, 0, 0, 0:3] = [-np.inf, -0.0, 3.0e38]
    for beta in (0.75, 0.5, 1.0, 0.6):
        mod = module(x.shape, 3, 1, 1.0, 0.5, beta)
        lib = xrelay.build(mod, options={"cache_dir": tmp_path, "num_threads": 2})
        got = np.asarray(lib(x))
        want = np.asarray(xrelay.evaluate(mod, x), np.float32)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-30, equal_nan=True)
