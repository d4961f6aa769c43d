"""max_pool1d/3d and avg_pool1d/3d: reference semantics against naive loops, hand values,
type inference, and the C target against the interpreter.

The naive pool reads window position `o * stride + k * dilation - pad_before`; a
position outside the data is padding (the dtype's lowest value for max, nothing for
average); the average divides by the positions inside the data, or inside the data
plus its declared padding with `count_include_pad`, and a window with none gives 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(16)


def run(expr: relay.Expr, *inputs: Array) -> Array:
    return np.asarray(xrelay.evaluate(IRModule.from_expr(expr), *inputs))


def naive_pool(
    x: Array,
    kind: str,
    pool: Sequence[int],
    strides: Sequence[int],
    dilation: Sequence[int],
    before: Sequence[int],
    after: Sequence[int],
    ceil: bool,
    include: bool,
) -> Array:
    n, c, *sizes = x.shape
    rank = len(sizes)
    out = []
    for d in range(rank):
        span = sizes[d] + before[d] + after[d] - dilation[d] * (pool[d] - 1) - 1
        out.append(-(-span // strides[d]) + 1 if ceil else span // strides[d] + 1)
    lowest = np.finfo(x.dtype).min if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    y = np.zeros((n, c, *out))
    for b, ch in itertools.product(range(n), range(c)):
        for pos in itertools.product(*(range(e) for e in out)):
            values, counted = [], 0
            for tap in itertools.product(*(range(k) for k in pool)):
                at = [pos[d] * strides[d] + tap[d] * dilation[d] - before[d] for d in range(rank)]
                inside = all(0 <= at[d] < sizes[d] for d in range(rank))
                declared = all(-before[d] <= at[d] < sizes[d] + after[d] for d in range(rank))
                if inside:
                    values.append(float(x[(b, ch, *at)]))
                elif kind == "max":
                    values.append(float(lowest))
                counted += inside or (include and declared)
            if kind == "max":
                y[(b, ch, *pos)] = max(values)
            else:
                y[(b, ch, *pos)] = sum(values) / counted if counted else 0.0
    return y


def per_dim(value: int | Sequence[int], rank: int) -> list[int]:
    return [value] * rank if isinstance(value, int) else list(value)


def split_pad(padding: int | Sequence[int], rank: int) -> tuple[list[int], list[int]]:
    values = per_dim(padding, 1) if isinstance(padding, int) else list(padding)
    if len(values) == 1:
        return values * rank, values * rank
    if len(values) == rank:
        return values, values
    return values[:rank], values[rank:]


POOLS: list[tuple[tuple[int, ...], dict[str, Any]]] = [
    ((2, 3, 9), {"pool_size": 3, "strides": 2, "padding": 1}),
    ((1, 2, 8), {"pool_size": 2, "strides": 3, "padding": (0, 1), "ceil_mode": True}),
    ((1, 2, 7), {"pool_size": 2, "dilation": 2, "padding": (2, 1)}),
    ((1, 2, 5, 6, 4), {"pool_size": 2, "strides": 2}),
    (
        (2, 1, 4, 5, 6),
        {
            "pool_size": (2, 3, 2),
            "strides": (1, 2, 3),
            "padding": (1, 0, 1, 0, 2, 1),
            "ceil_mode": True,
        },
    ),
    ((1, 2, 5, 5, 5), {"pool_size": 2, "dilation": (1, 2, 2), "padding": 1}),
]


def pool_fn(kind: str, rank: int) -> Callable[..., relay.Expr]:
    return getattr(relay.nn, f"{kind}_pool{rank}d")


@pytest.mark.parametrize(("shape", "attrs"), POOLS)
@pytest.mark.parametrize(("kind", "include"), [("max", False), ("avg", False), ("avg", True)])
def test_pools_match_loops(
    shape: tuple[int, ...], attrs: dict[str, Any], kind: str, include: bool
) -> None:
    rank = len(shape) - 2
    x = RNG.standard_normal(shape).astype("float32")
    options = dict(attrs, count_include_pad=include) if kind == "avg" else attrs
    got = run(pool_fn(kind, rank)(relay.var("x", shape=shape), **options), x)
    before, after = split_pad(attrs.get("padding", 0), rank)
    want = naive_pool(
        x,
        kind,
        per_dim(attrs["pool_size"], rank),
        per_dim(attrs.get("strides", 1), rank),
        per_dim(attrs.get("dilation", 1), rank),
        before,
        after,
        attrs.get("ceil_mode", False),
        include,
    )
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_channels_last_layouts_match_channels_first() -> None:
    x = RNG.standard_normal((2, 3, 7)).astype("float32")
    first = run(relay.nn.max_pool1d(relay.var("x", shape=x.shape), 3, 2, padding=1), x)
    xl = np.transpose(x, (0, 2, 1)).copy()
    last = run(
        relay.nn.max_pool1d(relay.var("x", shape=xl.shape), 3, 2, padding=1, layout="NWC"), xl
    )
    np.testing.assert_array_equal(np.transpose(last, (0, 2, 1)), first)
    y = RNG.standard_normal((1, 2, 3, 4, 5)).astype("float32")
    first = run(relay.nn.avg_pool3d(relay.var("y", shape=y.shape), 2, padding=1), y)
    yl = np.transpose(y, (0, 2, 3, 4, 1)).copy()
    last = run(
        relay.nn.avg_pool3d(relay.var("y", shape=yl.shape), 2, padding=1, layout="NDHWC"), yl
    )
    np.testing.assert_allclose(np.transpose(last, (0, 4, 1, 2, 3)), first, rtol=1e-6)


def test_pool1d_hand_computed() -> None:
    x = np.array([[[1, 5, 2, 8, 3]]], "float32")
    X = relay.var("x", shape=(1, 1, 5))
    np.testing.assert_array_equal(run(relay.nn.max_pool1d(X, 2, 2), x)[0, 0], [5, 8])
    # ceil_mode keeps the last partial window; the mean counts its one element only.
    np.testing.assert_array_equal(
        run(relay.nn.avg_pool1d(X, 2, 2, ceil_mode=True), x)[0, 0], [3, 5, 3]
    )
    # count_include_pad counts the declared padding: (0 + 1) / 2, then (5 + 2) / 2, ...
    np.testing.assert_array_equal(
        run(relay.nn.avg_pool1d(X, 2, 2, padding=1, count_include_pad=True), x)[0, 0],
        [0.5, 3.5, 5.5],
    )
    ints = np.array([[[-7, 3, -2]]], "int32")
    got = run(
        relay.nn.max_pool1d(relay.var("i", shape=(1, 1, 3), dtype="int32"), 2, padding=1), ints
    )
    np.testing.assert_array_equal(got[0, 0], [-7, 3, 3, -2])


def test_types() -> None:
    x = relay.var("x", shape=(relay.Any(), 2, 8, relay.Any(), 6))
    expr = relay.nn.max_pool3d(x, (2, 2, 3), (2, 2, 3), ceil_mode=True)
    assert "?x2x4x?x2" in str(IRModule.from_expr(expr)["main"].ret_type)
    with pytest.raises(ValueError, match="padding must have 1 or 2 values, got 3"):
        relay.nn.avg_pool1d(relay.var("y", shape=(1, 1, 4)), 2, padding=(1, 1, 1))


@pytest.mark.parametrize("optimize", [False, True])
def test_c_target_matches_the_interpreter(optimize: bool, cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []

    def var(shape: Sequence[int], dtype: str = "float32") -> relay.Var:
        v = relay.var(f"v{len(params)}", shape=tuple(shape), dtype=dtype)
        params.append(v)
        if dtype == "int32":
            values.append(RNG.integers(-20, 20, shape).astype(dtype))
        else:
            values.append(RNG.uniform(-2, 2, shape).astype(dtype))
        return v

    for shape, attrs in POOLS:
        rank = len(shape) - 2
        outputs.append(pool_fn("max", rank)(var(shape), **attrs))
        for include in (False, True):
            outputs.append(pool_fn("avg", rank)(var(shape), count_include_pad=include, **attrs))
    outputs.append(relay.nn.max_pool1d(var((1, 7, 3)), 3, 2, padding=1, layout="NWC"))
    outputs.append(relay.nn.avg_pool3d(var((1, 3, 4, 5, 2)), 2, padding=1, layout="NDHWC"))
    outputs.append(relay.nn.max_pool3d(var((1, 2, 4, 4, 4), "int32"), 3, 2, padding=1))
    outputs.append(relay.nn.avg_pool1d(var((2, 2, 6), "int32"), 2))
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    assert len(got) == len(want) == len(outputs)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=f"case {index}")
