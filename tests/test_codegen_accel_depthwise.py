"""accel's depthwise convolution (`conv_depthwise.py`): NCHW / OIHW, groups = input channels,
built and run against the interpreter over kernel sizes, strides, paddings, dilations,
channel multipliers, widths and epilogues, with the native and the portable vectors, on
threads, and under ASan and UBSan."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from testlib.accel_cases import ATOL, RTOL, Partitions, accel_code, build, emit
from testlib.sanitized import main_inputs, main_outputs, run_main
from xrelay.dialects import accel

import xrelay
from xrelay.runtime import Library

PAD1, PAD2 = [1, 1, 1, 1], [2, 2, 2, 2]


def depthwise_cases() -> Partitions:
    p = Partitions(31)
    conv = accel.Conv2DOp
    relu6 = {"clip_min": 0.0, "clip_max": 6.0}
    p.add("3x3, pad 1, bias, ReLU6, width 40", conv, [(1, 8, 9, 40), (8, 1, 3, 3), (8,)],
          groups=8, padding=PAD1, has_bias=True, **relu6)  # fmt: skip
    p.add("3x3, stride 2, pad 1, width 33", conv, [(1, 6, 11, 33), (6, 1, 3, 3), (6,)],
          groups=6, strides=[2, 2], padding=PAD1, has_bias=True, has_relu=True)  # fmt: skip
    p.add("3x3, stride 2, pad 0 1 1 0", conv, [(1, 3, 10, 10), (3, 1, 3, 3)], groups=3,
          strides=[2, 2], padding=[0, 1, 1, 0])  # fmt: skip
    p.add("5x5, pad 2, width 17", conv, [(1, 4, 8, 17), (4, 1, 5, 5), (4,)], groups=4,
          padding=PAD2, has_bias=True, **relu6)  # fmt: skip
    p.add("5x5, stride 2, pad 2", conv, [(1, 5, 13, 21), (5, 1, 5, 5)], groups=5,
          strides=[2, 2], padding=PAD2, has_relu=True)  # fmt: skip
    p.add("3x3, dilation 2, pad 2", conv, [(1, 4, 9, 19), (4, 1, 3, 3), (4,)], groups=4,
          dilation=[2, 2], padding=PAD2, has_bias=True)  # fmt: skip
    p.add("3x3, strides 2x3, dilation 3x2, asymmetric pad", conv,
          [(1, 3, 14, 23), (3, 1, 3, 3)], groups=3, strides=[2, 3], dilation=[3, 2],
          padding=[1, 2, 3, 0])  # fmt: skip
    p.add("multiplier 2", conv, [(1, 3, 7, 20), (6, 1, 3, 3), (6,)], groups=3, padding=PAD1,
          has_bias=True, clip_min=-0.5, clip_max=0.75)  # fmt: skip
    p.add("multiplier 3, stride 2, batch 2", conv, [(2, 2, 9, 9), (6, 1, 3, 3)], groups=2,
          strides=[2, 2], padding=PAD1)  # fmt: skip
    p.add("residual, bias, relu", conv, [(1, 4, 6, 35), (4, 1, 3, 3), (4,), (1, 4, 6, 35)],
          groups=4, padding=PAD1, has_bias=True, has_residual=True, has_relu=True)  # fmt: skip
    p.add("residual, partial row", conv, [(1, 2, 5, 7), (2, 1, 3, 3), (1, 2, 2, 3)], groups=2,
          strides=[2, 2], has_residual=True)  # fmt: skip
    p.add("kernel over the padding", conv, [(1, 2, 2, 2), (2, 1, 3, 3)], groups=2,
          padding=PAD1)  # fmt: skip
    p.add("2x4 kernel, width 70: a full block of 4 vectors", conv,
          [(1, 3, 4, 70), (3, 1, 2, 4), (3,)], groups=3, padding=[0, 1, 1, 2],
          has_bias=True)  # fmt: skip
    return p


def test_depthwise_kernel_matches_the_interpreter(cache: Path) -> None:
    p = depthwise_cases()
    sources = p.check(cache)
    unit = accel_code(sources)
    assert unit.count("const float *restrict plane = in0 + q *") == len(p.labels)
    assert "acc[x] += wv * row[" not in unit  # no case falls back to the generic kernel
    assert "= xa_clip(a0, 0x0.0p+0f, 0x1.8000000000000p+2f);" in unit
    p.check(cache, target_flags=False)  # the portable vectors of 4 floats


def test_depthwise_with_nan_and_inf(cache: Path) -> None:
    """A NaN or infinity in a plane reaches exactly the outputs whose taps hold it."""
    p = Partitions(32)
    p.add("3x3 ReLU6", accel.Conv2DOp, [(1, 3, 6, 18), (3, 1, 3, 3), (3,)], groups=3,
          padding=PAD1, has_bias=True, clip_min=0.0, clip_max=6.0)  # fmt: skip
    p.add("3x3 stride 2", accel.Conv2DOp, [(1, 3, 6, 18), (3, 1, 3, 3)], groups=3,
          strides=[2, 2], padding=PAD1)  # fmt: skip
    for data in (p.values[0], p.values[3]):
        data[0, 0, 2, 5], data[0, 1, 3, 17], data[0, 2, 0, 0] = np.nan, np.inf, -np.inf
    mod = p.module()
    lib = Library(build(emit(mod), cache))
    got, want = lib(*p.values), xrelay.evaluate(mod, *p.values)
    for label, g, w in zip(p.labels, got, want, strict=True):
        w = np.asarray(w)
        assert np.isnan(g).any(), label
        assert np.array_equal(np.isnan(g), np.isnan(w)), label
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=label)


def test_depthwise_on_threads_under_the_sanitizers(cache: Path, tmp_path: Path) -> None:
    """Built with ASan and UBSan, run from C on 3 threads: no report, the interpreter's
    outputs (planes split across threads, each thread's scratch on its stack)."""
    p = Partitions(33)
    conv = accel.Conv2DOp
    p.add("32 channels, 3x3 stride 1", conv, [(1, 32, 12, 40), (32, 1, 3, 3), (32,)],
          groups=32, padding=PAD1, has_bias=True, clip_min=0.0, clip_max=6.0)  # fmt: skip
    p.add("24 channels x 2, 5x5 stride 2", conv, [(2, 24, 11, 30), (48, 1, 5, 5)], groups=24,
          strides=[2, 2], padding=PAD2, has_relu=True)  # fmt: skip
    p.add("dilation 2, residual", conv,
          [(1, 16, 9, 17), (16, 1, 3, 3), (16,), (1, 16, 9, 17)], groups=16, dilation=[2, 2],
          padding=PAD2, has_bias=True, has_residual=True)  # fmt: skip
    mod = p.module()
    sources = emit(mod, num_threads=3)
    assert "xn_parallel(xa_nt, " in accel_code(sources)
    stdout = run_main(sources, cache, tmp_path)
    got, inputs = main_outputs(stdout), main_inputs(p.values)
    for label, printed, want in zip(p.labels, got, xrelay.evaluate(mod, *inputs), strict=True):
        values = np.array(printed, dtype=np.float64)
        assert np.allclose(values, np.asarray(want).ravel(), rtol=RTOL, atol=ATOL), label
