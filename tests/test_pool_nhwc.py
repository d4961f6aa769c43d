"""The shared NHWC pool kernel (`codegen/kernels/pool_nhwc.py`) over seeded random shapes,
on the host `c` target and inside dnnl functions (`codegen/dnnl/shared_pools.py`), against
the interpreter.

The cases draw windows, strides, dilations and padding up to half the window, `ceil_mode`
and `count_include_pad`, channel counts below, at and past whole vectors (so the
four-vector blocks, single vectors and the masked partial vector all run), two images,
and inputs holding NaN, +inf and -inf (a max keeps NaN, a window of -inf inside the input
gives -inf, one reaching the padding at least float32's lowest). Each build holds many
pools, one per input. Max pools must match bit for bit (NaN as NaN); averages within
float32 rounding of a sum of at most 9 taps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.accel_cases import text
from xrelay.codegen.kernels import pool_nhwc

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def _specials(rng: np.random.Generator, data: Array) -> Array:
    """`data` with about 2% of its elements NaN, +inf or -inf."""
    flat = data.reshape(-1).copy()
    picked = rng.choice(flat.size, size=max(3, flat.size // 50), replace=False)
    flat[picked[0::3]] = np.nan
    flat[picked[1::3]] = np.inf
    flat[picked[2::3]] = -np.inf
    return flat.reshape(data.shape)


def _case(rng: np.random.Generator, dnnl: bool) -> tuple[tuple[int, ...], dict[str, Any], bool]:
    """(input shape, pool attributes, is max) with at least one output pixel. dnnl's
    predicates take no dilation, padding smaller than the window and a `ceil_mode` that
    adds no window: `dnnl` keeps to the first two (the others then stay on the host)."""
    while True:
        kernel, stride = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        dilation = 1 if dnnl else int(rng.integers(1, 3))
        pad = [int(v) for v in rng.integers(0, kernel // 2 + 1, size=4)]
        height, width = (int(v) for v in rng.integers(1, 16, size=2))
        channels = int(rng.choice([1, 5, 16, 33, 64, 70]))
        reach = (kernel - 1) * dilation + 1
        if height + pad[0] + pad[2] < reach or width + pad[1] + pad[3] < reach:
            continue
        attrs: dict[str, Any] = {
            "pool_size": (kernel, kernel),
            "strides": (stride, stride),
            "dilation": (dilation, dilation),
            "padding": tuple(pad),
            "ceil_mode": bool(rng.integers(0, 2)),
            "layout": "NHWC",
        }
        is_max = bool(rng.integers(0, 2))
        if not is_max:
            attrs["count_include_pad"] = bool(rng.integers(0, 2))
        return (2, height, width, channels), attrs, is_max


def _check(cache: Path, target: str | list[str], seed: int, threads: int, cases: int) -> str:
    """Build `cases` random pools (one input each) for `target` and compare them with the
    interpreter; the text of the build's sources."""
    rng = np.random.default_rng(seed)
    params: list[relay.Var] = []
    outputs: list[relay.Expr] = []
    data: list[Array] = []
    maxes: list[bool] = []
    for case in range(cases):
        shape, attrs, is_max = _case(rng, dnnl=target != "c")
        x = relay.var(f"x{case}", shape=shape)
        pool = relay.nn.max_pool2d if is_max else relay.nn.avg_pool2d
        params.append(x)
        outputs.append(pool(x, **attrs))
        maxes.append(is_max)
        values = rng.standard_normal(shape).astype("float32")
        data.append(_specials(rng, values) if case % 2 else values)
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    want = [np.asarray(w) for w in xrelay.evaluate(mod, *data)]
    lib = xrelay.build(mod, target, None, {"cache_dir": cache, "num_threads": threads})
    got = [np.asarray(g) for g in lib(*data)]
    for case, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, case
        if maxes[case]:
            np.testing.assert_array_equal(g, w, err_msg=f"case {case}")
        else:
            scale = float(np.nanmax(np.abs(np.where(np.isinf(w), 0, w)), initial=1.0))
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6 * scale, err_msg=f"case {case}")
    return _units(lib)


def _units(lib: Any) -> str:
    """The text of every C unit of a built library."""
    return "\n".join(text(lib.sources, name) for name in lib.sources.files if name.endswith(".c"))


@pytest.mark.parametrize("threads", [1, 3])
def test_host_nhwc_pools_over_random_shapes(cache: Path, threads: int) -> None:
    sources = _check(cache, "c", 2600 + threads, threads, cases=16)
    assert "xc_pool_nhwc_" in sources  # the shared kernel, not the host's loops


