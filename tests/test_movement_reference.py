"""Reference semantics of the ops added for the ONNX frontend (`movement`, `indexing`, `scan`).

Expected values are hand-computed or built with naive Python loops over indices, never
with the numpy call the reference interpreter itself uses.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.interpreter import EvaluationError

import xrelay
from xrelay import IRModule, relay
from xrelay.transform import FoldConstant

Build = Callable[..., relay.Expr]
Array = np.ndarray[Any, Any]


def run(build: Build, *inputs: Array) -> Any:
    params = [relay.var(f"p{k}", shape=a.shape, dtype=a.dtype.name) for k, a in enumerate(inputs)]
    mod = IRModule.from_expr(relay.Function(params, build(*params)))
    return xrelay.evaluate(mod, *inputs)


def numbered(*shape: int, dtype: str = "float32") -> Array:
    return np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)


def cells(shape: Sequence[int]) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(d) for d in shape)))


# ---------------------------------------------------------------- movement


def test_broadcast_to_follows_the_broadcasting_rule() -> None:
    x = numbered(3, 1)
    out = run(lambda d: relay.broadcast_to(d, (2, 3, 4)), x)
    assert out.shape == (2, 3, 4)
    for a, b, c in cells(out.shape):
        assert out[a, b, c] == x[b, 0]
    with pytest.raises(relay.RelayTypeError, match="cannot broadcast"):
        run(lambda d: relay.broadcast_to(d, (2, 4)), numbered(3))


def test_tile_repeats_with_padded_ranks() -> None:
    x = numbered(2, 3)
    out = run(lambda d: relay.tile(d, (2, 1, 2)), x)
    assert out.shape == (2, 2, 6)
    for a, b, c in cells(out.shape):
        assert out[a, b, c] == x[b % 2, c % 3]
    assert run(lambda d: relay.tile(d, (3,)), numbered(2)).tolist() == [0, 1, 0, 1, 0, 1]
    assert run(lambda d: relay.tile(d, (0, 1)), x).shape == (0, 3)


def test_reverse_and_trilu() -> None:
    x = numbered(2, 3, 4)
    out = run(lambda d: relay.reverse(d, -2), x)
    for a, b, c in cells(x.shape):
        assert out[a, b, c] == x[a, 2 - b, c]
    for k, upper in itertools.product((-1, 0, 2), (True, False)):
        out = run(lambda d, k=k, upper=upper: relay.trilu(d, k, upper), x)
        for a, i, j in cells(x.shape):
            keep = j - i >= k if upper else j - i <= k
            assert out[a, i, j] == (x[a, i, j] if keep else 0)
    assert run(lambda d: relay.trilu(d, relay.const(1)), numbered(2, 2)).tolist() == [
        [0, 1],
        [0, 0],
    ]


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_depth_to_space_and_back(layout: str) -> None:
    b, c = 2, 3
    x = numbered(2, c * b * b, 2, 3)  # NCHW values
    data = x if layout == "NCHW" else x.transpose(0, 2, 3, 1).copy()
    for mode in ("DCR", "CRD"):
        out = run(lambda d, mode=mode: relay.nn.depth_to_space(d, b, layout, mode), data)
        got = out if layout == "NCHW" else out.transpose(0, 3, 1, 2)
        assert got.shape == (2, c, 4, 6)
        for n, ch, h, w in cells(got.shape):
            i, j = h % b, w % b
            src = (i * b + j) * c + ch if mode == "DCR" else ch * b * b + i * b + j
            assert got[n, ch, h, w] == x[n, src, h // b, w // b]
    back = run(
        lambda d: relay.nn.space_to_depth(relay.nn.depth_to_space(d, b, layout), b, layout), data
    )
    np.testing.assert_array_equal(back, data)


# ---------------------------------------------------------------- indexing


def test_gather_indices_wrap_once_then_clamp() -> None:
    x = numbered(3, 4)
    idx = np.array([[0, -1, 3], [-4, 9, -9], [1, 2, 2]], "int64")
    out = run(lambda d, i: relay.gather(d, 1, i), x, idx)
    for r, c in cells(idx.shape):
        q = idx[r, c] + 4 if idx[r, c] < 0 else idx[r, c]
        assert out[r, c] == x[r, min(max(q, 0), 3)]
    out0 = run(lambda d, i: relay.gather(d, 0, i), x, np.array([[2, 0], [1, -1]], "int32"))
    assert out0.tolist() == [[8, 1], [4, 9]]


def test_gather_nd_takes_the_index_tuple_on_the_first_axis() -> None:
    x = numbered(2, 3, 4)
    idx = np.array([[1, 0, -1], [2, 0, 7]], "int32")  # three tuples (row, col)
    out = run(lambda d, i: relay.gather_nd(d, i), x, idx)
    assert out.shape == (3, 4)
    assert out.tolist() == [x[1, 2].tolist(), x[0, 0].tolist(), x[1, 2].tolist()]
    batched = np.array([[[2, 0], [1, 1]]], "int32")  # M = 1, batch 2, two per batch
    out = run(lambda d, i: relay.gather_nd(d, i, batch_dims=1), x, batched)
    assert out.shape == (2, 2, 4)
    for bt, y in cells((2, 2)):
        assert out[bt, y].tolist() == x[bt, batched[0, bt, y]].tolist()


@pytest.mark.parametrize("reduction", ["update", "add", "mul", "min", "max"])
def test_scatter_elements_in_row_major_order(reduction: str) -> None:
    x = numbered(3, 4, dtype="int32") - 5
    idx = np.array([[1, 1, -1], [0, 7, 2], [3, -5, 0]], "int64")
    upd = np.array([[10, -3, 4], [2, 9, -8], [6, 5, 1]], "int32")
    out = run(lambda d, i, u: relay.scatter_elements(d, i, u, 1, reduction), x, idx, upd)
    want = x.copy()
    ops = {"update": lambda a, b: b, "add": lambda a, b: a + b, "mul": lambda a, b: a * b}
    ops |= {"min": min, "max": max}
    for r, c in cells(idx.shape):
        q = idx[r, c] + 4 if idx[r, c] < 0 else idx[r, c]
        if 0 <= q < 4:
            want[r, q] = ops[reduction](int(want[r, q]), int(upd[r, c]))
    assert out.tolist() == want.tolist()


def test_scatter_nd_modes_and_dropped_updates() -> None:
    x = numbered(3, 2)
    idx = np.array([[0, 2, -1, 5]], "int64")
    upd = np.array([[1, 1], [2, 2], [3, 3], [4, 4]], "float32")
    out = run(lambda d, i, u: relay.scatter_nd(d, i, u), x, idx, upd)
    assert out.tolist() == [[1, 1], [2, 3], [3, 3]]  # row 2 twice: the later wins; 5 dropped
    out = run(lambda d, i, u: relay.scatter_nd(d, i, u, "add"), x, idx, upd)
    assert out.tolist() == [[1, 2], [2, 3], [9, 10]]
    full = np.array([[0, 2], [1, 0]], "int32")  # two whole index tuples
    out = run(
        lambda d, i, u: relay.scatter_nd(d, i, u, "max"), x, full, np.array([9, -9], "float32")
    )
    assert out.tolist() == [[0, 9], [2, 3], [4, 5]]


def test_scatter_min_max_propagate_nan() -> None:
    x = np.array([1.0, np.nan, 3.0], "float32")
    idx = np.array([0, 1, 2], "int32")
    upd = np.array([np.nan, 0.0, 2.0], "float32")
    out = run(lambda d, i, u: relay.scatter_elements(d, i, u, 0, "min"), x, idx, upd)
    assert np.isnan(out[:2]).all()
    assert out[2] == 2.0


def test_one_hot_axes_and_out_of_range() -> None:
    idx = np.array([[0, 2], [-1, 3]], "int32")
    for axis in (-1, 0, 1):
        out = run(
            lambda i, axis=axis: relay.one_hot(
                i, relay.const(5, "int64"), relay.const(-1, "int64"), 3, axis, "int64"
            ),
            idx,
        )
        where = axis % 3
        for a, b, c in cells(out.shape):
            pos = [a, b, c]
            hot = pos.pop(where)
            assert out[a, b, c] == (5 if idx[pos[0], pos[1]] == hot else -1)


# ---------------------------------------------------------------- scans, shapes


def naive_scan(x: Array, axis: int, product: bool, exclusive: bool) -> Array:
    out = np.zeros(x.shape, np.float64)
    for cell in cells(x.shape):
        acc = 1.0 if product else 0.0
        last = cell[axis] if exclusive else cell[axis] + 1
        for a in range(last):
            v = float(x[(*cell[:axis], a, *cell[axis + 1 :])])
            acc = acc * v if product else acc + v
        out[cell] = acc
    return out


@pytest.mark.parametrize("exclusive", [False, True])
def test_cumsum_and_cumprod(exclusive: bool) -> None:
    x = np.random.default_rng(0).uniform(0.5, 1.5, (2, 3, 4)).astype("float32")
    for axis in (0, 2):
        for product in (False, True):
            fn = relay.cumprod if product else relay.cumsum
            out = run(lambda d, fn=fn, axis=axis: fn(d, axis, exclusive=exclusive), x)
            want = naive_scan(x, axis, product, exclusive).astype("float32")
            np.testing.assert_array_equal(out, want)
    flat = run(lambda d: relay.cumsum(d), numbered(2, 2))
    assert flat.tolist() == [0, 1, 3, 6]


def test_cumsum_integers_wrap_and_dtype_converts() -> None:
    x = np.array([100, 100, -56, 7], "int8")
    assert run(lambda d: relay.cumsum(d), x).tolist() == [100, -56, -112, -105]
    assert run(lambda d: relay.cumsum(d, dtype="int32"), x).tolist() == [100, 200, 144, 151]
    f = np.array([1.7, -2.9, 3e10], "float32")
    assert run(lambda d: relay.cumsum(d, dtype="int32"), f).tolist() == [1, -1, 2**31 - 2]
    assert run(lambda d: relay.cumprod(d, 0, exclusive=True), x).tolist() == [1, 100, 16, -128]


def test_arange_shape_of_and_ndarray_size() -> None:
    x = numbered(2, 3)
    assert run(lambda d: relay.arange(5, dtype="int32"), x).tolist() == [0, 1, 2, 3, 4]
    out = run(lambda d: relay.arange(1.0, 2.0, 0.25), x)
    assert out.tolist() == [1.0, 1.25, 1.5, 1.75]
    assert run(lambda d: relay.arange(3, -4, -3, "int64"), x).tolist() == [3, 0, -3]
    assert run(lambda d: relay.arange(3, 1), x).shape == (0,)
    assert run(lambda d: relay.shape_of(d), x).tolist() == [2, 3]
    assert run(lambda d: relay.shape_of(d, "int64"), x).dtype == np.int64
    assert run(lambda d: relay.ndarray_size(d), x).tolist() == 6
    assert run(lambda d: relay.shape_of(d, "float32"), x).tolist() == [2.0, 3.0]


def test_shape_of_a_static_input_folds() -> None:
    v = relay.var("v", shape=(2, 3), dtype="float32")
    mod = IRModule.from_expr(relay.Function([v], relay.shape_of(v)))
    folded = FoldConstant()(mod)
    assert "relay.shape_of" not in str(folded), str(folded)
    assert xrelay.evaluate(folded, numbered(2, 3)).tolist() == [2, 3]


def test_gather_from_an_empty_axis_is_an_error() -> None:
    with pytest.raises(relay.RelayTypeError, match="empty axis"):
        run(
            lambda d, i: relay.gather(d, 1, i),
            np.zeros((2, 0), "float32"),
            np.zeros((2, 1), "int32"),
        )
    params = [
        relay.var("d", shape=(2, None), dtype="float32"),
        relay.var("i", shape=(2, 1), dtype="int32"),
    ]
    mod = IRModule.from_expr(relay.Function(params, relay.gather(params[0], 1, params[1])))
    with pytest.raises(EvaluationError, match="empty axis"):
        xrelay.evaluate(mod, np.zeros((2, 0), "float32"), np.zeros((2, 1), "int32"))


def test_pad_wrap_continues_periodically() -> None:
    x = np.array([[1, 2, 3], [4, 5, 6]], "int32")
    out = run(lambda d: relay.nn.pad(d, ((1, 0), (2, 4)), pad_mode="wrap"), x)
    assert out[1].tolist() == [2, 3, 1, 2, 3, 1, 2, 3, 1]
    for r, c in cells(out.shape):
        assert out[r, c] == x[(r - 1) % 2, (c - 2) % 3]
    with pytest.raises(relay.RelayTypeError, match="wrap padding needs a non-empty dim"):
        run(lambda d: relay.nn.pad(d, ((1, 0),), pad_mode="wrap"), np.zeros((0,), "int32"))


def test_shape_of_a_dynamic_input_is_computed_at_run_time() -> None:
    v = relay.var("v", shape=(None, 3), dtype="float32")
    mod = IRModule.from_expr(relay.Function([v], relay.shape_of(v, "int64")))
    assert "relay.shape_of" in str(FoldConstant()(mod))
    assert xrelay.evaluate(mod, numbered(5, 3)).tolist() == [5, 3]
