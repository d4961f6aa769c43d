"""Host pools, concatenations, splits and block transposes on threads (`num_threads` 1
and 2) against the interpreter: float32 NCHW pools split their planes over an OpenMP team
that claims chunks of them (`codegen/c/kernels_pool2d.py`, `xn_parallel` of
`codegen/kernels/threads.py`); big
concatenations, splits and transposes that keep trailing axes in place copy rows with
`xn_copy_rows` (`codegen/c/copies.py`, `codegen/kernels/threads.py`). Odd shapes, so
that the spans cut planes and rows unevenly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def build_and_compare(mod: IRModule, inputs: list[Array], threads: int, tmp_path: Path) -> Any:
    lib = xrelay.build(mod, options={"cache_dir": tmp_path, "num_threads": threads})
    got = lib(*inputs)
    want = xrelay.evaluate(mod, *inputs)
    gots = got if isinstance(got, (list, tuple)) else [got]
    wants = want if isinstance(want, (list, tuple)) else [want]
    for g, w in zip(gots, wants, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype or g.dtype == np.float32
        np.testing.assert_allclose(g, w.astype(g.dtype), rtol=1e-6, atol=1e-6)
    return lib


def rand(shape: tuple[int, ...], seed: int) -> Array:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


POOLS = [
    # shape, pool_size, strides, padding, ceil_mode, is_max
    ((1, 37, 57, 59), (3, 3), (2, 2), (0, 0), True, True),  # Inception's ceil-mode pool
    ((2, 19, 41, 43), (3, 3), (1, 1), (1, 1), False, True),
    ((1, 29, 49, 47), (3, 3), (2, 2), (1, 1), False, False),  # ShuffleNet's avg pool
    ((1, 13, 30, 31), (2, 2), (2, 2), (0, 0), True, False),  # too small for a thread
]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", POOLS, ids=[str(c[0]) for c in POOLS])
def test_pools_on_threads_match_the_interpreter(
    case: tuple[Any, ...], threads: int, tmp_path: Path
) -> None:
    shape, size, strides, padding, ceil, is_max = case
    x = relay.var("x", shape=shape)
    if is_max:
        out = relay.nn.max_pool2d(x, size, strides, padding=padding, ceil_mode=ceil)
    else:
        out = relay.nn.avg_pool2d(x, size, strides, padding=padding, ceil_mode=ceil)
    mod = IRModule.from_expr(relay.Function([x], out))
    lib = build_and_compare(mod, [rand(shape, 1)], threads, tmp_path)
    unit = str(lib.sources.files["kernels_generated.c"])
    big = 4 * shape[0] * shape[1] * shape[2] * shape[3] >= 2 * 65536
    assert ("xn_parallel(team" in unit) == big
    assert ("kernels_threads.c" in lib.sources.files) == big


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", [(1, 61, 23, 29), (3, 5, 17, 131)])
def test_global_pools_on_threads_match_the_interpreter(
    shape: tuple[int, ...], threads: int, tmp_path: Path
) -> None:
    x = relay.var("x", shape=shape)
    mod = IRModule.from_expr(
        relay.Function(
            [x], relay.Tuple([relay.nn.global_avg_pool2d(x), relay.nn.global_max_pool2d(x)])
        )
    )
    lib = build_and_compare(mod, [rand(shape, 2)], threads, tmp_path)
    assert "xn_team(XR_NUM_THREADS" in str(lib.sources.files["kernels_generated.c"])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("axis", [0, 1, 3])
def test_big_concatenate_and_split_copy_rows(axis: int, threads: int, tmp_path: Path) -> None:
    shapes = [(2, 13, 29, 31), (2, 7, 29, 31), (2, 21, 29, 31)]
    if axis != 1:
        shapes = [
            tuple(s[i] if i != axis else 3 + 70 * n for i in range(4)) for n, s in enumerate(shapes)
        ]
        shapes = [(s[0], 21, s[2], s[3]) for s in shapes]
    xs = [relay.var(f"x{i}", shape=s) for i, s in enumerate(shapes)]
    joined = relay.concatenate(xs, axis)
    sizes = [s[axis] for s in shapes]
    cuts = [sizes[0], sizes[0] + sizes[1]]
    parts = relay.split(relay.exp(joined), cuts, axis)
    mod = IRModule.from_expr(relay.Function(xs, relay.Tuple([joined, parts[2], parts[0]])))
    lib = build_and_compare(mod, [rand(s, 3 + i) for i, s in enumerate(shapes)], threads, tmp_path)
    model = "".join(str(v) for k, v in lib.sources.files.items() if k.endswith(".c"))
    # the pieces of rows under 256 bytes (3 floats on axis 3) keep their loops
    assert model.count("xn_copy_rows(XR_NUM_THREADS,") == (6 if axis != 3 else 4)


def test_small_concatenate_keeps_its_loops(tmp_path: Path) -> None:
    xs = [relay.var(f"x{i}", shape=(1, 3, 5, 7)) for i in range(2)]
    mod = IRModule.from_expr(relay.Function(xs, relay.concatenate(xs, 1)))
    lib = build_and_compare(mod, [rand((1, 3, 5, 7), i) for i in range(2)], 2, tmp_path)
    assert "xn_copy_rows" not in str(lib.sources.files["model.c"])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    ("shape", "axes"),
    [
        ((1, 3, 40, 27, 29), (0, 2, 1, 3, 4)),  # ShuffleNet's channel shuffle
        ((2, 4, 7, 33, 35), (1, 2, 0, 3, 4)),
        ((5, 6, 3, 3, 257), (2, 0, 1, 3, 4)),  # one trailing axis kept
    ],
)
def test_block_transposes_copy_rows(
    shape: tuple[int, ...], axes: tuple[int, ...], threads: int, tmp_path: Path
) -> None:
    x = relay.var("x", shape=shape)
    mod = IRModule.from_expr(relay.Function([x], relay.transpose(relay.exp(x), axes)))
    lib = build_and_compare(mod, [rand(shape, 5)], threads, tmp_path)
    model = "".join(str(v) for k, v in lib.sources.files.items() if k.endswith(".c"))
    assert "xn_copy_rows(XR_NUM_THREADS," in model


def test_int_transpose_is_exact(tmp_path: Path) -> None:
    shape = (1, 4, 50, 19, 23)
    x = relay.var("x", shape=shape, dtype="int32")
    mod = IRModule.from_expr(relay.Function([x], relay.transpose(x, (0, 2, 1, 3, 4))))
    data = np.random.default_rng(6).integers(-(2**31), 2**31 - 1, shape, dtype=np.int32)
    lib = xrelay.build(mod, options={"cache_dir": tmp_path, "num_threads": 2})
    np.testing.assert_array_equal(np.asarray(lib(data)), np.transpose(data, (0, 2, 1, 3, 4)))
