"""The host's float32 `nn.conv2d` through the shared library's kernels
(`codegen/c/kernels_conv2d.py`: the blocked direct kernel per group, the depthwise kernel),
against the interpreter over shapes: odd widths, channels not a multiple of the register
block, strides, dilations, asymmetric padding, groups 1 / 2 / depthwise / multiplier 2,
batch 2; with the native and the portable vectors, under ASan and UBSan, and with every
epilogue (bias, residual, relu, clip, the lane-wise activations) on a hand-made `Epilogue`.

Bound: each output sums its `taps = C/groups * KH * KW` products in float32, so it is
within about `taps * 2^-24 * sum |w * x|` of the exact sum; checked against twice that
plus the reference's own rounding, and against issue 16's 1e-4 of the output's magnitude.
"""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from testlib.accel_cases import build, emit, text
from testlib.sanitized import main_inputs, main_outputs, run_main
from xdsl.dialects.builtin import ModuleOp
from xrelay.codegen.c.epilogue import EPILOGUE_PRODUCERS, Activation, Epilogue
from xrelay.codegen.c.kernel_api import Kernel, leaf_types
from xrelay.codegen.c.kernels_conv2d import conv2d, takes
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels import CFLAGS, LIBRARIES, closure
from xrelay.codegen.kernels.conv_direct import flat_rows
from xrelay.codegen.kernels.conv_plan import Conv
from xrelay.dialects.relay.nn import Conv2DOp

import xrelay
from xrelay import IRModule, relay
from xrelay.runtime import Library

Array = np.ndarray[Any, Any]

CASES: list[tuple[str, tuple[int, ...], tuple[int, ...], dict[str, Any]]] = [
    ("3x3 pad 1, 16 -> 24, width 56", (1, 16, 12, 56), (24, 16, 3, 3), {"padding": (1, 1)}),
    ("1x1, 13 -> 7 channels, odd width: the GEMM", (1, 13, 5, 23), (7, 13, 1, 1), {}),
    ("1x1 batch 2: a GEMM per image", (2, 9, 4, 5), (6, 9, 1, 1), {}),
    ("1x1 stride 2: the direct kernel", (1, 8, 9, 9), (5, 8, 1, 1), {"strides": (2, 2)}),
    ("stride 2, asymmetric pad, batch 2", (2, 5, 9, 13), (11, 5, 3, 3),
     {"padding": (1, 2, 0, 1), "strides": (2, 2)}),
    ("dilation 2, groups 2", (1, 4, 11, 19), (8, 2, 3, 3),
     {"padding": (2, 2), "dilation": (2, 2), "groups": 2}),
    ("groups 3, strides 1x2, batch 2", (2, 6, 7, 17), (9, 2, 3, 5),
     {"padding": (1, 2), "strides": (1, 2), "groups": 3}),
    ("depthwise 3x3 pad 1, width 37", (1, 6, 10, 37), (6, 1, 3, 3),
     {"padding": (1, 1), "groups": 6}),
    ("depthwise multiplier 2, 5x5, stride 2, batch 2", (2, 3, 12, 20), (6, 1, 5, 5),
     {"padding": (2, 2), "strides": (2, 2), "groups": 3}),
    ("depthwise dilation 2, asymmetric pad", (1, 4, 9, 21), (4, 1, 3, 3),
     {"padding": (2, 1, 0, 3), "dilation": (2, 2), "groups": 4}),
    ("7x7 stride 2 pad 3, 3 -> 10", (1, 3, 21, 35), (10, 3, 7, 7),
     {"padding": (3, 3), "strides": (2, 2)}),
    ("300 channels: the scratch in chunks", (1, 300, 9, 120), (5, 300, 3, 3), {"padding": (1, 1)}),
    ("kernel wider than the input", (1, 2, 2, 3), (3, 2, 3, 3), {"padding": (1, 1)}),
    ("1x1 groups 4: a GEMM per group", (1, 12, 14, 14), (8, 3, 1, 1), {"groups": 4}),
    ("1x1 groups 3, batch 2: a GEMM per image and group", (2, 9, 5, 7), (6, 3, 1, 1),
     {"groups": 3}),
]  # fmt: skip


