"""relay.stack and relay.repeat: values against naive loops, the shape rules' errors, and
target c against the interpreter."""

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


def evaluate(params: list[relay.Var], body: relay.Expr, *values: Array) -> Array:
    mod = IRModule.from_expr(relay.Function(params, body))
    return np.asarray(xrelay.evaluate(mod, *values))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack_matches_naive_loops(axis: int) -> None:
    xs = [RNG.standard_normal((2, 3)).astype(np.float32) for _ in range(3)]
    params = [relay.var(f"x{i}", shape=(2, 3)) for i in range(3)]
    got = evaluate(params, relay.stack(params, axis), *xs)
    at = axis + 3 if axis < 0 else axis
    want_shape = [2, 3]
    want_shape.insert(at, 3)
    want = np.zeros(want_shape, np.float32)
    for i, r, c in itertools.product(range(3), range(2), range(3)):
        index = [r, c]
        index.insert(at, i)
        want[tuple(index)] = xs[i][r, c]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("repeats", "axis"), [(1, 0), (3, 0), (2, 1), (2, -1), (4, -2)])
def test_repeat_matches_naive_loops(repeats: int, axis: int) -> None:
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = evaluate(
        [v := relay.var("x", shape=(2, 3), dtype="int32")], relay.repeat(v, repeats, axis), x
    )
    at = axis % 2
    rows: list[list[int]] = []
    if at == 0:
        for r in range(2):
            rows += [[int(x[r, c]) for c in range(3)]] * repeats
    else:
        for r in range(2):
            rows.append([int(x[r, c]) for c in range(3) for _ in range(repeats)])
    np.testing.assert_array_equal(got, np.array(rows, np.int32))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda x, y: relay.stack([x, y], 0), "differs from"),
        (lambda x, y: relay.stack([x, x], 3), "axis 3 is out of range"),
        (lambda x, y: relay.stack([], 0), "at least one tensor"),
        (lambda x, y: relay.repeat(x, 0, 0), "repeats must be at least 1"),
        (lambda x, y: relay.repeat(x, 2, 2), "axis 2 is out of range"),
    ],
)
def test_invalid(make: Any, message: str) -> None:
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(3, 2))
    with pytest.raises(RelayTypeError, match=message):
        make(x, y)


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for index, (shape, dtype) in enumerate(
        [((2, 3, 4), "float32"), ((5,), "int8"), ((3, 2), "float16")]
    ):
        x = relay.var(f"x{index}", shape=shape, dtype=dtype)
        y = relay.var(f"y{index}", shape=shape, dtype=dtype)
        params += [x, y]
        values += [(RNG.standard_normal(shape) * 40).astype(dtype) for _ in range(2)]
        rank = len(shape)
        outputs += [relay.stack([x, y, x], axis) for axis in (0, rank, -2)]
        outputs += [relay.repeat(y, 3, axis) for axis in (0, -1)]
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