@pytest.mark.parametrize("threads", [1, 2])
def test_dnnl_pools_run_the_shared_kernel(cache: Path, threads: int) -> None:
    sources = _check(cache, ["dnnl", "c"], 2700 + threads, threads, cases=12)
    assert "the host's pool kernel" in sources  # printed into a dnnl function
    assert "dnnl_pooling_v2_forward_desc_init" not in sources


def test_squeezenet_pool_on_two_threads(cache: Path) -> None:
    """SqueezeNet's first pool (64 channels, 111x111, 3x3 stride 2), NaN in a few places,
    split over 2 threads inside a dnnl function."""
    rng = np.random.default_rng(2800)
    x = relay.var("x", shape=(1, 111, 111, 64))
    y = relay.nn.max_pool2d(x, pool_size=(3, 3), strides=(2, 2), layout="NHWC")
    mod = IRModule.from_expr(relay.Function([x], y))
    data = _specials(rng, rng.standard_normal((1, 111, 111, 64)).astype("float32"))
    want = np.asarray(xrelay.evaluate(mod, data))
    lib = xrelay.build(mod, ["dnnl", "c"], None, {"cache_dir": cache, "num_threads": 2})
    np.testing.assert_array_equal(np.asarray(lib(data)), want)
    assert "xc_pool_nhwc_chunk_" in _units(lib)  # the threaded entry of the kernel


def _conv_relu_pool(second_use: bool, average: bool) -> tuple[IRModule, Array]:
    """conv + bias + relu (dnnl's post-op) read by a 3x3 stride 2 pool (and, with
    `second_use`, also returned), on an input holding NaN and infinities."""
    rng = np.random.default_rng(2900)
    x = relay.var("x", shape=(1, 3, 33, 35))
    w = relay.const((rng.standard_normal((24, 3, 3, 3)) * 0.5).astype("float32"))
    b = relay.const(rng.standard_normal(24).astype("float32"))
    c = relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w, strides=(2, 2)), b))
    pool = relay.nn.avg_pool2d if average else relay.nn.max_pool2d
    y = pool(c, pool_size=(3, 3), strides=(2, 2))
    body = relay.Tuple([y, c]) if second_use else y
    data = rng.standard_normal((1, 3, 33, 35)).astype("float32")
    data[0, 0, 5, 5], data[0, 1, 10, 10], data[0, 2, 20, 20] = np.nan, -np.inf, np.inf
    return IRModule.from_expr(relay.Function([x], body)), data


@pytest.mark.parametrize(
    ("second_use", "average", "moved"),
    [(False, False, True), (True, False, False), (False, True, False)],
    ids=["max-pool-alone-reads-it", "result-also-returned", "average-pool"],
)
def test_a_max_pool_applies_its_producers_relu(
    cache: Path, second_use: bool, average: bool, moved: bool
) -> None:
    """The relu of a conv read only by a max pool moves into the pool's stores (no pass over
    the conv's result); NaN, infinities and +0 come out as relay's."""
    mod, data = _conv_relu_pool(second_use, average)
    want = [np.asarray(w) for w in xrelay.evaluate(mod, data)] if second_use else None
    lib = xrelay.build(mod, ["dnnl", "c"], None, {"cache_dir": cache})
    relu_pass = text(lib.sources, "dnnl.c").count("xd_relu_after(s, ")
    assert relu_pass == (0 if moved else 1)
    assert ("xa_relu(r" in _units(lib)) == moved
    outs = lib(data)
    for got, expected in zip(
        outs if second_use else [outs],
        want if want is not None else [np.asarray(xrelay.evaluate(mod, data))],
        strict=True,
    ):
        got = np.asarray(got)
        assert np.array_equal(np.isnan(got), np.isnan(expected))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
        zeros = expected == 0
        assert not np.signbit(got[zeros]).any()  # relu's zeros are +0


def _geometry(oh: int, top: int) -> pool_nhwc.PoolNhwc:
    """A 2x2 max pool of stride 3 (rows) over 4x4 pixels of 8 channels."""
    return pool_nhwc.PoolNhwc(1, 4, 4, 8, oh, 3, 2, 2, 3, 1, 1, 1, top, 0, True)


def test_every_window_reads_input() -> None:
    assert pool_nhwc.every_window_reads_input(_geometry(oh=2, top=0))
    # with 3 rows of top padding the first window covers rows -3 and -2 only: it gives the
    # lowest float, which relu would make 0, so relu and the pool do not commute there
    assert not pool_nhwc.every_window_reads_input(_geometry(oh=3, top=3))