def conv_reference(
    x: Array, w: Array, strides: tuple[int, int], padding: tuple[int, ...],
    dilation: tuple[int, int], groups: int
) -> tuple[Array, Array]:  # fmt: skip
    """(conv, conv of the magnitudes) in float64, by numpy over the taps."""
    top, left, bottom, right = padding if len(padding) == 4 else (*padding, *padding)
    n, c, h, width = x.shape
    o, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + top + bottom, width + left + right))
    xp[:, :, top : top + h, left : left + width] = x
    oh = (h + top + bottom - (kh - 1) * dilation[0] - 1) // strides[0] + 1
    ow = (width + left + right - (kw - 1) * dilation[1] - 1) // strides[1] + 1
    out, mag = np.zeros((n, o, oh, ow)), np.zeros((n, o, oh, ow))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for ky in range(kh):
            for kx in range(kw):
                ys, xs = ky * dilation[0], kx * dilation[1]
                window = xp[:, g * cg : (g + 1) * cg, ys : ys + oh * strides[0] : strides[0],
                            xs : xs + ow * strides[1] : strides[1]]  # fmt: skip
                tap = w[oc, :, ky, kx].astype(np.float64)[None, :, None, None]
                out[:, oc] += (window * tap).sum(axis=1)
                mag[:, oc] += (np.abs(window) * np.abs(tap)).sum(axis=1)
    return out, mag


def check(label: str, got: Array, want: Array, mag: Array, taps: int) -> None:
    assert got.shape == want.shape, label
    error = np.abs(got.astype(np.float64) - want)
    bound = 2 * taps * 2.0**-24 * mag + 2.0**-24 * np.abs(want) + 1e-30
    assert np.all(error <= bound), (label, float(np.max(error - bound)))
    scale = max(1.0, float(np.max(np.abs(want))))
    assert float(np.max(error)) <= 1e-4 * scale, label


def cases_module(seed: int) -> tuple[IRModule, list[Array]]:
    rng = np.random.default_rng(seed)
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for i, (_, dshape, wshape, kwargs) in enumerate(CASES):
        x = relay.var(f"x{i}", shape=dshape, dtype="float32")
        w = relay.var(f"w{i}", shape=wshape, dtype="float32")
        params += [x, w]
        values += [rng.standard_normal(dshape).astype("float32"),
                   rng.standard_normal(wshape).astype("float32")]  # fmt: skip
        outputs.append(relay.nn.conv2d(x, w, **kwargs))
    return IRModule.from_expr(relay.Function(params, relay.Tuple(outputs))), values


def check_all(got: list[Array], values: list[Array]) -> None:
    for i, (label, _, wshape, kwargs) in enumerate(CASES):
        want, mag = conv_reference(
            values[2 * i].astype(np.float64),
            values[2 * i + 1],
            kwargs.get("strides", (1, 1)),
            kwargs.get("padding", (0, 0)),
            kwargs.get("dilation", (1, 1)),
            kwargs.get("groups", 1),
        )
        check(label, got[i], want, mag, wshape[1] * wshape[2] * wshape[3])


def test_conv2d_matches_the_interpreter_and_numpy(cache: Path) -> None:
    mod, values = cases_module(0)
    sources = emit(mod)
    unit = text(sources, "kernels_generated.c")
    assert sources.unit_cflags["kernels_generated.c"] == ["-march=native", *CFLAGS]
    host = text(sources, "model.c")
    assert host.count("/* the shared direct kernel (codegen/kernels) */") == 8
    assert host.count("/* the shared GEMM kernel (codegen/kernels) */") == 4
    assert host.count("/* the shared depthwise kernel (codegen/kernels) */") == 3
    assert "c0 += " in unit  # the 300-channel case fills its scratch in chunks
    assert "for (int64_t g = 0; g < 3; ++g)" in unit  # one blocked kernel per group
    for target_flags in (True, False):  # the machine's vectors, then the portable 4 lanes
        got = [np.asarray(g) for g in Library(build(sources, cache, target_flags))(*values)]
        check_all(got, values)
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got = [np.asarray(g) for g in lib(*values)]
    want = [np.asarray(w) for w in xrelay.evaluate(mod, *values)]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(w).max())))
    check_all(got, values)


