"""The host's float32 NHWC `nn.conv2d` (`codegen/kernels/conv_nhwc.py`): HWIO and OHWI
weights against the interpreter and a float64 numpy conv over shapes (odd widths, channels
not a multiple of the vector width, stride 2, dilation 2, asymmetric padding, groups 1 / 2 /
3, depthwise with multiplier 1 and 2, batch 2, a kernel wider than the input), with the
native and the portable vectors and under ASan and UBSan; every epilogue on a hand-made
`Epilogue`, a fused conv + bias + relu chain, and NaN and infinities in data and weights.
Bound as `test_conv2d_c.py`'s: the float32 sum of `C/groups * KH * KW` products."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from test_conv2d_c import ACTIVATIONS, check, conv_op, conv_reference, run_routine
from testlib.accel_cases import build, emit, text
from testlib.sanitized import main_inputs, main_outputs, run_main
from xrelay.codegen.c.epilogue import Activation, Epilogue
from xrelay.codegen.c.kernels_conv2d import takes
from xrelay.dialects.relay.nn import Conv2DOp

import xrelay
from xrelay import IRModule, relay
from xrelay.runtime import Library

Array = np.ndarray[Any, Any]

# (label, NCHW data shape, OIHW weight shape, conv2d keywords)
CASES: list[tuple[str, tuple[int, ...], tuple[int, ...], dict[str, Any]]] = [
    ("3x3 pad 1, 16 -> 24, width 56", (1, 16, 12, 56), (24, 16, 3, 3), {"padding": (1, 1)}),
    ("stride 2, asymmetric pad, batch 2, 5 -> 11", (2, 5, 9, 13), (11, 5, 3, 3),
     {"padding": (1, 2, 0, 1), "strides": (2, 2)}),
    ("dilation 2, groups 2", (1, 4, 11, 19), (8, 2, 3, 3),
     {"padding": (2, 2), "dilation": (2, 2), "groups": 2}),
    ("groups 3, strides 1x2, 3x5, batch 2", (2, 6, 7, 17), (9, 2, 3, 5),
     {"padding": (1, 2), "strides": (1, 2), "groups": 3}),
    ("1x1 stride 2, 37 -> 70 channels", (1, 37, 9, 9), (70, 37, 1, 1), {"strides": (2, 2)}),
    ("1x1 padded", (1, 3, 4, 5), (5, 3, 1, 1), {"padding": (1, 0, 0, 2)}),
    ("depthwise 3x3 pad 1, 6 ch, width 37", (1, 6, 10, 37), (6, 1, 3, 3),
     {"padding": (1, 1), "groups": 6}),
    ("depthwise 40 ch, dilation 2, asymmetric pad", (1, 40, 9, 21), (40, 1, 3, 3),
     {"padding": (2, 1, 0, 3), "dilation": (2, 2), "groups": 40}),
    ("depthwise multiplier 2, 5x5, stride 2, batch 2", (2, 3, 12, 20), (6, 1, 5, 5),
     {"padding": (2, 2), "strides": (2, 2), "groups": 3}),
    ("depthwise multiplier 2, 19 ch", (1, 19, 6, 11), (38, 1, 3, 3),
     {"padding": (1, 1), "groups": 19}),
    ("7x7 stride 2 pad 3, 3 -> 10", (1, 3, 21, 35), (10, 3, 7, 7),
     {"padding": (3, 3), "strides": (2, 2)}),
    ("kernel wider than the input", (1, 2, 2, 3), (3, 2, 3, 3), {"padding": (1, 1)}),
]  # fmt: skip

LAYOUTS = ("HWIO", "OHWI")


def to_layout(oihw: Array, layout: str) -> Array:
    """OIHW weights in `layout`."""
    order = (2, 3, 1, 0) if layout == "HWIO" else (0, 2, 3, 1)
    return np.ascontiguousarray(oihw.transpose(order))


def nhwc(nchw: Array) -> Array:
    return np.ascontiguousarray(nchw.transpose(0, 2, 3, 1))


def cases_module(seed: int) -> tuple[IRModule, list[Array]]:
    """Every case in both layouts as one module, and random inputs for it."""
    rng = np.random.default_rng(seed)
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for i, (_, dshape, wshape, kwargs) in enumerate(CASES):
        data = nhwc(rng.standard_normal(dshape).astype("float32"))
        oihw = rng.standard_normal(wshape).astype("float32")
        for layout in LAYOUTS:
            weights = to_layout(oihw, layout)
            x = relay.var(f"x{i}{layout}", shape=data.shape, dtype="float32")
            w = relay.var(f"w{i}{layout}", shape=weights.shape, dtype="float32")
            params += [x, w]
            values += [data, weights]
            outputs.append(
                relay.nn.conv2d(x, w, data_layout="NHWC", kernel_layout=layout, **kwargs)
            )
    return IRModule.from_expr(relay.Function(params, relay.Tuple(outputs))), values


def expected(values: list[Array]) -> list[tuple[Array, Array, int]]:
    """Per output of `cases_module` on `values`: the float64 (conv, conv of the magnitudes)
    in NHWC, by numpy on the NCHW / OIHW copies, and the tap count."""
    found: list[tuple[Array, Array, int]] = []
    for number in range(len(values) // 2):
        _, _, wshape, kwargs = CASES[number // 2]
        data, weights = values[2 * number], values[2 * number + 1]
        order = (3, 2, 0, 1) if LAYOUTS[number % 2] == "HWIO" else (0, 3, 1, 2)
        want, mag = conv_reference(
            data.transpose(0, 3, 1, 2).astype(np.float64), weights.transpose(order),
            kwargs.get("strides", (1, 1)), kwargs.get("padding", (0, 0)),
            kwargs.get("dilation", (1, 1)), kwargs.get("groups", 1),
        )  # fmt: skip
        found.append((nhwc(want), nhwc(mag), wshape[1] * wshape[2] * wshape[3]))
    return found


def check_all(got: list[Array], expected: list[tuple[Array, Array, int]]) -> None:
    for number, (g, (want, mag, taps)) in enumerate(zip(got, expected, strict=True)):
        label = f"{CASES[number // 2][0]} {LAYOUTS[number % 2]}"
        check(label, g, want, mag, taps)


def test_nhwc_convs_match_the_interpreter_and_numpy(cache: Path) -> None:
    mod, values = cases_module(0)
    convs = [op for op in mod.module.walk() if isinstance(op, Conv2DOp)]
    assert all(takes(op) for op in convs)  # and so EPILOGUE_PRODUCERS takes them
    sources = emit(mod)
    host = text(sources, "model.c")
    assert host.count("/* the shared NHWC direct kernel (codegen/kernels) */") == 16
    assert host.count("/* the shared NHWC depthwise kernel (codegen/kernels) */") == 8
    units = "".join(text(sources, name) for name in sources.files if "generated" in name)
    assert "xn_spread(" in units  # the multiplier-2 depthwise cases gather their inputs
    for target_flags in (True, False):  # the machine's vectors, then the portable 4 lanes
        got = [np.asarray(g) for g in Library(build(sources, cache, target_flags))(*values)]
        check_all(got, expected(values))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got = [np.asarray(g) for g in lib(*values)]
    for g, w in zip(got, xrelay.evaluate(mod, *values), strict=True):
        w = np.asarray(w)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(w).max())))


def test_the_nhwc_kernels_are_clean_under_sanitizers(cache: Path, tmp_path: Path) -> None:
    """Every case (edge columns, partial channel vectors, groups, gathers) under ASan and
    UBSan: no read past the data, the weights or the output's last channel."""
    mod, values = cases_module(1)
    stdout = run_main(emit(mod), cache, tmp_path)
    want = expected(main_inputs(values))
    got = [
        np.array(printed, dtype=np.float64).reshape(w.shape)
        for printed, (w, _, _) in zip(main_outputs(stdout), want, strict=True)
    ]
    check_all(got, want)


