"""relay.image.grid_sample: hand-computed values, ONNX GridSample's own reference
(`onnx.reference`) for every method, padding mode and alignment in 2-D and 3-D, and the C
target against the interpreter (non-finite grid values included)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(23)
METHODS = {"bilinear": "linear", "nearest": "nearest", "bicubic": "cubic"}
PADDINGS = ("zeros", "border", "reflection")


def sample(x: Array, grid: Array, **attrs: Any) -> Array:
    """grid_sample on the interpreter; `grid` in ONNX's layout [N, *out, r]."""
    rank = grid.ndim
    g = np.ascontiguousarray(grid.transpose(0, rank - 1, *range(1, rank - 1)))
    xv = relay.var("x", shape=x.shape, dtype=str(x.dtype))
    gv = relay.var("g", shape=g.shape, dtype=str(g.dtype))
    layout = "NCHW" if x.ndim == 4 else "NCDHW"
    expr = relay.image.grid_sample(xv, gv, layout=layout, **attrs)
    out = xrelay.evaluate(IRModule.from_expr(relay.Function([xv, gv], expr)), x, g)
    return np.asarray(out)


def test_hand_values() -> None:
    x = np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32)
    points = [[0.0, 0.0], [-1.0, -1.0], [1.0, 1.0], [1.5, 0.0], [0.2, -1.0]]
    grid = np.array(points, np.float32).reshape(1, 1, 5, 2)
    got = sample(x, grid)[0, 0, 0]
    # align_corners: (x, y) -> pixels ((x + 1) / 2, (y + 1) / 2); 1.5 is outside: 0 beyond.
    np.testing.assert_allclose(got, [2.5, 1.0, 4.0, 1.25 * 0 + 0.75 * 3.0, 1.6], rtol=1e-6)
    reflected = sample(x, grid, padding_mode="reflection")[0, 0, 0]
    # x = 1.25 pixels reflects to 0.75: row 0.5 is [2, 3], at 0.75 -> 2.75.
    np.testing.assert_allclose(reflected[3], 2.75, rtol=1e-6)
    border = sample(x, grid, padding_mode="border")[0, 0, 0]
    np.testing.assert_allclose(border[3], 3.0, rtol=1e-6)
    nearest = sample(x, grid, method="nearest", align_corners=False)[0, 0, 0]
    # not aligned: pixel = ((g + 1) * 2 - 1) / 2, rounded half to even: (0, 0) -> (0.5, 0.5)
    # -> (0, 0); (1, 1) -> (1.5, 1.5) -> (2, 2), outside; (0.2, -1) -> (0.7, -0.5) -> (1, 0).
    np.testing.assert_array_equal(nearest, [1.0, 1.0, 0.0, 0.0, 2.0])


@pytest.mark.parametrize(
    ("method", "rank"),
    [
        ("bilinear", 2),
        ("nearest", 2),
        ("bicubic", 2),
        ("bilinear", 3),
        ("nearest", 3),
        ("bicubic", 3),
    ],
)
@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("align", [0, 1])
def test_matches_onnx_reference(method: str, padding: str, align: int, rank: int) -> None:
    dims = (3, 4, 5)[-rank:]
    x = RNG.standard_normal((2, 3, *dims)).astype(np.float32)
    grid = RNG.uniform(-1.7, 1.7, (2, *(dims[::-1][:rank]), rank)).astype(np.float32)
    node = helper.make_node(
        "GridSample",
        ["x", "g"],
        ["y"],
        mode=METHODS[method],
        padding_mode=padding,
        align_corners=align,
    )
    want = ReferenceEvaluator(node).run(None, {"x": x, "g": grid})[0]
    got = sample(x, grid, method=method, padding_mode=padding, align_corners=bool(align))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    cases = itertools.product(METHODS, PADDINGS, (False, True), (2, 3))
    for index, (method, padding, align, rank) in enumerate(cases):
        dtype = ("float32", "float64")[index % 2]
        dims = (3, 4, 5)[-rank:] if index % 3 else (1,) * rank
        x = RNG.standard_normal((2, 2, *dims)).astype(dtype)
        grid = RNG.uniform(-2.5, 2.5, (2, rank, 3, *(2,) * (rank - 1))).astype(dtype)
        grid.reshape(-1)[:3] = (np.nan, np.inf, -1e30)
        for name, value in (("x", x), ("g", grid)):
            v = relay.var(f"{name}{index}", shape=value.shape, dtype=dtype)
            params.append(v)
            values.append(value)
        layout = "NCHW" if rank == 2 else "NCDHW"
        outputs.append(
            relay.image.grid_sample(
                params[-2], params[-1], method, layout, padding, align_corners=align
            )
        )
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
