"""relay.sparse_to_dense: TVM's examples, the scatter rule for negative, out-of-range and
repeated indices (against a naive loop), the default converted as cast does, and target c
against the interpreter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def module(indices: Array, values: Array, default: Array, shape: list[int]) -> IRModule:
    i = relay.var("i", shape=indices.shape, dtype=str(indices.dtype))
    v = relay.var("v", shape=values.shape, dtype=str(values.dtype))
    d = relay.var("d", shape=(), dtype=str(default.dtype))
    return IRModule.from_expr(relay.Function([i, v, d], relay.sparse_to_dense(i, shape, v, d)))


def run(indices: Array, values: Array, default: Array, shape: list[int]) -> Array:
    mod = module(indices, values, default, shape)
    return np.asarray(xrelay.evaluate(mod, indices, values, default))


def naive(indices: Array, values: Array, default: Array, shape: list[int]) -> Array:
    out = [default.item()] * int(np.prod(shape))
    rows = indices.reshape(-1, 1).tolist() if indices.ndim < 2 else indices.tolist()
    for n, row in enumerate(rows):
        flat, ok = 0, True
        for q, size in zip(row, shape, strict=True):
            q = q + size if q < 0 else q
            ok = ok and 0 <= q < size
            flat = flat * size + q
        if ok:
            out[flat] = (values if values.ndim == 0 else values[n]).item()
    return np.array(out, values.dtype).reshape(shape)


def test_tvm_examples() -> None:
    got = run(np.array([[0, 0], [1, 1]]), np.array([3, 3]), np.array(0), [2, 2])
    np.testing.assert_array_equal(got, [[3, 0], [0, 3]])
    got = run(np.array(1), np.array(3), np.array(0), [5])
    np.testing.assert_array_equal(got, [0, 3, 0, 0, 0])
    got = run(np.array([0, 1, 4]), np.array([3.1, 3.1, 3.1]), np.array(3.5), [5])
    np.testing.assert_array_equal(got, [3.1, 3.1, 3.5, 3.5, 3.1])


def test_default_value_is_int32_zero_converted() -> None:
    i, v = relay.var("i", shape=(2,), dtype="int64"), relay.var("v", shape=(2,), dtype="int8")
    mod = IRModule.from_expr(relay.Function([i, v], relay.sparse_to_dense(i, [3], v)))
    got = xrelay.evaluate(mod, np.array([2, 0]), np.array([5, 6], "int8"))
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, [6, 0, 5])
    got = run(np.array([0]), np.array([1], "int32"), np.array(np.nan, "float32"), [2])
    np.testing.assert_array_equal(got, [1, 0])  # NaN converts to 0, as cast does


@pytest.mark.parametrize("seed", range(4))
def test_scatter_rule_against_a_naive_loop(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = [int(d) for d in rng.integers(1, 4, size=2)]
    indices = rng.integers(-5, 5, size=(6, 2)).astype("int32")  # repeats, negatives, outside
    values = rng.standard_normal(6).astype("float32")
    default = np.array(rng.standard_normal(), "float32")
    np.testing.assert_array_equal(
        run(indices, values, default, shape), naive(indices, values, default, shape)
    )


def test_c_target_matches_the_interpreter(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    indices = rng.integers(-4, 5, size=(7, 2)).astype("int64")
    values = rng.integers(-9, 9, size=7).astype("int32")
    default = np.array(2.75, "float64")
    mod = module(indices, values, default, [3, 4])
    lib = xrelay.build(mod, target="c", options={"cache_dir": tmp_path})
    want = xrelay.evaluate(mod, indices, values, default)
    np.testing.assert_array_equal(lib(indices, values, default), want)
    np.testing.assert_array_equal(want, naive(indices, values, np.array(2, "int32"), [3, 4]))