def test_nan_and_inf_reach_exactly_their_outputs(cache: Path) -> None:
    """A NaN or an infinity in the data spreads to the outputs whose window holds it, as the
    interpreter's sums do (the scratch's padding is zero, never a stale value)."""
    x = relay.var("x", shape=(1, 3, 8, 21), dtype="float32")
    w = relay.var("w", shape=(4, 3, 3, 3), dtype="float32")
    d = relay.var("d", shape=(3, 1, 3, 3), dtype="float32")
    body = relay.Tuple([relay.nn.conv2d(x, w, padding=(1, 1), strides=(2, 1)),
                        relay.nn.conv2d(x, d, padding=(1, 1), groups=3)])  # fmt: skip
    mod = IRModule.from_expr(relay.Function([x, w, d], body))
    rng = np.random.default_rng(3)
    xv = rng.standard_normal((1, 3, 8, 21)).astype("float32")
    xv[0, 0, 2, 5], xv[0, 1, 7, 20], xv[0, 2, 0, 0] = np.nan, np.inf, -np.inf
    wv = rng.uniform(0.5, 1.0, (4, 3, 3, 3)).astype("float32")
    dv = rng.uniform(0.5, 1.0, (3, 1, 3, 3)).astype("float32")
    got = xrelay.build(mod, options={"cache_dir": cache})(xv, wv, dv)
    want = xrelay.evaluate(mod, xv, wv, dv)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert np.array_equal(np.isnan(g), np.isnan(w))
        assert np.array_equal(np.isposinf(g), np.isposinf(w))
        assert np.array_equal(np.isneginf(g), np.isneginf(w))
        finite = np.isfinite(w)
        np.testing.assert_allclose(g[finite], w[finite], rtol=1e-4, atol=1e-4)


def grouped_pointwise_module() -> tuple[IRModule, list[Array]]:
    """Grouped 1x1 convs, with a bias and relu (the direct kernel over flattened rows: 49
    columns) and without (a GEMM per group); a NaN and infinities in the data."""
    x = relay.var("x", shape=(2, 6, 7, 7), dtype="float32")
    w = relay.var("w", shape=(4, 3, 1, 1), dtype="float32")
    v = relay.var("v", shape=(9, 2, 1, 1), dtype="float32")
    b = relay.var("b", shape=(4,), dtype="float32")
    fused = relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w, groups=2), b))
    body = relay.Tuple([fused, relay.nn.conv2d(x, v, groups=3)])
    mod = IRModule.from_expr(relay.Function([x, w, v, b], body))
    rng = np.random.default_rng(4)
    xv = rng.standard_normal((2, 6, 7, 7)).astype("float32")
    xv[0, 1, 3, 5], xv[1, 4, 6, 6], xv[1, 0, 0, 0] = np.nan, np.inf, -np.inf
    shapes = ((4, 3, 1, 1), (9, 2, 1, 1), (4,))
    return mod, [xv, *(rng.uniform(0.5, 1.0, s).astype("float32") for s in shapes)]