def test_nan_and_inf(cache: Path) -> None:
    """A NaN or an infinity in the data reaches exactly the outputs whose window holds it;
    an infinite or NaN weight adds nothing where its tap falls in the padding (the kernels
    skip those taps), as the interpreter's sums."""
    x = relay.var("x", shape=(1, 8, 21, 3), dtype="float32")
    w = relay.var("w", shape=(3, 3, 3, 4), dtype="float32")
    d = relay.var("d", shape=(3, 3, 1, 3), dtype="float32")
    body = relay.Tuple([
        relay.nn.conv2d(x, w, padding=(1, 1), strides=(2, 1), data_layout="NHWC",
                        kernel_layout="HWIO"),
        relay.nn.conv2d(x, d, padding=(1, 1), groups=3, data_layout="NHWC",
                        kernel_layout="HWIO"),
    ])  # fmt: skip
    mod = IRModule.from_expr(relay.Function([x, w, d], body))
    rng = np.random.default_rng(3)
    xv = rng.standard_normal((1, 8, 21, 3)).astype("float32")
    xv[0, 2, 5, 0], xv[0, 7, 20, 1], xv[0, 0, 0, 2] = np.nan, np.inf, -np.inf
    wv = rng.uniform(0.5, 1.0, (3, 3, 3, 4)).astype("float32")
    dv = rng.uniform(0.5, 1.0, (3, 3, 1, 3)).astype("float32")
    wi, di = wv.copy(), dv.copy()
    wi[0, 0, 1, 2], wi[2, 2, 0, 0], di[1, 0, 0, 1] = np.inf, np.nan, -np.inf
    lib = xrelay.build(mod, options={"cache_dir": cache})
    clean = np.nan_to_num(xv, nan=0.5, posinf=2.0, neginf=-2.0)
    for inputs in ((xv, wv, dv), (clean, wi, di)):
        got = [np.asarray(g) for g in lib(*inputs)]
        want = [np.asarray(v) for v in xrelay.evaluate(mod, *inputs)]
        for g, v in zip(got, want, strict=True):
            assert np.isnan(v).any() or np.isinf(v).any()
            assert np.array_equal(np.isnan(g), np.isnan(v))
            assert np.array_equal(np.isposinf(g), np.isposinf(v))
            assert np.array_equal(np.isneginf(g), np.isneginf(v))
            finite = np.isfinite(v)
            np.testing.assert_allclose(g[finite], v[finite], rtol=1e-4, atol=1e-4)


