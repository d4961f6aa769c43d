"""accel's dense over many rows through the shared GEMM (`codegen/accel/dense_gemm.py`).

Built and run on `["accel", "c"]` at batch 1 (the blocked kernel's dot products), 7 and 64
(the GEMM, its constant weight packed once and row tiles split on two threads; a weight
computed at run time splits column ranges), with bias and
relu, clip (ReLU6), no bias, and relu then ReLU6 (the dense's relu, then accel's clip),
against the
interpreter within the 1e-4 rule (error within 1e-4 of the output's largest magnitude).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.accel_cases import accel_code

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Epilogue = Callable[[relay.Expr, relay.Expr], relay.Expr]

EPILOGUES: dict[str, Epilogue] = {
    "bias relu": lambda y, b: relay.nn.relu(relay.nn.bias_add(y, b)),
    "bias relu6": lambda y, b: relay.clip(relay.nn.bias_add(y, b), 0.0, 6.0),
    "no bias": lambda y, b: y,
    "relu then relu6": lambda y, b: relay.clip(relay.nn.relu(relay.nn.bias_add(y, b)), 0.0, 6.0),
}


def model(rows: int, depth: int, units: int, epilogue: Epilogue) -> tuple[IRModule, Array]:
    rng = np.random.default_rng(rows * 7 + units)
    x = relay.var("x", shape=(rows, depth), dtype="float32")
    w = relay.const((rng.standard_normal((units, depth)) / np.sqrt(depth)).astype("float32"))
    b = relay.const(rng.standard_normal(units).astype("float32"))
    mod = IRModule.from_expr(relay.Function([x], epilogue(relay.nn.dense(x, w), b)))
    return mod, (rng.standard_normal((rows, depth)) * 2).astype("float32")


def check(lib: Any, mod: IRModule, data: Array) -> None:
    want = np.asarray(xrelay.evaluate(mod, data)).astype(np.float64)
    for _ in range(2):  # the second run reads the weight packed by the first
        got = np.asarray(lib(data)).astype(np.float64)
        error = float(np.max(np.abs(got - want)))
        assert error <= 1e-4 * max(1.0, float(np.max(np.abs(want))))


@pytest.mark.parametrize("rows", [1, 7, 64])
@pytest.mark.parametrize("name", list(EPILOGUES))
def test_accel_dense_matches_the_interpreter(cache: Path, rows: int, name: str) -> None:
    mod, data = model(rows, 300, 45, EPILOGUES[name])
    options = {"cache_dir": cache, "num_threads": 1}
    lib = xrelay.build(mod, target=["accel", "c"], options=options)
    accel = accel_code(lib.sources)
    assert ("xg_sgemm_pp(" in accel) == (rows >= 3)
    check(lib, mod, data)


def test_accel_dense_splits_row_tiles_across_threads(cache: Path) -> None:
    mod, data = model(64, 784, 517, EPILOGUES["bias relu"])
    options = {"cache_dir": cache, "num_threads": 2}
    lib = xrelay.build(mod, target=["accel", "c"], options=options)
    accel = accel_code(lib.sources)
    # the weight packed once for both threads; one chunk of 6-row tiles (11) per thread
    assert "xg_sgemm_pp(r1 - r0, 517, 784" in accel
    assert "xn_parallel(xa_nt, 11, xa_nt, " in accel
    check(lib, mod, data)


def test_accel_dense_of_a_computed_weight_splits_columns(cache: Path) -> None:
    rng = np.random.default_rng(5)
    x = relay.var("x", shape=(64, 300), dtype="float32")
    w = relay.var("w", shape=(130, 300), dtype="float32")
    b = relay.const(rng.standard_normal(130).astype("float32"))
    body = relay.nn.relu(relay.nn.bias_add(relay.nn.dense(x, relay.abs(w)), b))
    mod = IRModule.from_expr(relay.Function([x, w], body))
    options = {"cache_dir": cache, "num_threads": 2}
    lib = xrelay.build(mod, target=["accel", "c"], options=options)
    accel = accel_code(lib.sources)
    assert "xg_sgemm_ep(64, q1 - q0, 300" in accel
    # one chunk of columns per thread: each GEMM call packs the rows and its columns
    assert "xn_parallel(xa_nt, 130, xa_nt, " in accel
    args = [rng.standard_normal(s).astype("float32") for s in ((64, 300), (130, 300))]
    want = np.asarray(xrelay.evaluate(mod, *args)).astype(np.float64)
    got = np.asarray(lib(*args)).astype(np.float64)
    assert float(np.max(np.abs(got - want))) <= 1e-4 * max(1.0, float(np.max(np.abs(want))))


@pytest.mark.parametrize("threads", [1, 2])
def test_denses_of_one_shape_share_the_routine_not_the_packed_weight(
    cache: Path, threads: int
) -> None:
    """Two 64 x 300 -> 300 denses with different constant weights: one routine, each call
    site's own packed buffer; the second must not read the first's packed weight."""
    rng = np.random.default_rng(12)
    x = relay.var("x", shape=(64, 300), dtype="float32")
    y: relay.Expr = x
    for _ in range(2):
        weight = (rng.standard_normal((300, 300)) / np.sqrt(300)).astype("float32")
        y = relay.nn.dense(y, relay.const(weight))
    mod = IRModule.from_expr(relay.Function([x], y))
    lib = xrelay.build(mod, ["accel", "c"], options={"cache_dir": cache, "num_threads": threads})
    files = lib.sources.files.items()
    generated = "".join(str(t) for n, t in files if n.startswith("kernels_generated"))
    calls = "".join(str(t) for n, t in files if n.startswith("accel"))
    assert generated.count("xg_sgemm_pp(") == 1  # one routine
    assert calls.count("static float xp_b[") == 2  # a buffer per call site
    check(lib, mod, rng.standard_normal((64, 300)).astype("float32"))
