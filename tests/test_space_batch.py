"""relay.nn.space_to_batch_nd / batch_to_space_nd: TVM's (TensorFlow's) semantics against
naive Python loops, the two as inverses, the verifier's errors, and target c against the
interpreter."""

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
RNG = np.random.default_rng(20)


def run(expr: relay.Expr, x: Array) -> Array:
    mod = IRModule.from_expr(relay.Function(relay.analysis.free_vars(expr), expr))
    return np.asarray(xrelay.evaluate(mod, x))


def naive_space_to_batch(x: Array, block: list[int], pads: list[list[int]], value: float) -> Array:
    n, h, w, c = x.shape
    (bh, bw), ((ph, _), (pw, _)) = block, pads
    oh, ow = (h + sum(pads[0])) // bh, (w + sum(pads[1])) // bw
    out = np.zeros((n * bh * bw, oh, ow, c), x.dtype)
    for b, i, j, k in itertools.product(range(n * bh * bw), range(oh), range(ow), range(c)):
        offset, batch = divmod(b, n)
        y, z = i * bh + offset // bw - ph, j * bw + offset % bw - pw
        out[b, i, j, k] = x[batch, y, z, k] if 0 <= y < h and 0 <= z < w else value
    return out


@pytest.mark.parametrize(
    ("block", "pads"),
    [([2, 2], [[2, 3], [2, 3]]), ([1, 3], [[0, 0], [1, 0]]), ([3, 2], [[1, 0], [0, 1]])],
)
def test_space_to_batch_matches_loops_and_batch_to_space_inverts(
    block: list[int], pads: list[list[int]]
) -> None:
    x = RNG.standard_normal((2, 5, 5, 3)).astype(np.float32)
    xv = relay.var("x", shape=x.shape)
    got = run(relay.nn.space_to_batch_nd(xv, block, pads, pad_value=7.0), x)
    np.testing.assert_array_equal(got, naive_space_to_batch(x, block, pads, 7.0))
    yv = relay.var("y", shape=got.shape)
    back = run(relay.nn.batch_to_space_nd(yv, block, pads), got)
    np.testing.assert_array_equal(back, x)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda x: relay.nn.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]), "not a multiple"),
        (lambda x: relay.nn.space_to_batch_nd(x, [2], [[1, 0], [0, 0]]), "must have 1 pairs"),
        (lambda x: relay.nn.space_to_batch_nd(x, [0], [[0, 0]]), "must be positive"),
        (lambda x: relay.nn.space_to_batch_nd(x, [1], [[-1, 1]]), "non-negative"),
        (lambda x: relay.nn.space_to_batch_nd(x, [1] * 4, [[0, 0]] * 4), "no 4 spatial dims"),
        (lambda x: relay.nn.batch_to_space_nd(x, [1], [[3, 3]]), "exceed axis 1"),
        (lambda x: relay.nn.batch_to_space_nd(x, [], []), "must not be empty"),
    ],
)
def test_invalid(make: Any, message: str) -> None:
    with pytest.raises(RelayTypeError, match=message):
        make(relay.var("x", shape=(2, 5, 5, 3)))


def test_batch_remainder_is_not_read() -> None:
    """TVM's integer division: a batch of 5 with blocks of 2 is 2 batches, entry 4 unread."""
    x = RNG.standard_normal((5, 2, 3)).astype(np.float32)
    got = run(relay.nn.batch_to_space_nd(relay.var("x", shape=x.shape), [2], [[0, 0]]), x)
    assert got.shape == (2, 4, 3)
    np.testing.assert_array_equal(got[:, 0::2], x[0:2])
    np.testing.assert_array_equal(got[:, 1::2], x[2:4])


def test_c_target_matches_the_interpreter(tmp_path: Path) -> None:
    x = (RNG.standard_normal((2, 5, 5, 3)) * 50).astype(np.int8)
    f = RNG.standard_normal((4, 3, 2)).astype(np.float32)
    xv, fv = relay.var("x", shape=x.shape, dtype="int8"), relay.var("f", shape=f.shape)
    s2b = relay.nn.space_to_batch_nd(xv, [2, 2], [[2, 3], [1, 2]], pad_value=-3)
    outputs = [
        s2b,
        relay.nn.batch_to_space_nd(s2b, [2, 2], [[0, 1], [1, 0]]),
        relay.nn.space_to_batch_nd(fv, [2], [[1, 0]], pad_value=0.5),
        relay.nn.batch_to_space_nd(fv, [2], [[1, 0]]),
        relay.nn.batch_to_space_nd(xv, [4], [[1, 2]]),
    ]
    mod = IRModule.from_expr(relay.Function([xv, fv], relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": tmp_path})
    got, want = lib(x, f), xrelay.evaluate(mod, x, f)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