EPILOGUE_CASES: list[tuple[tuple[int, ...], tuple[int, ...], dict[str, Any]]] = [
    ((1, 7, 9, 30), (21, 7, 3, 3), {"padding": (1, 1)}),
    ((2, 4, 6, 19), (6, 2, 3, 3), {"padding": (1, 0, 2, 1), "groups": 2, "strides": (2, 2)}),
    ((1, 20, 8, 13), (20, 1, 3, 3), {"padding": (1, 1), "groups": 20}),
    ((1, 5, 8, 9), (10, 1, 3, 3), {"padding": (1, 1), "groups": 5}),  # multiplier 2
]


@pytest.mark.parametrize("activation", [None, *ACTIVATIONS])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_epilogue_in_the_store(activation: str | None, layout: str, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    for number, (dshape, wshape, kwargs) in enumerate(EPILOGUE_CASES):
        x = rng.standard_normal(dshape).astype(np.float32)
        oihw = (rng.standard_normal(wshape) / np.sqrt(wshape[1] * 9)).astype(np.float32)
        weights = to_layout(oihw, layout)
        op = conv_op(nhwc(x).shape, weights.shape, data_layout="NHWC", kernel_layout=layout,
                     **kwargs)  # fmt: skip
        want, _ = conv_reference(
            x.astype(np.float64), oihw, kwargs.get("strides", (1, 1)),
            kwargs.get("padding", (0, 0)), (1, 1), kwargs.get("groups", 1),
        )  # fmt: skip
        want = nhwc(want)
        bias = rng.standard_normal(wshape[0]).astype(np.float32)
        residual = rng.standard_normal(want.shape).astype(np.float32)
        for with_bias, with_residual in ((True, True), (True, False), (False, True)):
            epilogue = Epilogue(
                "in2" if with_bias else None,
                ("in3" if with_bias else "in2") if with_residual else None,
                cast(Activation | None, activation),
                (-0.5, 0.75) if activation == "clip" else None,
            )
            arrays = [nhwc(x), weights, *([bias] if with_bias else []),
                      *([residual] if with_residual else [])]  # fmt: skip
            got = run_routine(op, epilogue, arrays, tmp_path)
            total = want.copy()
            if with_bias:
                total += bias.astype(np.float64)
            if with_residual:
                total += residual
            if activation is not None:
                total = ACTIVATIONS[activation](total)
            label = f"case {number} bias={with_bias} residual={with_residual} {activation}"
            error = np.abs(got.astype(np.float64) - total)
            scale = max(1.0, float(np.max(np.abs(total))))
            assert float(np.max(error)) <= 1e-5 * scale, (label, float(np.max(error)))


def test_bias_relu_fuse_into_the_nhwc_kernel(cache: Path) -> None:
    """conv2d + bias_add (axis 3) + relu in NHWC: one kernel, no elementwise loop after it."""
    rng = np.random.default_rng(9)
    x = relay.var("x", shape=(1, 9, 13, 6), dtype="float32")
    wv = rng.standard_normal((3, 3, 6, 20)).astype("float32")
    bv = rng.standard_normal(20).astype("float32")
    conv = relay.nn.conv2d(x, relay.const(wv), padding=(1, 1), data_layout="NHWC",
                           kernel_layout="HWIO")  # fmt: skip
    y = relay.nn.relu(relay.nn.bias_add(conv, relay.const(bv), axis=3))
    mod = IRModule.from_expr(relay.Function([x], y))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    host = lib.sources.files["model.c"]
    assert isinstance(host, str)
    assert "/* the shared NHWC direct kernel (codegen/kernels) */" in host
    assert "/* fused: relay.add, relay.nn.relu */" in host  # the kernel's store applies them
    assert "for (" not in host[host.index("void xk_fused") :]  # no elementwise loop
    xv = rng.standard_normal((1, 9, 13, 6)).astype("float32")
    want = np.asarray(xrelay.evaluate(mod, xv))
    np.testing.assert_allclose(lib(xv), want, rtol=1e-5, atol=1e-5 * float(np.abs(want).max()))
