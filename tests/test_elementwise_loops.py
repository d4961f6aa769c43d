"""The loop nests the host prints for elementwise chains (`codegen/c/fusion.py`): adjacent
dims every operand reads alike share one loop, so the inner loop is as long as the layout
allows (GCC vectorizes it; a 7x7 map is one loop of 49), and the values stay right for
broadcasts on every axis, odd sizes and unit dims between."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.codegen.build import BASE_CFLAGS
from xrelay.codegen.c.fusion import loop_groups

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def _loops(source: str) -> list[int]:
    """The extents of the fused chain's loops, outermost first."""
    body = source[source.index("void xk_fused") :]
    return [int(n) for n in re.findall(r"for \(int64_t \w+ = 0; \w+ < (\d+); \+\+\w+\)", body)]


def _chain(shape: tuple[int, ...], other: tuple[int, ...]) -> tuple[IRModule, Array, Array]:
    rng = np.random.default_rng(len(shape) * 100 + sum(other))
    x = relay.var("x", shape=shape, dtype="float32")
    b = relay.var("b", shape=other, dtype="float32")
    y = relay.nn.relu(relay.add(relay.multiply(x, x), b))
    data = rng.standard_normal(shape).astype("float32")
    bias = rng.standard_normal(other).astype("float32")
    return IRModule.from_expr(relay.Function([x, b], y)), data, bias


@pytest.mark.parametrize(
    ("shape", "other", "loops"),
    [
        ((1, 64, 7, 7), (64, 1, 1), [64, 49]),  # NCHW bias: channels around H*W
        ((2, 96, 5, 5), (1, 96, 1, 1), [2, 96, 25]),  # batch and channel apart
        ((1, 64, 9, 11), (11,), [576, 11]),  # a row on the last axis
        ((1, 6, 9, 11), (9, 1), [6, 9, 11]),  # the middle axis: nothing merges
        ((3, 1, 5, 7), (3, 1, 1, 7), [3, 5, 7]),
        ((4, 5, 6), (4, 5, 6), [120]),  # same shape: one flat loop
    ],
)
def test_loop_nest_and_values(
    shape: tuple[int, ...], other: tuple[int, ...], loops: list[int]
) -> None:
    mod, data, bias = _chain(shape, other)
    lib = xrelay.build(mod, target="c")
    assert _loops(lib.sources.files["model.c"]) == loops
    want = np.maximum(data.astype(np.float64) ** 2 + bias, 0)
    np.testing.assert_allclose(lib(data, bias), want, rtol=1e-6, atol=1e-6)


def test_loop_groups() -> None:
    # a unit dim between two read dims does not split them; a broadcast one does
    assert loop_groups((2, 1, 3, 4), [(0, None, 2, 3)]) == [[0, 2, 3]]
    assert loop_groups((2, 5, 3, 4), [(0, None, 2, 3)]) == [[0], [1], [2, 3]]
    assert loop_groups((2, 5, 3, 4), [(1,), (0, 1, 2, 3)]) == [[0], [1], [2, 3]]
    assert loop_groups((1, 7, 1), [(None, 1, None)]) == [[1]]


@pytest.mark.parametrize(
    ("shape", "other"),
    [((1, 64, 9, 109), (64, 1, 1)), ((1, 6, 9, 11), (9, 1)), ((3, 13), (3, 1))],
)
def test_the_inner_loop_vectorizes(
    shape: tuple[int, ...], other: tuple[int, ...], tmp_path: Path
) -> None:
    """The chain's inner loop vectorizes with the flags model.c is built with, whatever its
    width. The odd-width cliff (a width of 109 ran 12x slower than 110) was GCC's -O2 cost
    model, which vectorizes no loop needing a scalar epilogue; host units build at -O3."""
    mod, _, _ = _chain(shape, other)
    sources = xrelay.build(mod, target="c").sources
    for name, content in sources.files.items():
        if isinstance(content, str):
            (tmp_path / name).write_text(content)
    flags = [*BASE_CFLAGS, *sources.unit_cflags["model.c"]]
    assert "-O3" in sources.unit_cflags["model.c"]
    runtime = Path(xrelay.__file__).resolve().parent.parent / "codegen" / "runtime"
    command = ["cc", *flags, "-I", str(runtime), "-fopt-info-vec-optimized", "-c", "model.c"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True)
    source = sources.files["model.c"]
    assert isinstance(source, str)
    lines = source.splitlines()
    stores = [n + 1 for n, line in enumerate(lines) if line.strip().startswith("out0[")]
    (store,) = stores
    heads = [n + 1 for n, line in enumerate(lines[:store]) if line.strip().startswith("for (")]
    inner = heads[-1]  # the innermost loop around the store
    assert f"model.c:{inner}:" in result.stderr, result.stderr
    assert "loop vectorized" in result.stderr
