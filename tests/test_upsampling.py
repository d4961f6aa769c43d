"""relay.nn.upsampling: TVM's output extents (round half to even), every method against
naive loops written from TVM's TOPI definition, NHWC, integer data, and target c against
the interpreter."""

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


def run(x: Array, **attrs: Any) -> Array:
    v = relay.var("x", shape=x.shape, dtype=str(x.dtype))
    mod = IRModule.from_expr(relay.Function([v], relay.nn.upsampling(v, **attrs)))
    return np.asarray(xrelay.evaluate(mod, x))


def _source(o: int, size: int, out: int, align: bool) -> float:
    if align:
        return o * (size - 1) / (out - 1) if out > 1 else 0.0
    return o * size / out


def _cubic(d: float) -> float:
    a, d = -0.5, abs(d)
    if d <= 1:
        return (a + 2) * d**3 - (a + 3) * d**2 + 1
    if d < 2:
        return a * d**3 - 5 * a * d**2 + 8 * a * d - 4 * a
    return 0.0


def _weights(o: int, size: int, out: int, method: str, align: bool) -> dict[int, float]:
    """Input index -> weight of output position `o` along one axis (edges clamped)."""
    src = _source(o, size, out, align)
    clamp = lambda i: min(max(i, 0), size - 1)  # noqa: E731
    if method == "nearest_neighbor":
        i = math.floor(src + 0.5) if align else math.floor(src)
        return {clamp(i): 1.0}
    base = math.floor(src)
    taps = range(base, base + 2) if method == "bilinear" else range(base - 1, base + 3)
    kernel = (lambda d: max(0.0, 1 - abs(d))) if method == "bilinear" else _cubic
    weights: dict[int, float] = {}
    for i in taps:
        weights[clamp(i)] = weights.get(clamp(i), 0.0) + kernel(src - i)
    return weights


def naive(x: Array, scale_h: float, scale_w: float, method: str, align: bool) -> Array:
    """NCHW upsampling with plain loops: separable weights, H then W."""
    n, c, h, w = x.shape
    oh, ow = round(h * scale_h), round(w * scale_w)
    out = np.zeros((n, c, oh, ow))
    for b, ch, y, xx in itertools.product(range(n), range(c), range(oh), range(ow)):
        total = 0.0
        for j, wj in _weights(xx, w, ow, method, align).items():
            for i, wi in _weights(y, h, oh, method, align).items():
                total += wj * wi * float(x[b, ch, i, j])
        out[b, ch, y, xx] = total
    return out


@pytest.mark.parametrize("method", ["nearest_neighbor", "bilinear", "bicubic"])
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize(("scale_h", "scale_w"), [(2, 2), (1.5, 2.5), (0.5, 3), (1, 1)])
def test_matches_naive_loops(method: str, align: bool, scale_h: float, scale_w: float) -> None:
    x = RNG.standard_normal((2, 3, 4, 5))
    got = run(x, scale_h=scale_h, scale_w=scale_w, method=method, align_corners=align)
    np.testing.assert_allclose(got, naive(x, scale_h, scale_w, method, align), rtol=1e-12)


def test_hand_values_and_extents() -> None:
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)
    # H: 2 * 2 = 4; W: 3 * 1.5 = 4.5 rounds half to even to 4 (TVM's nearbyint).
    nearest = run(x, scale_h=2, scale_w=1.5)
    np.testing.assert_array_equal(nearest[0, 0], [[0, 0, 1, 2]] * 2 + [[3, 3, 4, 5]] * 2)
    aligned = run(x, scale_h=1, scale_w=1.5, method="bilinear", align_corners=True)
    np.testing.assert_allclose(aligned[0, 0, 0], [0, 2 / 3, 4 / 3, 2], rtol=1e-6)
    assert run(x, scale_h=2.5, scale_w=5 / 6).shape == (1, 1, 5, 2)  # 5.0, 2.5 -> 2


def test_nhwc_is_nchw_transposed() -> None:
    x = RNG.standard_normal((1, 3, 4, 2)).astype(np.float32)
    for method in ("nearest_neighbor", "bilinear", "bicubic"):
        want = run(x.transpose(0, 3, 1, 2), scale_h=2, scale_w=1.5, method=method)
        got = run(x, scale_h=2, scale_w=1.5, layout="NHWC", method=method)
        np.testing.assert_array_equal(got, want.transpose(0, 2, 3, 1))


def test_integers_round_half_to_even_and_saturate() -> None:
    x = np.array([[[[0, 255], [1, 2]]]], np.uint8)
    got = run(x, scale_h=1, scale_w=2, method="bicubic")
    want = naive(x, 1, 2, "bicubic", False)
    np.testing.assert_array_equal(got, np.clip(np.round(want), 0, 255).astype(np.uint8))


def test_builder_reads_constant_scales_and_refuses_dynamic_ones() -> None:
    x = relay.var("x", shape=(1, 1, 2, 2))
    call = relay.nn.upsampling(x, relay.const(2.0), relay.const(3.0))
    out = xrelay.evaluate(
        IRModule.from_expr(relay.Function([x], call)), np.ones((1, 1, 2, 2), np.float32)
    )
    assert np.asarray(out).shape == (1, 1, 4, 6)
    with pytest.raises(TypeError, match="scale_h must be static"):
        relay.nn.upsampling(x, relay.var("s", shape=()), 2)
    with pytest.raises(RelayTypeError, match="unknown method 'trilinear'"):
        relay.nn.upsampling(x, 2, 2, method="trilinear")


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    cases = itertools.product(("nearest_neighbor", "bilinear", "bicubic"), (False, True))
    for index, (method, align) in enumerate(cases):
        dtype = ("float32", "float64", "int8")[index % 3]
        layout = ("NCHW", "NHWC")[index % 2]
        x = (RNG.standard_normal((2, 3, 4, 5)) * 50).astype(dtype)
        x.reshape(-1)[0] = -128 if dtype == "int8" else np.nan
        v = relay.var(f"x{index}", shape=x.shape, dtype=dtype)
        params.append(v)
        values.append(x)
        scales = ((2, 1.5), (0.5, 3), (1.7, 1))[index % 3]
        outputs.append(relay.nn.upsampling(v, *scales, layout, method, align))
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