def test_grouped_pointwise_nan_and_epilogue(cache: Path) -> None:
    """A NaN or an infinity reaches only its pixel's outputs of its own group, as in the
    interpreter."""
    mod, values = grouped_pointwise_module()
    unit = text(emit(mod), "kernels_generated.c")
    assert "float buf[192]" in unit  # 3 channels' rows of 49 columns, padded to 64
    got = xrelay.build(mod, options={"cache_dir": cache})(*values)
    want = xrelay.evaluate(mod, *values)
    for g, r in zip(got, want, strict=True):
        g, r = np.asarray(g), np.asarray(r)
        assert np.array_equal(np.isnan(g), np.isnan(r))
        assert np.array_equal(np.isposinf(g), np.isposinf(r))
        assert np.array_equal(np.isneginf(g), np.isneginf(r))
        finite = np.isfinite(r)
        np.testing.assert_allclose(g[finite], r[finite], rtol=1e-4, atol=1e-4)
    assert np.isnan(np.asarray(got[0])[0, 0, 3, 5])  # channel 1 is group 0's (outputs 0, 1)
    assert np.isfinite(np.asarray(got[0])[0, 2:, 3, 5]).all()


def test_grouped_pointwise_clean_under_sanitizers(cache: Path, tmp_path: Path) -> None:
    mod, values = grouped_pointwise_module()
    stdout = run_main(emit(mod), cache, tmp_path)
    inputs = main_inputs(values)
    want = [np.asarray(o) for o in xrelay.evaluate(mod, *inputs)]
    for printed, r in zip(main_outputs(stdout), want, strict=True):
        got = np.array(printed, dtype=np.float64).reshape(r.shape)
        np.testing.assert_allclose(got, r, rtol=1e-4, atol=1e-4 * float(np.abs(r).max()))


def test_flat_rows_fill_the_vectors() -> None:
    """A 1x1, stride 1, unpadded conv's planes split into the rows that use the most lanes
    (then the widest) within the scratch; other convs unchanged."""

    def conv(c: int, h: int, w: int, k: int = 1, pad: int = 0) -> Conv:
        return Conv(1, c, h, w, 8, k, k, h, w, 1, 1, 1, 1, pad, pad)

    assert (flat_rows(conv(68, 14, 14)).h, flat_rows(conv(68, 14, 14)).w) == (1, 196)
    assert flat_rows(conv(136, 7, 7)).w == 49
    assert flat_rows(conv(136, 7, 7), least=2) == conv(136, 7, 7)  # 7 rows for the threads
    assert flat_rows(conv(16, 8, 12), least=2).w == 48  # 2 rows of 48 (8 rows of 12 fill 75%)
    assert flat_rows(conv(16, 8, 12), least=3).w == 32
    assert flat_rows(conv(34, 28, 28), 32768).w == 784
    assert flat_rows(conv(34, 28, 28)).w == 112  # 34 rows of 784 pass 16384 floats
    assert flat_rows(conv(512, 56, 56), 32768).w == 64  # 49 rows: the scratch holds 512 rows
    assert flat_rows(conv(16, 8, 32)) == conv(16, 8, 32)  # full vectors already
    assert flat_rows(conv(8, 9, 9, 3, 1)) == conv(8, 9, 9, 3, 1)  # a 3x3 conv
    flat = flat_rows(conv(6, 5, 23))
    assert (flat.h, flat.w, flat.oh, flat.ow, flat.in_image, flat.out_image) == (
        1, 115, 1, 115, 6 * 115, 8 * 115)  # fmt: skip


def test_other_dtypes_and_layouts_keep_the_loops() -> None:
    x = relay.var("x", shape=(1, 5, 6, 3), dtype="float32")
    w = relay.var("w", shape=(4, 3, 3, 3), dtype="float32")
    nhwc = relay.nn.conv2d(x, w, data_layout="NHWC", kernel_layout="OIHW")  # NHWC's OIHW
    y = relay.var("y", shape=(1, 3, 5, 6), dtype="float64")
    v = relay.var("v", shape=(4, 3, 3, 3), dtype="float64")
    mod = IRModule.from_expr(
        relay.Function([x, w, y, v], relay.Tuple([nhwc, relay.nn.conv2d(y, v)]))
    )
    sources = emit(mod)
    assert "kernels_generated.c" not in sources.files
    convs = [op for op in mod.module.walk() if isinstance(op, Conv2DOp)]
    assert len(convs) == 2
    assert not any(takes(op) for op in convs)
    assert EPILOGUE_PRODUCERS["relay.nn.conv2d"] is takes


