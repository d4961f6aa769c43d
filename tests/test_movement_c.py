"""The C forms of the ops added for the ONNX frontend, built with `xrelay.build(target="c")` and
compared with the reference interpreter (one module per family, `Cases` of test_codegen_c)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_codegen_c import Cases

from xrelay import relay


@pytest.mark.parametrize("dtype", ["float32", "int8", "float16"])
def test_movement_ops(dtype: str, cache: Path) -> None:
    cases = Cases(3)
    x = cases.var((2, 3, 4), dtype, -9, 9)
    cases.add("broadcast_to", relay.broadcast_to(cases.var((3, 1), dtype, -9, 9), (2, 3, 4)))
    cases.add("broadcast_to same", relay.broadcast_to(x, (2, 3, 4)))
    cases.add("tile", relay.tile(x, (2, 1, 1, 2)))
    cases.add("tile short reps", relay.tile(x, (3,)))
    cases.add("tile empty", relay.tile(cases.var((0, 4), dtype), (1, 3)))  # no `% 0` in the C
    for axis in (0, 1, -1):
        cases.add(f"reverse {axis}", relay.reverse(x, axis))
    for k in (-1, 0, 2):
        cases.add(f"triu {k}", relay.trilu(x, k, True))
        cases.add(f"tril {k}", relay.trilu(x, k, False))
    nchw = cases.var((2, 8, 2, 3), dtype, -9, 9)
    nhwc = cases.var((2, 2, 3, 8), dtype, -9, 9)
    for mode in ("DCR", "CRD"):
        cases.add(f"d2s {mode}", relay.nn.depth_to_space(nchw, 2, "NCHW", mode))
        cases.add(f"d2s nhwc {mode}", relay.nn.depth_to_space(nhwc, 2, "NHWC", mode))
    cases.add("s2d", relay.nn.space_to_depth(cases.var((1, 3, 4, 6), dtype, -9, 9), 2))
    cases.add("s2d nhwc", relay.nn.space_to_depth(cases.var((1, 4, 6, 3), dtype, -9, 9), 2, "NHWC"))
    cases.check(cache)


def test_gathers_and_one_hot(cache: Path) -> None:
    cases = Cases(4)
    data = cases.var((3, 4, 5))
    for axis in (0, 1, 2):
        shape = [3, 4, 5]
        shape[axis] = 6
        idx = cases.var(shape, "int64", -8, 8)  # some out of range: wrap once, then clamp
        cases.add(f"gather {axis}", relay.gather(data, axis, idx))
    cases.add("gather smaller", relay.gather(data, 2, cases.var((2, 3, 2), "int32", -5, 4)))
    cases.add("gather_nd", relay.gather_nd(data, cases.var((2, 4, 2), "int32", -4, 5)))
    cases.add("gather_nd full", relay.gather_nd(data, cases.var((3, 7), "int64", -3, 4)))
    picks = cases.var((1, 3, 2), "int32", -5, 5)
    cases.add("gather_nd batch", relay.gather_nd(data, picks, batch_dims=1))
    ints = cases.var((2, 3), "int32", -2, 4)
    on, off = relay.const(np.float32(2.5)), relay.const(np.float32(-1.0))
    for axis in (-1, 0, 1):
        cases.add(f"one_hot {axis}", relay.one_hot(ints, on, off, 3, axis, "float32"))
    cases.add(
        "one_hot int",
        relay.one_hot(ints, relay.const(7, "int8"), relay.const(0, "int8"), 4, -1, "int8"),
    )
    cases.check(cache)


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8"])
def test_scatters(dtype: str, cache: Path) -> None:
    cases = Cases(5)
    for mode in ("update", "add", "mul", "min", "max"):
        data = cases.var((3, 4), dtype, 0, 9)
        idx = cases.var((3, 5), "int64", -6, 5)  # repeats, negatives, out of range
        upd = cases.var((3, 5), dtype, 0, 9)
        cases.add(f"scatter_elements {mode}", relay.scatter_elements(data, idx, upd, 1, mode))
        rows = cases.var((2, 4), "int32", -4, 4)
        upd0 = cases.var((2, 4), dtype, 0, 9)
        cases.add(f"scatter_elements 0 {mode}", relay.scatter_elements(data, rows, upd0, 0, mode))
        nd_idx = cases.var((1, 5), "int32", -4, 4)
        nd_upd = cases.var((5, 4), dtype, 0, 9)
        cases.add(f"scatter_nd {mode}", relay.scatter_nd(data, nd_idx, nd_upd, mode))
        full = cases.var((2, 6), "int64", -4, 4)
        cases.add(
            f"scatter_nd full {mode}",
            relay.scatter_nd(data, full, cases.var((6,), dtype, 0, 9), mode),
        )
    cases.check(cache)


def test_scatter_min_max_nan(cache: Path) -> None:
    cases = Cases(6)
    nan = np.float32(np.nan)
    data = cases.var((4,), value=np.array([1, nan, 3, 0], "float32"))
    idx = cases.var((4,), "int32", value=np.array([0, 1, 2, 3], "int32"))
    upd = cases.var((4,), value=np.array([nan, 0, 2, -0.0], "float32"))
    for mode in ("min", "max"):
        cases.add(mode, relay.scatter_elements(data, idx, upd, 0, mode))
    cases.check(cache)


@pytest.mark.parametrize("dtype", ["float32", "int8", "int64", "float16"])
def test_scans_and_shapes(dtype: str, cache: Path) -> None:
    cases = Cases(7)
    x = cases.var((2, 3, 4), dtype, -3, 3)
    for fn in (relay.cumsum, relay.cumprod):
        for exclusive in (False, True):
            for axis in (None, 0, 2):
                cases.add(f"{fn.__name__} {axis} {exclusive}", fn(x, axis, exclusive=exclusive))
        cases.add(f"{fn.__name__} to int32", fn(x, 1, "int32"))
        cases.add(f"{fn.__name__} to float64", fn(x, 1, "float64"))
    cases.add("arange", relay.arange(-2, 5, 0.5, dtype))
    cases.add("arange down", relay.arange(7, 1, -2, dtype))
    cases.add("shape_of", relay.shape_of(x))
    cases.add("ndarray_size", relay.ndarray_size(x, "int64"))
    cases.add("shape_of_f32", relay.shape_of(x, "float32"))  # TVM takes any number dtype
    cases.add("ndarray_size_f32", relay.ndarray_size(x, "float32"))
    cases.check(cache, rtol=1e-3 if dtype == "float16" else 1e-5)


def test_pad_wrap(cache: Path) -> None:
    cases = Cases(8)
    x = cases.var((2, 3, 4))
    cases.add("wrap", relay.nn.pad(x, ((0, 0), (5, 1), (2, 9)), pad_mode="wrap"))
    cases.add("wrap int", relay.nn.pad(cases.var((3,), "int8", -9, 9), ((4, 4),), pad_mode="wrap"))
    cases.check(cache)


def test_booleans_and_wide_integers(cache: Path) -> None:
    cases = Cases(9)
    for dtype in ("bool", "int16", "int64"):
        x = cases.var((3, 4), dtype, 0, 9)
        cases.add(f"{dtype} broadcast_to", relay.broadcast_to(x, (2, 3, 4)))
        cases.add(f"{dtype} tile", relay.tile(x, (2, 1)))
        cases.add(f"{dtype} reverse", relay.reverse(x, 0))
        cases.add(f"{dtype} trilu", relay.trilu(x, 1))
        idx = cases.var((3, 4), "int32", -6, 6)
        cases.add(f"{dtype} gather", relay.gather(x, 1, idx))
        for mode in ("update", "add", "mul", "min", "max"):
            upd = cases.var((3, 4), dtype, 0, 9)
            cases.add(f"{dtype} scatter {mode}", relay.scatter_elements(x, idx, upd, 1, mode))
        on, off = relay.const(np.ones((), dtype), dtype), relay.const(np.zeros((), dtype), dtype)
        cases.add(f"{dtype} one_hot", relay.one_hot(idx, on, off, 5, 1, dtype))
    cases.check(cache)
