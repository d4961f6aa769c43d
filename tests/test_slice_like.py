"""relay.slice_like: TVM's shape rule (all common axes, or `axes` with negative ones counting
from the end of data), values against naive loops, the verifier's errors, and target c
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
RNG = np.random.default_rng(18)


def run(x: Array, like_shape: tuple[int, ...], axes: Any = None) -> Array:
    xv = relay.var("x", shape=x.shape, dtype=str(x.dtype))
    lv = relay.var("like", shape=like_shape, dtype="int8")
    mod = IRModule.from_expr(relay.Function([xv, lv], relay.slice_like(xv, lv, axes)))
    return np.asarray(xrelay.evaluate(mod, x, np.zeros(like_shape, np.int8)))


def naive(x: Array, ends: tuple[int, ...]) -> Array:
    out = np.zeros(ends, x.dtype)
    for index in itertools.product(*(range(e) for e in ends)):
        out[index] = x[index]
    return out


@pytest.mark.parametrize(
    ("like", "axes", "ends"),
    [
        ((2, 3, 4), None, (2, 3, 4)),
        ((2, 3), None, (2, 3, 5)),  # shape_like of lower rank: its axes only
        ((1, 1, 1, 9), None, (1, 1, 1)),  # higher rank: data's axes only
        ((2, 1, 3), (2,), (3, 4, 3)),
        ((2, 1, 3), (-1, 0), (2, 4, 3)),  # -1 is data's last axis
        ((3, 4, 5), None, (3, 4, 5)),  # the whole data
        ((0, 4, 5), (0,), (0, 4, 5)),
    ],
)
def test_matches_naive_loops(
    like: tuple[int, ...], axes: tuple[int, ...] | None, ends: tuple[int, ...]
) -> None:
    x = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    got = run(x, like, axes)
    assert got.shape == ends
    np.testing.assert_array_equal(got, naive(x, ends))


@pytest.mark.parametrize(
    ("like", "axes", "message"),
    [
        ((2, 3), (), "axes cannot be empty"),
        ((2, 3), (3,), "axis 3 is out of range for data of rank 3"),
        ((2, 3), (-4,), "axis -4 is out of range for data of rank 3"),
        ((2, 3), (2,), "axis 2 exceeds the rank 2 of shape_like"),
        ((4, 3), None, "end index 4 of axis 0 exceeds the data's dim 3"),
    ],
)
def test_invalid(like: tuple[int, ...], axes: tuple[int, ...] | None, message: str) -> None:
    x = relay.var("x", shape=(3, 4, 5))
    with pytest.raises(RelayTypeError, match=message):
        relay.slice_like(x, relay.var("y", shape=like), axes)


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    cases: list[tuple[tuple[int, ...], tuple[int, ...], Any, str]] = [
        ((3, 4, 5), (2, 3), None, "float32"),
        ((3, 4, 5), (3, 1, 2), (-1, 1), "int64"),
        ((2, 6), (2, 6), None, "float64"),
        ((4, 1, 7), (0, 1, 7), (0,), "uint8"),
        ((5,), (3, 9), None, "float16"),
    ]
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for index, (shape, like, axes, dtype) in enumerate(cases):
        x = (RNG.standard_normal(shape) * 40).astype(dtype)
        xv = relay.var(f"x{index}", shape=shape, dtype=dtype)
        lv = relay.var(f"l{index}", shape=like, dtype="float32")
        params += [xv, lv]
        values += [x, np.ones(like, np.float32)]
        outputs.append(relay.slice_like(xv, lv, axes))
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
