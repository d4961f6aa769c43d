"""The host's float32 NCHW and NHWC pools through the shared library's vectorized kernels
(`codegen/c/kernels_pool2d.py`, `codegen/kernels/pool.py`, `codegen/kernels/pool_nhwc.py`;
the NHWC ones read the same input as 2 images of 3x11 pixels of 37 channels) against the
interpreter: pool sizes,
strides, dilation, asymmetric padding, `ceil_mode`, `count_include_pad`, windows lying in the
padding, odd widths, batch 2, NaN and infinities; with the native and the portable vectors
and under ASan and UBSan. Max pools are exact; averages sum at most `KH * KW` floats (global
ones `H * W`) in float32."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from testlib.accel_cases import build, emit, text
from testlib.sanitized import main_inputs, main_outputs, run_main

import xrelay
from xrelay import IRModule, relay
from xrelay.runtime import Library

Array = np.ndarray[Any, Any]
SHAPE = (2, 3, 11, 37)


def pools(x: relay.Expr) -> list[relay.Expr]:
    max_pool, avg_pool = relay.nn.max_pool2d, relay.nn.avg_pool2d
    return [
        max_pool(x, (3, 3), (2, 2), padding=(1, 1)),
        max_pool(x, (2, 2), (2, 2), ceil_mode=True),
        max_pool(x, (3, 3), (1, 2), dilation=(2, 2), padding=(2, 1, 0, 3)),
        max_pool(x, (3, 3), (3, 3), padding=(3, 3), ceil_mode=True),  # windows in the padding
        avg_pool(x, (3, 3), (2, 2), padding=(1, 1)),
        avg_pool(x, (3, 3), (2, 2), padding=(1, 1), count_include_pad=True),
        avg_pool(x, (2, 2), (2, 2), ceil_mode=True, count_include_pad=True),
        avg_pool(x, (3, 2), (2, 3), padding=(0, 1, 2, 0), ceil_mode=True),
        avg_pool(x, (3, 3), (2, 2), padding=(2, 0, 0, 1), dilation=(2, 1), count_include_pad=True),
        avg_pool(x, (1, 1), (1, 1)),
        relay.nn.global_avg_pool2d(x),
        relay.nn.global_max_pool2d(x),
    ]


def nhwc_pools(x: relay.Expr) -> list[relay.Expr]:
    max_pool, avg_pool = relay.nn.max_pool2d, relay.nn.avg_pool2d
    return [
        max_pool(x, (3, 3), (2, 2), padding=(1, 1), layout="NHWC"),
        max_pool(x, (3, 2), (1, 2), dilation=(1, 2), padding=(1, 1, 0, 3), layout="NHWC"),
        max_pool(x, (3, 3), (3, 3), padding=(3, 3), ceil_mode=True, layout="NHWC"),
        avg_pool(x, (3, 3), (2, 2), padding=(1, 1), count_include_pad=True, layout="NHWC"),
        avg_pool(x, (2, 3), (2, 3), padding=(0, 1, 2, 0), ceil_mode=True, layout="NHWC"),
    ]


def module() -> IRModule:
    x = relay.var("x", shape=SHAPE, dtype="float32")
    return IRModule.from_expr(relay.Function([x], relay.Tuple([*pools(x), *nhwc_pools(x)])))


def data(seed: int) -> Array:
    x = np.random.default_rng(seed).standard_normal(SHAPE).astype("float32")
    x[0, 0, 3, 4], x[0, 1, 10, 36], x[1, 2, 0, 0], x[1, 0, 5, 17] = np.nan, np.inf, -np.inf, np.nan
    x[1, 1] = -np.inf  # a plane of minus infinity: max windows inside give -inf
    return x


def compare(got: list[Array], want: list[Array]) -> None:
    for number, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, number
        assert np.array_equal(np.isnan(g), np.isnan(w)), number
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=str(number))


def test_pools_match_the_interpreter(cache: Path) -> None:
    mod, x = module(), data(0)
    sources = emit(mod)
    assert text(sources, "model.c").count("/* the shared pool kernel (codegen/kernels) */") == 17
    assert "const xa_v h0 = xa_max(xa_ld(sp[0] + xo)" in text(sources, "kernels_generated.c")
    assert "r3 = xa_max(r3, xa_ld(at + 3 * XA_VL));" in text(sources, "kernels_generated.c")
    want = [np.asarray(w) for w in xrelay.evaluate(mod, x)]
    for target_flags in (True, False):  # the machine's vectors, then the portable 4 lanes
        compare([np.asarray(g) for g in Library(build(sources, cache, target_flags))(x)], want)


def test_other_dtypes_keep_the_loops() -> None:
    x = relay.var("x", shape=(1, 6, 7, 3), dtype="float64")
    y = relay.var("y", shape=(1, 3, 6, 7), dtype="float64")
    body = relay.Tuple([relay.nn.max_pool2d(x, (2, 2), layout="NHWC"),
                        relay.nn.avg_pool2d(y, (2, 2)), relay.nn.global_avg_pool2d(y)])  # fmt: skip
    sources = emit(IRModule.from_expr(relay.Function([x, y], body)))
    assert "kernels_generated.c" not in sources.files


def test_the_pools_are_clean_under_sanitizers(cache: Path, tmp_path: Path) -> None:
    mod = module()
    stdout = run_main(emit(mod), cache, tmp_path)
    (x,) = main_inputs([data(1)])
    want = [np.asarray(w) for w in xrelay.evaluate(mod, x)]
    got = [
        np.array(printed, dtype=np.float64).reshape(w.shape).astype(np.float32)
        for printed, w in zip(main_outputs(stdout), want, strict=True)
    ]
    compare(got, want)
