"""TVM's `*_like` ops and `collapse_sum_to`: shape rules (reshape_like's lhs/rhs ranges,
negative bounds), values against naive Python loops, the verifier's errors, and target c
against the interpreter."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.relay.base import RelayTypeError

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(19)


def run(expr: relay.Expr, *values: Array) -> Array:
    mod = IRModule.from_expr(relay.Function(relay.analysis.free_vars(expr), expr))
    return np.asarray(xrelay.evaluate(mod, *values))


def naive_collapse_sum(x: Array, target: tuple[int, ...]) -> Array:
    out = np.zeros(target, np.float64)
    lead = x.ndim - len(target)
    for index in itertools.product(*(range(d) for d in x.shape)):
        at = tuple(0 if t == 1 else i for i, t in zip(index[lead:], target, strict=True))
        out[at] += x[index]
    return out


@pytest.mark.parametrize(
    ("kwargs", "shape"),
    [
        ({}, (6, 2, 2)),
        ({"lhs_begin": 2, "rhs_begin": 1}, (2, 3, 2, 2)),
        ({"lhs_begin": 1, "rhs_end": 2}, (2, 6, 2)),
        ({"lhs_end": -1, "rhs_begin": -2, "rhs_end": -1}, (6, 4)),
    ],
)
def test_reshape_like_ranges(kwargs: dict[str, int], shape: tuple[int, ...]) -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    like = np.zeros((6, 2, 2), np.float32) if "rhs_end" not in kwargs else np.zeros((6, 2))
    xv = relay.var("x", shape=(2, 3, 4))
    lv = relay.var("l", shape=like.shape, dtype=str(like.dtype))
    got = run(relay.reshape_like(xv, lv, **kwargs), x, like)
    assert got.shape == shape
    np.testing.assert_array_equal(got.reshape(-1), x.reshape(-1))


def test_cast_like_takes_the_dtype_not_the_shape() -> None:
    x = np.array([[1.7, -2.5, 300.0]], np.float32)
    got = run(
        relay.cast_like(relay.var("x", shape=(1, 3)), relay.var("l", shape=(5,), dtype="uint8")),
        x,
        np.zeros(5, np.uint8),
    )
    assert (got.dtype, got.shape) == (np.uint8, (1, 3))
    assert got.tolist() == [[1, 0, 255]]  # truncates, saturates (docs/semantics.md)


def test_broadcast_to_like_and_collapse_sums_match_naive_loops() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    b = RNG.standard_normal((3, 1)).astype(np.float32)
    xv, bv = relay.var("x", shape=(2, 3, 4)), relay.var("b", shape=(3, 1))
    got = run(relay.broadcast_to_like(bv, xv), b, x)
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert got[i, j, k] == b[j, 0]
    for target in [(3, 1), (4,), (1, 3, 4), (2, 1, 1), ()]:
        want = naive_collapse_sum(x, target)
        lv = relay.var("l", shape=target)
        like = run(relay.collapse_sum_like(xv, lv), x, np.zeros(target, np.float32))
        to = run(relay.collapse_sum_to(xv, target), x)
        np.testing.assert_allclose(like, want, rtol=1e-5)
        np.testing.assert_allclose(to, want, rtol=1e-5)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda x: relay.reshape_like(x, relay.var("l", shape=(5, 5))), "cannot reshape"),
        (lambda x: relay.reshape_like(x, x, lhs_begin=4), "lhs_begin 4 is out of range"),
        (lambda x: relay.reshape_like(x, x, rhs_end=-4), "rhs_end -4 is out of range"),
        (lambda x: relay.reshape_like(x, x, lhs_begin=2, lhs_end=1), "empty ranges"),
        (lambda x: relay.broadcast_to_like(x, relay.var("l", shape=(3, 3))), "cannot broadcast"),
        (
            lambda x: relay.broadcast_to_like(x, relay.var("l", shape=(2, 3, 4), dtype="int32")),
            "must have the same dtype",
        ),
        (lambda x: relay.collapse_sum_like(x, relay.var("l", shape=(5,))), "cannot collapse"),
        (lambda x: relay.collapse_sum_to(x, (1, 2, 3, 4)), "higher-rank"),
        (lambda x: relay.collapse_sum_to(x, (-1,)), "non-negative"),
    ],
)
def test_invalid(make: Any, message: str) -> None:
    with pytest.raises(RelayTypeError, match=message):
        make(relay.var("x", shape=(2, 3, 4)))


def test_c_target_matches_the_interpreter(tmp_path: Path) -> None:
    dtypes = ["float32", "int8", "float16", "bool"]
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for n, dtype in enumerate(dtypes):
        x = relay.var(f"x{n}", shape=(2, 3, 4), dtype=dtype)
        small = relay.var(f"s{n}", shape=(3, 1), dtype=dtype)
        like = relay.var(f"l{n}", shape=(4, 6), dtype="int32")
        params += [x, small, like]
        values += [
            (RNG.standard_normal((2, 3, 4)) * 60).astype(dtype),
            (RNG.standard_normal((3, 1)) * 60).astype(dtype),
            np.zeros((4, 6), np.int32),
        ]
        outputs += [
            relay.reshape_like(x, like),
            relay.cast_like(x, like),
            relay.broadcast_to_like(small, x),
            relay.collapse_sum_like(x, small),
            relay.collapse_sum_to(x, (2, 1, 4)),
        ]
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": tmp_path})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_allclose(
            g.astype(np.float64), w.astype(np.float64), rtol=2e-3, err_msg=f"case {index}"
        )