def test_the_kernels_are_clean_under_sanitizers(cache: Path, tmp_path: Path) -> None:
    """Every case (edge columns, channel chunks, groups, depthwise) under ASan and UBSan."""
    mod, values = cases_module(1)
    stdout = run_main(emit(mod), cache, tmp_path)
    inputs = main_inputs(values)
    got = [
        np.array(printed, dtype=np.float64).reshape(w)
        for printed, w in zip(
            main_outputs(stdout), [np.asarray(o).shape for o in xrelay.evaluate(mod, *inputs)],
            strict=True,
        )
    ]  # fmt: skip
    check_all(got, inputs)


# ------------------------------------------------------------------ epilogues

ACTIVATIONS: dict[str, Any] = {
    "relu": lambda v: np.maximum(v, 0.0),
    "clip": lambda v: np.clip(v, -0.5, 0.75),
    "gelu_erf": lambda v: 0.5 * v * (1.0 + np.vectorize(_erf)(v / np.sqrt(2.0))),
    "gelu_tanh": lambda v: 0.5 * v * (1.0 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v**3))),
    "sigmoid": lambda v: 1.0 / (1.0 + np.exp(-v)),
    "tanh": np.tanh,
}


def _erf(v: float) -> float:
    import math

    return math.erf(v)


def conv_op(dshape: tuple[int, ...], wshape: tuple[int, ...], **kwargs: Any) -> Conv2DOp:
    x = relay.var("x", shape=dshape, dtype="float32")
    w = relay.var("w", shape=wshape, dtype="float32")
    mod = IRModule.from_expr(relay.Function([x, w], relay.nn.conv2d(x, w, **kwargs)))
    module: ModuleOp = mod.module
    return next(op for op in module.walk() if isinstance(op, Conv2DOp))


def run_routine(op: Conv2DOp, epilogue: Epilogue, arrays: list[Array], tmp: Path) -> Array:
    """Print `op`'s kernel with `epilogue` (bias `in2`, residual `in3`), compile its routine
    alone with the library's flags and run it on `arrays` (data, weights, bias, residual)."""
    k = Kernel(
        op, CWriter(1), ["in0", "in1"], ["out0"],
        [t for v in op.operands for t in leaf_types(v.type)],
        [t for v in op.results for t in leaf_types(v.type)],
        epilogue=epilogue,
    )  # fmt: skip
    conv2d(k)
    (routine,) = k.routines
    source = tmp / f"{routine.name}.c"
    head = "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n#define XR_HIDDEN\n"
    libraries = [LIBRARIES[name] for name in closure(k.libraries)]  # the GEMM of a 1x1 conv
    text_ = "".join(f"{p}\n" for lib in libraries for p in lib.prototypes)
    text_ += "".join(lib.source for lib in libraries)
    source.write_text(head + text_ + "".join(routine.preludes) + routine.definition())
    shared = tmp / f"{routine.name}.so"
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-Wall", "-Werror", *CFLAGS, str(source), "-o", str(shared),
         "-lm"], check=True,
    )  # fmt: skip
    fn = getattr(ctypes.CDLL(str(shared)), routine.name)
    out = np.full(tuple(k.out_shape()), np.nan, np.float32)
    pointers = [a.ctypes.data_as(ctypes.c_void_p) for a in arrays[:2]]
    pointers.append(out.ctypes.data_as(ctypes.c_void_p))
    pointers += [a.ctypes.data_as(ctypes.c_void_p) for a in arrays[2:]]
    fn(*pointers)
    return out


