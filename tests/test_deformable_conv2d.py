"""relay.nn.deformable_conv2d: against naive loops written from TOPI's definition (offsets
reaching outside the data, fractional and integer positions, deformable groups, groups,
strides, dilation, padding), zero offsets as conv2d, NHWC as NCHW transposed, the verifier,
and target c against the interpreter."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.relay.base import RelayTypeError

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(18)


def run(x: Array, offset: Array, weight: Array, **attrs: Any) -> Array:
    xs = [
        relay.var(name, shape=v.shape, dtype=str(v.dtype))
        for name, v in (("x", x), ("o", offset), ("w", weight))
    ]
    call = relay.nn.deformable_conv2d(*xs, **attrs)
    mod = IRModule.from_expr(relay.Function(xs, call))
    return np.asarray(xrelay.evaluate(mod, x, offset, weight))


def sample(x: Array, n: int, c: int, y: float, xx: float) -> float:
    """TOPI's read: 0 outside [0, H) x [0, W), else the four neighbours (0 past the edge)."""
    h, w = x.shape[2], x.shape[3]
    if not (0 <= y < h and 0 <= xx < w):
        return 0.0
    y0, x0 = math.floor(y), math.floor(xx)
    total = 0.0
    for xi, wx in ((x0, 1 - (xx - x0)), (x0 + 1, xx - x0)):
        for yi, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
            if yi <= h - 1 and xi <= w - 1:
                total += wx * wy * float(x[n, c, yi, xi])
    return total


def naive(
    x: Array,
    offset: Array,
    weight: Array,
    strides: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
    dgroups: int,
    groups: int,
) -> Array:
    n, c = x.shape[:2]
    o, i, kh, kw = weight.shape
    oh, ow = offset.shape[2:]
    out = np.zeros((n, o, oh, ow))
    for b, f, y, xx in itertools.product(range(n), range(o), range(oh), range(ow)):
        total = 0.0
        for ci, ky, kx in itertools.product(range(i), range(kh), range(kw)):
            ch = f // (o // groups) * i + ci
            at = ch // (c // dgroups) * kh * kw * 2 + (ky * kw + kx) * 2
            py = y * strides[0] - padding[0] + ky * dilation[0] + float(offset[b, at, y, xx])
            px = xx * strides[1] - padding[1] + kx * dilation[1] + float(offset[b, at + 1, y, xx])
            total += sample(x, b, ch, py, px) * float(weight[f, ci, ky, kx])
        out[b, f, y, xx] = total
    return out


def out_extent(size: int, pad: int, k: int, stride: int, dilation: int) -> int:
    return (size + 2 * pad - (dilation * (k - 1) + 1)) // stride + 1


CASES = [
    # strides, padding, dilation, deformable_groups, groups, kernel
    ((1, 1), (1, 1), (1, 1), 1, 1, (3, 3)),
    ((2, 1), (0, 2), (1, 2), 2, 1, (3, 2)),
    ((1, 2), (1, 0), (2, 1), 4, 2, (2, 3)),
    ((1, 1), (0, 0), (1, 1), 2, 4, (1, 1)),
]


