"""relay.topk, relay.argsort, relay.sort: the reference against naive loops and hand values,
type errors, and the C target against the interpreter."""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from tests.testlib.c_compare import check_c_against_interpreter
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def naive_order(row: list[Any], ascend: bool) -> list[int]:
    """Selection by comparisons: NaN above every number, ties in index order."""

    def key(i: int) -> tuple[int, float]:
        value = float(row[i])
        return (1, 0.0) if math.isnan(value) else (0, value)

    remaining = list(range(len(row)))
    out: list[int] = []
    while remaining:
        best = remaining[0]
        for i in remaining[1:]:
            better = key(i) < key(best) if ascend else key(i) > key(best)
            if better:  # strictly better only: the lower index wins a tie
                best = i
        out.append(best)
        remaining.remove(best)
    return out


def naive(x: Array, axis: int, ascend: bool, count: int) -> tuple[Array, Array]:
    """Values and int64 indices of the first `count` of each row along `axis`, by loops."""
    moved = np.moveaxis(x, axis, -1)
    values = np.zeros((*moved.shape[:-1], count), x.dtype)
    indices = np.zeros((*moved.shape[:-1], count), np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        row = list(moved[position])
        order = naive_order(row, ascend)[:count]
        indices[position] = order
        values[position] = [row[i] for i in order]
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


def evaluate(build: Any, x: Array) -> Any:
    v = relay.var("x", shape=x.shape, dtype=str(x.dtype))
    return xrelay.evaluate(IRModule.from_expr(relay.Function([v], build(v))), x)


def edgy(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> Array:
    """Few distinct values (many ties); floats with NaN, ±inf and both zeros mixed in."""
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 4, shape).astype(dtype)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0, 1.5], dtype)
    return rng.choice(pool, shape)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "uint8", "bool"])
@pytest.mark.parametrize("ascend", [False, True])
def test_reference_matches_naive_loops(dtype: str, ascend: bool) -> None:
    rng = np.random.default_rng(0)
    for shape, axis, k in [((7,), 0, 3), ((3, 6), -1, 6), ((4, 5, 3), 1, 2), ((2, 3, 4), 0, 0)]:
        x = edgy(rng, shape, dtype)
        count = x.shape[axis] if k < 1 else k
        want_values, want_indices = naive(x, axis, ascend, count)
        values, indices = evaluate(
            functools.partial(relay.topk, k=k, axis=axis, is_ascend=ascend), x
        )
        assert indices.dtype == np.int32
        np.testing.assert_array_equal(indices, want_indices)
        np.testing.assert_array_equal(values, want_values)
        full_values, full_indices = naive(x, axis, ascend, x.shape[axis])
        got = evaluate(
            functools.partial(relay.argsort, axis=axis, is_ascend=ascend, dtype="int64"), x
        )
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, full_indices)
        np.testing.assert_array_equal(
            evaluate(functools.partial(relay.sort, axis=axis, is_ascend=ascend), x), full_values
        )


def test_hand_values() -> None:
    x = np.array([2.0, np.nan, -0.0, 2.0, np.inf, 0.0], "float32")
    values, indices = evaluate(lambda v: relay.topk(v, 4), x)
    np.testing.assert_array_equal(indices, [1, 4, 0, 3])
    np.testing.assert_array_equal(values, [np.nan, np.inf, 2.0, 2.0])
    got = evaluate(lambda v: relay.topk(v, 3, is_ascend=True, ret_type="indices"), x)
    np.testing.assert_array_equal(got, [2, 5, 0])  # -0.0 == 0.0: index order
    got = evaluate(lambda v: relay.topk(v, 2, ret_type="values"), x)
    np.testing.assert_array_equal(got, [np.nan, np.inf])
    np.testing.assert_array_equal(evaluate(relay.argsort, x), [2, 5, 0, 3, 4, 1])
    np.testing.assert_array_equal(
        evaluate(lambda v: relay.argsort(v, is_ascend=False), x), [1, 4, 0, 3, 2, 5]
    )
    sorted_x = evaluate(relay.sort, x)
    np.testing.assert_array_equal(np.signbit(sorted_x[:2]), [True, False])


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda v: relay.topk(v, 9), "k 9 is larger than dim 5 of axis 1"),
        (
            lambda v: relay.topk(v, 1, ret_type="all"),
            "ret_type must be one of both, values, indices",
        ),
        (
            lambda v: relay.topk(v, 1, dtype="bool"),
            "dtype must be an integer or float type, got i1",
        ),
        (lambda v: relay.argsort(v, axis=2), "axis 2 is out of range"),
        (lambda v: relay.sort(relay.sum(v)), "cannot sort a rank-0 tensor"),
    ],
)
def test_type_errors(build: Any, message: str) -> None:
    v = relay.var("x", shape=(4, 5))
    with pytest.raises(relay.RelayTypeError, match=message):
        build(v)


@pytest.mark.parametrize("dtype", ["float32", "int64", "float16", "bool"])
def test_c_target_matches_the_interpreter(dtype: str, cache: Path) -> None:
    rng = np.random.default_rng(1)
    x = edgy(rng, (3, 5, 4), dtype)
    v = relay.var("x", shape=x.shape, dtype=dtype)
    outputs = [
        relay.topk(v, 2, axis=1).astuple(),
        relay.topk(v, 0, axis=-1, is_ascend=True, dtype="int64").astuple(),
        relay.topk(v, 3, axis=0, ret_type="values"),
        relay.topk(v, 1, axis=2, ret_type="indices", dtype="uint8"),
        relay.argsort(v, axis=1),
        relay.argsort(v, axis=0, is_ascend=False, dtype="int64"),
        relay.sort(v),
        relay.sort(v, axis=1, is_ascend=False),
    ]
    mod = IRModule.from_expr(relay.Function([v], relay.Tuple(outputs)))
    check_c_against_interpreter(mod, [x], cache)


def test_c_target_on_an_empty_axis(cache: Path) -> None:
    x = np.zeros((2, 0), "float32")
    v = relay.var("x", shape=x.shape)
    outputs = [relay.topk(v, 0).astuple(), relay.argsort(v), relay.sort(v, axis=0)]
    mod = IRModule.from_expr(relay.Function([v], relay.Tuple(outputs)))
    check_c_against_interpreter(mod, [x], cache)