EPILOGUE_CASES: list[tuple[tuple[int, ...], tuple[int, ...], dict[str, Any]]] = [
    ((1, 7, 9, 30), (10, 7, 3, 3), {"padding": (1, 1)}),
    ((2, 4, 6, 19), (6, 2, 3, 3), {"padding": (1, 0, 2, 1), "groups": 2, "strides": (2, 2)}),
    ((1, 5, 8, 40), (10, 1, 3, 3), {"padding": (1, 1), "groups": 5}),
    ((1, 300, 4, 40), (3, 300, 3, 3), {"padding": (1, 1)}),  # chunks: the epilogue at the last
    ((2, 256, 3, 21), (5, 256, 1, 1), {}),  # 1x1 deep: the GEMM, then the epilogue's pass
    ((1, 6, 5, 37), (4, 6, 1, 1), {}),  # 1x1 shallow: the direct kernel's store
    ((2, 12, 7, 7), (8, 3, 1, 1), {"groups": 4}),  # grouped 1x1: the direct kernel, rows of 49
    ((1, 6, 14, 14), (9, 2, 1, 1), {"groups": 3}),  # rows of 196
    ((1, 4, 5, 23), (6, 2, 1, 1), {"groups": 2}),  # rows of 115
]


@pytest.mark.parametrize("activation", [None, *ACTIVATIONS])
def test_every_epilogue_in_the_store(activation: str | None, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    for number, (dshape, wshape, kwargs) in enumerate(EPILOGUE_CASES):
        op = conv_op(dshape, wshape, **kwargs)
        x = rng.standard_normal(dshape).astype(np.float32)
        w = (rng.standard_normal(wshape) / np.sqrt(wshape[1] * 9)).astype(np.float32)
        want, _ = conv_reference(
            x.astype(np.float64), w, kwargs.get("strides", (1, 1)),
            kwargs.get("padding", (0, 0)), (1, 1), kwargs.get("groups", 1),
        )  # fmt: skip
        bias = rng.standard_normal(wshape[0]).astype(np.float32)
        residual = rng.standard_normal(want.shape).astype(np.float32)
        for with_bias, with_residual in ((True, True), (True, False), (False, True)):
            epilogue = Epilogue(
                "in2" if with_bias else None,
                ("in3" if with_bias else "in2") if with_residual else None,
                cast(Activation | None, activation),
                (-0.5, 0.75) if activation == "clip" else None,
            )
            arrays = [x, w, *([bias] if with_bias else []), *([residual] if with_residual else [])]
            got = run_routine(op, epilogue, arrays, tmp_path)
            total = want.copy()
            if with_bias:
                total += bias.astype(np.float64)[None, :, None, None]
            if with_residual:
                total += residual
            if activation is not None:
                total = ACTIVATIONS[activation](total)
            label = f"case {number} bias={with_bias} residual={with_residual} {activation}"
            error = np.abs(got.astype(np.float64) - total)
            scale = max(1.0, float(np.max(np.abs(total))))
            assert float(np.max(error)) <= 1e-5 * scale, (label, float(np.max(error)))


def test_nhwc_pointwise_convs_are_one_gemm(cache: Path) -> None:
    rng = np.random.default_rng(11)
    x = relay.var("x", shape=(2, 5, 7, 19), dtype="float32")
    hwio = relay.var("hwio", shape=(1, 1, 19, 13), dtype="float32")
    ohwi = relay.var("ohwi", shape=(13, 1, 1, 19), dtype="float32")
    wide = relay.var("wide", shape=(3, 3, 19, 4), dtype="float32")
    body = relay.Tuple([
        relay.nn.conv2d(x, hwio, data_layout="NHWC", kernel_layout="HWIO"),
        relay.nn.conv2d(x, ohwi, data_layout="NHWC", kernel_layout="OHWI"),
        relay.nn.conv2d(x, wide, data_layout="NHWC", kernel_layout="HWIO", padding=(1, 1)),
    ])  # fmt: skip
    mod = IRModule.from_expr(relay.Function([x, hwio, ohwi, wide], body))
    shapes = [(2, 5, 7, 19), (1, 1, 19, 13), (13, 1, 1, 19), (3, 3, 19, 4)]
    values = [rng.standard_normal(shape).astype("float32") for shape in shapes]
    sources = emit(mod)
    assert text(sources, "model.c").count("/* the shared GEMM kernel (codegen/kernels) */") == 2
    got = [np.asarray(g) for g in Library(build(sources, cache))(*values)]
    data = values[0].astype(np.float64)
    weights = [values[1][0, 0].astype(np.float64), values[2][:, 0, 0].T.astype(np.float64)]
    for g, wm in zip(got[:2], weights, strict=True):
        want = np.einsum("nhwc,co->nhwo", data, wm)
        mag = np.einsum("nhwc,co->nhwo", np.abs(data), np.abs(wm))
        check("nhwc 1x1", g, want, mag, 19)
    ref = np.asarray(xrelay.evaluate(mod, *values)[2])
    np.testing.assert_allclose(got[2], ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("activation", [None, "relu", "clip", "sigmoid"])
def test_nhwc_pointwise_epilogue(activation: str | None, tmp_path: Path) -> None:
    rng = np.random.default_rng(12)
    op = conv_op((2, 3, 4, 21), (17, 1, 1, 21), data_layout="NHWC", kernel_layout="OHWI")
    x = rng.standard_normal((2, 3, 4, 21)).astype(np.float32)
    w = rng.standard_normal((17, 1, 1, 21)).astype(np.float32)
    bias = rng.standard_normal(17).astype(np.float32)
    residual = rng.standard_normal((2, 3, 4, 17)).astype(np.float32)
    epilogue = Epilogue("in2", "in3", cast(Activation | None, activation),
                        (-0.5, 0.75) if activation == "clip" else None)  # fmt: skip
    got = run_routine(op, epilogue, [x, w, bias, residual], tmp_path)
    total = np.einsum("nhwc,oc->nhwo", x.astype(np.float64), w[:, 0, 0]) + bias + residual
    if activation is not None:
        total = ACTIVATIONS[activation](total)
    np.testing.assert_allclose(got, total, rtol=1e-5, atol=1e-5 * float(np.abs(total).max()))


def test_infinite_weights_meet_no_padding(cache: Path) -> None:
    """A weight of +-Inf or NaN adds nothing where its tap falls in the padding, as the
    reference (docs/semantics.md): such weights take the loops, then the epilogue."""
    x = relay.var("x", shape=(1, 3, 6, 9), dtype="float32")
    w = relay.var("w", shape=(4, 3, 3, 3), dtype="float32")
    d = relay.var("d", shape=(3, 1, 3, 3), dtype="float32")
    body = relay.Tuple([relay.nn.conv2d(x, w, padding=(1, 1)),
                        relay.nn.conv2d(x, d, padding=(1, 1), groups=3, strides=(2, 2))])  # fmt: skip
    mod = IRModule.from_expr(relay.Function([x, w, d], body))
    rng = np.random.default_rng(5)
    xv = rng.standard_normal((1, 3, 6, 9)).astype("float32")
    wv = rng.standard_normal((4, 3, 3, 3)).astype("float32")
    dv = rng.standard_normal((3, 1, 3, 3)).astype("float32")
    wv[1, 0, 0, 0], wv[2, 1, 2, 2], dv[0, 0, 1, 0] = np.inf, np.nan, -np.inf
    lib = xrelay.build(mod, options={"cache_dir": cache})
    for weights in ((wv, dv), (np.nan_to_num(wv), np.nan_to_num(dv))):
        got = [np.asarray(g) for g in lib(xv, *weights)]
        want = [np.asarray(v) for v in xrelay.evaluate(mod, xv, *weights)]
        for g, v in zip(got, want, strict=True):
            assert np.array_equal(np.isnan(g), np.isnan(v))
            assert np.array_equal(np.isinf(g), np.isinf(v))
            finite = np.isfinite(v)
            np.testing.assert_allclose(g[finite], v[finite], rtol=1e-4, atol=1e-4)