@pytest.mark.parametrize(("strides", "padding", "dilation", "dgroups", "groups", "kernel"), CASES)
def test_matches_naive_loops(
    strides: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
    dgroups: int,
    groups: int,
    kernel: tuple[int, int],
) -> None:
    n, c, h, w, o = 2, 4, 5, 6, 4
    oh = out_extent(h, padding[0], kernel[0], strides[0], dilation[0])
    ow = out_extent(w, padding[1], kernel[1], strides[1], dilation[1])
    x = RNG.standard_normal((n, c, h, w))
    offset = RNG.uniform(-3, 3, (n, 2 * kernel[0] * kernel[1] * dgroups, oh, ow))
    offset.reshape(-1)[::7] = np.round(offset.reshape(-1)[::7])  # integer positions too
    weight = RNG.standard_normal((o, c // groups, *kernel))
    got = run(
        x,
        offset,
        weight,
        strides=strides,
        padding=padding,
        dilation=dilation,
        deformable_groups=dgroups,
        groups=groups,
    )
    want = naive(x, offset, weight, strides, padding, dilation, dgroups, groups)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_zero_offsets_are_conv2d_and_nhwc_is_nchw_transposed() -> None:
    x = RNG.standard_normal((1, 3, 5, 5)).astype(np.float32)
    weight = RNG.standard_normal((2, 3, 3, 3)).astype(np.float32)
    zeros = np.zeros((1, 18, 5, 5), np.float32)
    got = run(x, zeros, weight, padding=1)
    xv, wv = relay.var("x", shape=x.shape), relay.var("w", shape=weight.shape)
    conv = IRModule.from_expr(relay.Function([xv, wv], relay.nn.conv2d(xv, wv, padding=1)))
    np.testing.assert_allclose(
        got, np.asarray(xrelay.evaluate(conv, x, weight)), rtol=1e-5, atol=1e-5
    )
    offset = RNG.uniform(-2, 2, zeros.shape).astype(np.float32)
    nchw = run(x, offset, weight, padding=1)
    nhwc = run(
        x.transpose(0, 2, 3, 1),
        offset.transpose(0, 2, 3, 1),
        weight.transpose(2, 3, 1, 0),
        padding=1,
        data_layout="NHWC",
        kernel_layout="HWIO",
    )
    np.testing.assert_array_equal(nhwc, nchw.transpose(0, 2, 3, 1))


def test_hand_value() -> None:
    # One 1x1 tap read at (0.5, 0.25) of [[1, 2], [3, 4]]: 0.75 * (0.5*1 + 0.5*3) + 0.25 * (0.5*2
    # + 0.5*4) = 2.25; at (1.5, 0): row 1 only (row 2 is past the edge): 0.5 * 3 = 1.5; at
    # (-0.5, 0): outside, 0.
    x = np.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    offset = np.zeros((1, 2, 2, 2))
    offset[0, :, 0, 0] = (0.5, 0.25)
    offset[0, :, 0, 1] = (1.5, -1.0)
    offset[0, :, 1, 0] = (-1.5, 0.0)
    got = run(x, offset, np.ones((1, 1, 1, 1)))[0, 0]
    np.testing.assert_allclose(got, [[2.25, 1.5], [0.0, 4.0]])


@pytest.mark.parametrize(
    ("shapes", "attrs", "message"),
    [
        (
            ((1, 4, 5, 5), (1, 18, 4, 3), (2, 4, 3, 3)),
            {},
            "offset shape \\(1, 18, 4, 3\\) does not match \\(1, 18, 3, 3\\)",
        ),
        (
            ((1, 4, 5, 5), (1, 18, 3, 3), (2, 4, 3, 3)),
            {"deformable_groups": 3},
            "input channels 4 are not divisible by deformable_groups 3",
        ),
        (
            ((1, 4, 5, 5), (1, 18, 3, 3), (2, 3, 3, 3)),
            {},
            "weight input channels 3 do not match data channels 4 / groups 1",
        ),
        (
            ((1, 4, 5, 5), (1, 18, 3, 3), (2, 4, 3, 3)),
            {"out_layout": "NHWC"},
            "out_layout 'NHWC' must be '' or 'NCHW'",
        ),
    ],
)
def test_invalid(shapes: Any, attrs: dict[str, Any], message: str) -> None:
    xs = [relay.var(name, shape=s) for name, s in zip("xow", shapes, strict=True)]
    with pytest.raises(RelayTypeError, match=message):
        relay.nn.deformable_conv2d(*xs, **attrs)


def test_integer_data_is_refused() -> None:
    xs = [
        relay.var(n, shape=s, dtype="int32")
        for n, s in (("x", (1, 1, 3, 3)), ("o", (1, 2, 3, 3)), ("w", (1, 1, 1, 1)))
    ]
    with pytest.raises(RelayTypeError, match="expected a floating-point operand, got i32"):
        relay.nn.deformable_conv2d(*xs)


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    layouts = (("NCHW", "OIHW"), ("NHWC", "HWIO"))
    for index, (case, (layout, klayout), dtype) in enumerate(
        itertools.product(CASES, layouts, ("float32", "float64"))
    ):
        strides, padding, dilation, dgroups, groups, kernel = case
        oh = out_extent(5, padding[0], kernel[0], strides[0], dilation[0])
        ow = out_extent(6, padding[1], kernel[1], strides[1], dilation[1])
        x = RNG.standard_normal((2, 4, 5, 6)).astype(dtype)
        offset = RNG.uniform(-3, 3, (2, 2 * kernel[0] * kernel[1] * dgroups, oh, ow))
        offset = offset.astype(dtype)
        offset.reshape(-1)[:3] = (np.nan, np.inf, -1e30)
        weight = RNG.standard_normal((4, 4 // groups, *kernel)).astype(dtype)
        if layout == "NHWC":
            x, offset = x.transpose(0, 2, 3, 1).copy(), offset.transpose(0, 2, 3, 1).copy()
            weight = weight.transpose(2, 3, 1, 0).copy()
        for name, value in (("x", x), ("o", offset), ("w", weight)):
            params.append(relay.var(f"{name}{index}", shape=value.shape, dtype=dtype))
            values.append(value)
        outputs.append(
            relay.nn.deformable_conv2d(
                *params[-3:],
                strides,
                padding,
                dilation,
                dgroups,
                groups,
                data_layout=layout,
                kernel_layout=klayout,
            )
        )
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        tolerance = 1e-5 if g.dtype == np.float32 else 1e-12
        scale = float(np.abs(w).max())
        np.testing.assert_allclose(g, w, rtol=0, atol=tolerance * scale, err_msg=f"case {index}")
