"""The accel C emitter, op by op: accel functions printed, compiled, run, checked against the interpreter.

Each family builds one module: one `Compiler = "accel"` function per case (a
single accel op with its attributes), a host `main` calling them all. It is
planned (`plan-memory`), printed by `CEmitter` (the accel functions go to
`accel.c`), built with `compile_library`, loaded as a runtime `Library` and
run on seeded random inputs; every output must equal `xrelay.evaluate`
(the accel reference semantics) within float32 tolerance. Then: the real flow
(partition, optimize, lower, plan, emit), names made to inject C, split
translation units, and the errors of ops accel cannot emit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.accel_cases import ATOL, RTOL, Partitions, accel_code, build, emit, text
from testlib.sanitized import main_inputs, main_outputs, run_main
from xrelay.codegen.build import compile_library
from xrelay.codegen.c import CEmitter
from xrelay.codegen.c.pipeline import check_options
from xrelay.dialects import accel
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.passes.convert_relay_to_accel import ConvertRelayToAccel
from xrelay.passes.partition_for import partition_for
from xrelay.passes.plan_memory import PlanMemory

import xrelay
from xrelay.runtime import Library


def test_conv2d_attributes_bias_and_relu(cache: Path) -> None:
    p = Partitions(1)
    conv = accel.Conv2DOp
    p.add("plain", conv, [(1, 3, 7, 7), (4, 3, 3, 3)])
    p.add("pad 1, bias, relu", conv, [(2, 3, 6, 6), (5, 3, 3, 3), (5,)], padding=[1, 1, 1, 1],
          has_bias=True, has_relu=True)  # fmt: skip
    p.add("stride 2, asymmetric pad, bias", conv, [(1, 2, 9, 8), (3, 2, 3, 3), (3,)],
          strides=[2, 2], padding=[1, 0, 2, 1], has_bias=True)  # fmt: skip
    p.add("dilation 2, relu", conv, [(1, 2, 9, 9), (3, 2, 3, 3)], dilation=[2, 2],
          padding=[2, 2, 2, 2], has_relu=True)  # fmt: skip
    p.add("groups 2", conv, [(2, 4, 6, 6), (6, 2, 3, 3), (6,)], groups=2, strides=[1, 2],
          padding=[1, 1, 1, 1], has_bias=True, has_relu=True)  # fmt: skip
    p.add("depthwise", conv, [(1, 4, 5, 5), (4, 1, 3, 3)], groups=4, padding=[1, 1, 1, 1])
    p.add("1x1, bias", conv, [(1, 8, 4, 4), (5, 8, 1, 1), (5,)], has_bias=True)
    p.add("kernel over the padding", conv, [(1, 2, 2, 2), (3, 2, 3, 3)], padding=[1, 1, 1, 1])
    p.add("stride past the kernel", conv, [(1, 2, 8, 8), (2, 2, 2, 2)], strides=[3, 3])
    p.add("rectangular", conv, [(1, 2, 5, 9), (3, 2, 2, 4), (3,)], strides=[2, 3],
          dilation=[2, 1], padding=[1, 2, 1, 2], has_bias=True, has_relu=True)  # fmt: skip
    p.add("NHWC/HWIO", conv, [(1, 6, 6, 3), (3, 3, 3, 4), (4,)], data_layout="NHWC",
          kernel_layout="HWIO", strides=[2, 2], padding=[1, 1, 1, 1], has_bias=True,
          has_relu=True)  # fmt: skip
    p.add("NCHW/OHWI", conv, [(1, 3, 5, 5), (4, 3, 3, 3)], kernel_layout="OHWI",
          padding=[1, 1, 1, 1])  # fmt: skip
    p.add("NHWC/HWOI depthwise", conv, [(1, 5, 5, 4), (3, 3, 4, 1), (4,)], data_layout="NHWC",
          kernel_layout="HWOI", groups=4, dilation=[2, 2], padding=[2, 2, 2, 2],
          has_bias=True)  # fmt: skip
    sources = p.check(cache)
    unit = accel_code(sources)
    assert "acc[x] += wv * row[" in unit
    assert "const float start = in2[oc];" in unit  # the bias starts the accumulators
    assert "(acc[x] <= 0.0f ? 0.0f : acc[x])" in unit  # relu as the row is stored
    assert "void xk_tvmgen_default_accel_main_0(" not in text(sources, "model.c")


def test_blocked_conv2d(cache: Path) -> None:
    """NCHW / OIHW, not depthwise: the register-blocked kernel (per group), on widths and channel counts that
    are and are not multiples of its blocks, strides, padding, dilation, 3 input channels,
    a residual, and input channels in several scratch chunks."""
    p = Partitions(7)
    conv = accel.Conv2DOp
    pad1 = [1, 1, 1, 1]
    p.add("16->16, width 33", conv, [(1, 16, 5, 33), (16, 16, 3, 3), (16,)], padding=pad1,
          has_bias=True, has_relu=True)  # fmt: skip
    p.add("3 input channels, width 13", conv, [(1, 3, 6, 13), (16, 3, 3, 3), (16,)],
          padding=pad1, has_bias=True, has_relu=True)  # fmt: skip
    p.add("5 channels, width 7, batch 2", conv, [(2, 4, 7, 7), (5, 4, 3, 3)], padding=pad1)
    p.add("17 channels: a rest block", conv, [(1, 2, 4, 16), (17, 2, 3, 3), (17,)],
          padding=pad1, has_bias=True)  # fmt: skip
    p.add("32 channels, width 48", conv, [(1, 2, 3, 48), (32, 2, 3, 3)], padding=pad1)
    p.add("8 channels, width 48: blocks of vectors", conv, [(1, 2, 3, 48), (8, 2, 3, 3)],
          padding=pad1, has_relu=True)  # fmt: skip
    p.add("stride 2, padding 0", conv, [(1, 3, 9, 13), (6, 3, 3, 3)], strides=[2, 2])
    p.add("stride 2, padding 2", conv, [(1, 2, 11, 11), (4, 2, 3, 3)], strides=[2, 2],
          padding=[2, 2, 2, 2], has_relu=True)  # fmt: skip
    p.add("dilation 2, asymmetric padding", conv, [(1, 2, 9, 10), (3, 2, 3, 3), (3,)],
          dilation=[2, 2], padding=[2, 1, 0, 3], has_bias=True)  # fmt: skip
    p.add("strides 3x2, dilation 2x3, 2x4 kernel", conv, [(1, 2, 12, 17), (4, 2, 2, 4)],
          strides=[3, 2], dilation=[2, 3], padding=[1, 2, 1, 2])  # fmt: skip
    p.add("1x1, width 20", conv, [(1, 8, 3, 20), (12, 8, 1, 1), (12,)], has_bias=True,
          has_relu=True)  # fmt: skip
    p.add("kernel over the padding", conv, [(1, 2, 2, 2), (3, 2, 3, 3)], padding=pad1)
    p.add("residual, bias, relu", conv, [(1, 4, 6, 13), (8, 4, 3, 3), (8,), (1, 8, 6, 13)],
          padding=pad1, has_bias=True, has_residual=True, has_relu=True)  # fmt: skip
    p.add("residual, stride 2", conv, [(1, 3, 8, 8), (5, 3, 3, 3), (1, 5, 4, 4)],
          padding=pad1, strides=[2, 2], has_residual=True)  # fmt: skip
    p.add("50 channels in 2 chunks, residual", conv,
          [(1, 50, 4, 100), (4, 50, 3, 3), (4,), (1, 4, 4, 100)], padding=pad1, has_bias=True,
          has_residual=True, has_relu=True)  # fmt: skip
    p.add("groups 2, residual", conv, [(1, 4, 5, 5), (4, 2, 3, 3), (4,), (1, 4, 5, 5)],
          groups=2, padding=pad1, has_bias=True, has_residual=True, has_relu=True)  # fmt: skip
    p.add("1x1 groups 4, 7x7 as rows of 49, residual", conv,
          [(1, 12, 7, 7), (8, 3, 1, 1), (8,), (1, 8, 7, 7)], groups=4, has_bias=True,
          has_residual=True, has_relu=True)  # fmt: skip
    p.add("groups 3, stride 2, batch 2", conv, [(2, 6, 9, 11), (9, 2, 3, 3)], groups=3,
          strides=[2, 2], padding=pad1)  # fmt: skip
    p.add("generic: NHWC, residual", conv, [(1, 5, 5, 3), (3, 3, 3, 4), (1, 5, 5, 4)],
          data_layout="NHWC", kernel_layout="HWIO", padding=pad1, has_residual=True)  # fmt: skip
    sources = p.check(cache)
    units = [name for name in sources.files if name.startswith("accel")]
    flags = ["-march=native", "-O3", "-ffp-contract=fast", "-fopenmp"]
    assert all(sources.unit_cflags[name] == flags for name in units)
    assert sources.ldflags == ["-fopenmp"]
    p.check(cache, target_flags=False)  # the portable vectors of 4 floats
    unit = accel_code(sources)
    assert unit.count("_Static_assert(XA_VL <= 16") == 18  # the blocked kernels
    assert "const float *restrict xg_residual = in3 + g * 98;" in unit  # group g's 2 planes
    assert "float buf[192]" in unit  # 3 channels' rows of 49 columns, padded to 64
    assert "c0 += 47)" in unit  # 47 channels' rows fit the scratch, then 3
    assert "+= xa_ld(in3 + at" in unit  # the residual, after the bias, before the relu


def test_deep_pointwise_convs_are_gemms(cache: Path) -> None:
    """1x1, stride 1, unpadded convs with no epilogue, or from 256 input channels: a GEMM per
    image (`conv_gemm.py`), then bias, residual, relu or clip in a pass over the output."""
    p = Partitions(9)
    conv = accel.Conv2DOp
    p.add("256 -> 20, 3x7, bias, residual, relu", conv,
          [(1, 256, 3, 7), (20, 256, 1, 1), (20,), (1, 20, 3, 7)], has_bias=True,
          has_residual=True, has_relu=True)  # fmt: skip
    p.add("5 -> 7, batch 2, no epilogue", conv, [(2, 5, 4, 9), (7, 5, 1, 1)])
    p.add("300 -> 6, batch 2, clip", conv, [(2, 300, 5, 5), (6, 300, 1, 1), (6,)],
          has_bias=True, clip_min=-0.5, clip_max=0.25)  # fmt: skip
    p.add("1x1, 8 channels, relu: the blocked kernel", conv,
          [(1, 8, 3, 20), (12, 8, 1, 1), (12,)], has_bias=True, has_relu=True)  # fmt: skip
    unit = accel_code(p.check(cache))
    assert unit.count("xg_sgemm(") == 3
    assert unit.count("_Static_assert(XA_VL <= 16") == 1
    values = [v.copy() for v in p.values]  # a NaN and an infinity reach their pixel's outputs
    values[0][0, 3, 1, 2], values[4][1, 3, 2, 3] = np.nan, np.inf
    mod = p.module()
    got = Library(build(emit(mod), cache))(*values)
    for label, g, w in zip(p.labels, got, xrelay.evaluate(mod, *values), strict=True):
        w = np.asarray(w)
        assert np.array_equal(np.isnan(g), np.isnan(w)), label
        assert np.array_equal(np.isinf(g), np.isinf(w)), label
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=label)
    assert np.isnan(got[0][0, :, 1, 2]).all()


def test_dense(cache: Path) -> None:
    p = Partitions(2)
    dense = accel.DenseOp
    p.add("plain", dense, [(1, 16), (8, 16)])
    p.add("batch 4, bias", dense, [(4, 10), (6, 10), (6,)], has_bias=True)
    p.add("batch 3, bias, relu", dense, [(3, 7), (5, 7), (5,)], has_bias=True, has_relu=True)
    p.add("relu", dense, [(2, 33), (9, 33)], has_relu=True)
    p.add("3-D data", dense, [(2, 3, 8), (4, 8), (4,)], has_bias=True, has_relu=True)
    p.add("depth 100, 17 units: rest blocks", dense, [(1, 100), (17, 100), (17,)], has_bias=True)
    p.add("batch 5 (4 + 1 rows), depth 33", dense, [(5, 33), (6, 33)], has_relu=True)
    p.add("depth 1000 (many vectors), 10 units", dense, [(1, 1000), (10, 1000), (10,)],
          has_bias=True, has_relu=True)  # fmt: skip
    unit = accel_code(p.check(cache))
    assert "xa_sum(a0_0)" in unit


def test_pools(cache: Path) -> None:
    p = Partitions(3)
    max_pool, avg_pool = accel.MaxPool2DOp, accel.AvgPool2DOp
    p.add("max 3x3/2 pad 1", max_pool, [(1, 3, 7, 7)], pool_size=[3, 3], strides=[2, 2],
          padding=[1, 1, 1, 1])  # fmt: skip
    p.add("max ceil_mode", max_pool, [(2, 2, 7, 7)], pool_size=[2, 2], strides=[2, 2],
          ceil_mode=True)  # fmt: skip
    p.add("max dilation", max_pool, [(1, 2, 8, 8)], pool_size=[2, 3], dilation=[2, 2],
          padding=[1, 1, 1, 1])  # fmt: skip
    p.add("max negative with padding", max_pool, [(1, 1, 4, 4)], pool_size=[3, 3],
          padding=[2, 2, 2, 2])  # fmt: skip
    p.add("avg pad 1", avg_pool, [(1, 3, 7, 7)], pool_size=[3, 3], strides=[2, 2],
          padding=[1, 1, 1, 1])  # fmt: skip
    p.add("avg count_include_pad", avg_pool, [(1, 3, 6, 6)], pool_size=[3, 3],
          padding=[1, 2, 1, 0], count_include_pad=True)  # fmt: skip
    p.add("avg ceil_mode, count_include_pad", avg_pool, [(1, 2, 5, 5)], pool_size=[2, 2],
          strides=[2, 2], padding=[1, 1, 1, 1], ceil_mode=True, count_include_pad=True)  # fmt: skip
    p.add("avg ceil_mode", avg_pool, [(1, 2, 6, 5)], pool_size=[3, 2], strides=[2, 2],
          ceil_mode=True)  # fmt: skip
    p.add("avg dilation", avg_pool, [(1, 2, 9, 9)], pool_size=[3, 3], dilation=[2, 3],
          padding=[1, 1, 1, 1], count_include_pad=True)  # fmt: skip
    p.add("max NHWC", max_pool, [(1, 6, 6, 3)], pool_size=[2, 2], strides=[2, 2],
          layout="NHWC")  # fmt: skip
    p.add("avg NHWC", avg_pool, [(2, 5, 5, 3)], pool_size=[3, 3], padding=[1, 1, 1, 1],
          layout="NHWC")  # fmt: skip
    p.add("max 2x2/2, width 7: no window cut", max_pool, [(1, 3, 6, 7)], pool_size=[2, 2],
          strides=[2, 2])  # fmt: skip
    p.add("max 3x3/2, width 13", max_pool, [(2, 2, 9, 13)], pool_size=[3, 3], strides=[2, 2])
    p.add("max 3x2, stride 1", max_pool, [(1, 2, 5, 6)], pool_size=[3, 2])
    p.add("max 3x3/2, width 4200: rows past the scratch, fixed taps", max_pool,
          [(1, 1, 3, 4200)], pool_size=[3, 3], strides=[2, 2])  # fmt: skip
    p.add("global avg", accel.GlobalAvgPool2DOp, [(2, 3, 5, 4)])
    p.add("global avg NHWC", accel.GlobalAvgPool2DOp, [(1, 7, 7, 6)], layout="NHWC")
    unit = accel_code(p.check(cache))
    assert "v = (t1_1 > v) | (t1_1 != t1_1) ? t1_1 : v;" in unit  # the wide rows: no bounds
    assert unit.count("const float *const outside = buf + ") == 12  # the other NCHW pools
    assert unit.count("const float v = sum / (float)count;") == 1  # avg NHWC: the loops


def test_nan_through_max_pool_and_relu(cache: Path) -> None:
    """A NaN stays NaN through the vectorized max pool, relu and conv epilogue, as in numpy."""
    p = Partitions(8)
    p.add("max 2x2/2", accel.MaxPool2DOp, [(1, 2, 4, 6)], pool_size=[2, 2], strides=[2, 2])
    p.add("conv relu", accel.Conv2DOp, [(1, 2, 4, 17), (3, 2, 1, 1)], has_relu=True)
    p.values[0][0, 1, 2, 3] = np.nan
    p.values[1][0, 0, 1, 16] = np.nan
    mod = p.module()
    sources = emit(mod)
    lib = Library(build(sources, cache))
    got = lib(*p.values)
    want = xrelay.evaluate(mod, *p.values)
    for g, w in zip(got, want, strict=True):
        assert np.isnan(g).any()
        np.testing.assert_allclose(g, np.asarray(w), rtol=RTOL, atol=ATOL, equal_nan=True)


def test_elementwise_relu_and_batch_norm(cache: Path) -> None:
    p = Partitions(4)
    for op in (accel.AddOp, accel.SubtractOp, accel.MultiplyOp):
        p.add(op.name, op, [(2, 3, 4), (2, 3, 4)])
        p.add(f"{op.name} relu", op, [(1, 8, 5, 5), (1, 8, 5, 5)], has_relu=True)
    p.add("relu", accel.ReluOp, [(3, 7)])
    p.add("relu 4-D", accel.ReluOp, [(1, 4, 3, 3)])
    norm = accel.BatchNormOp
    for scale in (True, False):
        for center in (True, False):
            p.add(f"batch_norm scale={scale} center={center}", norm,
                  [(2, 3, 4, 4), (3,), (3,), (3,), (3,)], positive=[4], scale=scale,
                  center=center, epsilon=1e-3)  # fmt: skip
    p.add("batch_norm NHWC axis 3", norm, [(1, 4, 4, 5), (5,), (5,), (5,), (5,)],
          positive=[4], axis=3)  # fmt: skip
    p.add("batch_norm 2-D", norm, [(6, 4), (4,), (4,), (4,), (4,)], positive=[4], axis=1)
    unit = accel_code(p.check(cache))
    assert "out0[i] = ((in0[i] + in1[i]) <= 0.0f ? 0.0f : (in0[i] + in1[i]));" in unit
    assert "xn_parallel" not in unit  # too little work for threads


FLOW = """
func.func @main(%x: tensor<1x3x8x8xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x6xf32> {
  %w = relay.constant dense<0.1> : tensor<4x3x3x3xf32>
  %b = relay.constant dense<[0.1, -0.5, 0.2, 0.0]> : tensor<4xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32>
  %3 = relay.add %2, %y : tensor<1x4x8x8xf32>
  %4 = relay.tanh %3 : tensor<1x4x8x8xf32>
  %5 = relay.nn.max_pool2d %4 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %6 = relay.nn.batch_flatten %5 : (tensor<1x4x4x4xf32>) -> tensor<1x64xf32>
  %d = relay.constant dense<0.05> : tensor<6x64xf32>
  %7 = relay.nn.dense %6, %d : (tensor<1x64xf32>, tensor<6x64xf32>) -> tensor<1x6xf32>
  func.return %7 : tensor<1x6xf32>
}
"""


def test_the_real_flow_partitions_lowers_and_runs(cache: Path) -> None:
    mod = xrelay.parse(FLOW)
    lowered = xrelay.optimize(partition_for(mod.clone(), "accel"), opt_level=3)
    lowered = ConvertRelayToAccel()(lowered)
    sources = emit(lowered)
    unit = accel_code(sources)
    assert "/* accel.conv2d */" in unit
    assert "/* accel.dense */" in unit
    assert "tanhf" in text(sources, "model.c")
    assert "tanhf" not in unit
    lib = Library(compile_library(sources.files, cache_dir=cache))
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 3, 8, 8)).astype("float32")
    y = rng.standard_normal((1, 4, 8, 8)).astype("float32")
    np.testing.assert_allclose(lib(x, y), xrelay.evaluate(mod, x, y), rtol=RTOL, atol=ATOL)


CHAIN = """
func.func @"x(); system(\\"rm\\"); /*"(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) attributes {Compiler = "accel"} {
  %c = relay.constant dense<[1.0, -2.0, 3.0, -4.0]> : tensor<4xf32>
  %t = relay.tuple %a, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tuple<tensor<2x4xf32>, tensor<2x4xf32>>
  %a2 = relay.tuple_get_item %t {index = 0} : (tuple<tensor<2x4xf32>, tensor<2x4xf32>>) -> tensor<2x4xf32>
  %0 = accel.multiply %a2, %b : tensor<2x4xf32>
  %w = relay.constant dense<0.25> : tensor<4x4xf32>
  %1 = accel.dense %0, %w, %c {has_bias = true, has_relu = true} : (tensor<2x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = accel.subtract %1, %a {has_relu = true} : tensor<2x4xf32>
  func.return %2, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %e = relay.exp %x : tensor<2x4xf32>
  %0:2 = func.call @"x(); system(\\"rm\\"); /*"(%e, %x) : (tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  func.return %0#0, %0#1 : tensor<2x4xf32>, tensor<2x4xf32>
}
"""


def test_names_constants_and_tuples_in_an_accel_function(cache: Path) -> None:
    mod = xrelay.parse(CHAIN)
    sources = emit(mod)
    source = sources.render()
    assert "system(" not in source
    assert '"rm"' not in source
    assert "void xk_x_system_rm(unsigned char *arena" in accel_code(sources)
    assert "xk_x_system_rm(arena + " in text(sources, "model.c")  # the host's call
    lib = Library(compile_library(sources.files, cache_dir=cache))
    x = np.linspace(-2, 2, 8, dtype="float32").reshape(2, 4)
    for g, w in zip(lib(x), xrelay.evaluate(mod, x), strict=True):
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL)


def test_large_partitions_split_into_several_units(cache: Path) -> None:
    class Small(CEmitter):
        UNIT_CHARS = 300

    p = Partitions(6)
    for _ in range(3):
        p.add("relu", accel.ReluOp, [(5,)])
    mod = p.module()
    sources = emit(mod, Small)
    assert [n for n in sources.files if n.startswith("accel")] == [
        "accel_0.c",
        "accel_1.c",
        "accel_2.c",
    ]
    lib = Library(compile_library(sources.files, cache_dir=cache))
    for g, w in zip(lib(*p.values), xrelay.evaluate(mod, *p.values), strict=True):
        np.testing.assert_allclose(g, w)


def accel_function(body: str, type_: str = "tensor<4xf32>") -> str:
    return f"""func.func @part(%a: {type_}) -> {type_} attributes {{Compiler = "accel"}} {{
  %0 = accel.relu %a : {type_}
{body}
}}
func.func @main(%x: {type_}) -> {type_} {{
  %0 = func.call @part(%x) : ({type_}) -> {type_}
  func.return %0 : {type_}
}}"""


@pytest.mark.parametrize(
    ("body", "type_", "message"),
    [
        (
            "  %1 = relay.nn.softmax %0 : tensor<4xf32>\n  func.return %1 : tensor<4xf32>",
            "tensor<4xf32>",
            r"<string>:3:8: error: 'relay.nn.softmax' op cannot be emitted for target 'accel': "
            r"lower it with convert-relay-to-accel first "
            r"\(in function @part, partitioned for 'accel'\)$",
        ),
        (
            "  %1 = relay.nn.relu %0 : tensor<4xf32>\n  func.return %1 : tensor<4xf32>",
            "tensor<4xf32>",
            r"<string>:3:8: error: 'relay.nn.relu' op cannot be emitted for target 'accel': "
            "lower it with convert-relay-to-accel first",
        ),
        (
            "  func.return %0 : tensor<4xf64>",
            "tensor<4xf64>",
            r"<string>:2:8: error: 'accel.relu' op cannot emit type 'tensor<4xf64>' for target 'accel'",
        ),
    ],
)
def test_what_accel_cannot_emit_is_a_located_error(body: str, type_: str, message: str) -> None:
    mod = xrelay.parse(accel_function(body, type_))
    with pytest.raises(DiagnosticError, match=message):
        emit(mod)


UNLOWERED = """func.func @part(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.nn.softmax %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @part(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}"""


def test_an_unlowered_partition_for_a_target_of_the_build_is_a_located_error() -> None:
    """By default (`xrelay-opt -t c`) and in a build for accel, a `Compiler = "accel"` function
    goes to accel's emitter: a relay op left in it is refused, never host C."""
    mod = xrelay.parse(UNLOWERED)
    planned = PlanMemory()(mod.clone()).module
    message = (
        r"^<string>:2:8: error: 'relay.nn.softmax' op cannot be emitted for target 'accel': "
        r"lower it with convert-relay-to-accel first \(in function @part, partitioned for "
        r"'accel'\)$"
    )
    for targets in (None, ("accel",), ("dnnl", "accel")):
        with pytest.raises(DiagnosticError, match=message):
            CEmitter(planned, targets=targets).emit()


def test_a_partition_for_a_target_the_build_does_not_have_is_host_code(cache: Path) -> None:
    """A `target="c"` build of a module partitioned for accel: its partitions are host code."""
    mod = xrelay.parse(UNLOWERED)
    sources = CEmitter(PlanMemory()(mod.clone()).module, targets=("dnnl",)).emit()
    assert "accel.c" not in sources.files  # the softmax is host code (the rows library's)
    assert "model.c" in sources.files
    assert "kernels_rows.c" in sources.files
    lib = Library(compile_library(sources.files, cache_dir=cache))
    data = np.arange(4, dtype="float32")
    np.testing.assert_allclose(lib(data), xrelay.evaluate(mod, data), rtol=1e-6)


def test_every_accel_op_has_a_kernel() -> None:
    from xrelay.codegen.accel.kernels import KERNELS

    assert sorted(op.name for op in accel.ACCEL.operations) == sorted(KERNELS)


# --- threads --------------------------------------------------------------------------------


def threaded_cases() -> Partitions:
    """Kernels with work for 3 threads or more, on rows and units that 2 and 3 do not divide,
    and a conv too wide for the blocked kernel's scratch (the generic one, on one thread)."""
    p = Partitions(9)
    conv, dense, pad1 = accel.Conv2DOp, accel.DenseOp, [1, 1, 1, 1]
    p.add("conv 16->16, 7 rows", conv, [(1, 16, 7, 64), (16, 16, 3, 3), (16,)], padding=pad1,
          has_bias=True, has_relu=True)  # fmt: skip
    p.add("conv, 2 images of 5 rows: shares across images", conv,
          [(2, 16, 5, 48), (16, 16, 3, 3)], padding=pad1)  # fmt: skip
    p.add("conv, 3 images of 2 rows: rows held by image", conv,
          [(3, 16, 2, 64), (16, 16, 3, 3)], padding=pad1)  # fmt: skip
    p.add("conv stride 2, residual", conv, [(1, 16, 15, 96), (16, 16, 3, 3), (16,),
          (1, 16, 8, 48)], strides=[2, 2], padding=pad1, has_bias=True, has_residual=True,
          has_relu=True)  # fmt: skip
    p.add("conv, 50 channels in 2 chunks", conv, [(1, 50, 5, 100), (8, 50, 3, 3), (8,)],
          padding=pad1, has_bias=True)  # fmt: skip
    p.add("conv 1x1 groups 2, 14x14 as rows of 196", conv,
          [(1, 64, 14, 14), (64, 32, 1, 1), (64,), (1, 64, 14, 14)], groups=2, has_bias=True,
          has_residual=True, has_relu=True)  # fmt: skip
    p.add("conv 1x1 256 -> 64: a GEMM per thread's channels", conv,
          [(1, 256, 7, 7), (64, 256, 1, 1), (64,), (1, 64, 7, 7)], has_bias=True,
          has_residual=True, has_relu=True)  # fmt: skip
    p.add("conv 3x3 groups 3, 2 images of 5 rows: chunks end inside groups", conv,
          [(2, 24, 5, 40), (24, 8, 3, 3), (24,), (2, 24, 5, 40)], groups=3, padding=pad1,
          has_bias=True, has_residual=True)  # fmt: skip
    p.add("conv, width 6000: generic", conv, [(1, 1, 3, 6000), (2, 1, 3, 3)], padding=pad1)
    p.add("dense, 10 units", dense, [(1, 20000), (10, 20000), (10,)], has_bias=True,
          has_relu=True)  # fmt: skip
    p.add("dense, 5 rows, 37 units", dense, [(5, 2000), (37, 2000)])
    p.add("max pool 2x2/2", accel.MaxPool2DOp, [(2, 16, 64, 128)], pool_size=[2, 2],
          strides=[2, 2])  # fmt: skip
    p.add("max pool 3x3/2 pad 1: shared", accel.MaxPool2DOp, [(1, 24, 56, 56)],
          pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])  # fmt: skip
    p.add("add, relu", accel.AddOp, [(1, 16, 100, 130), (1, 16, 100, 130)], has_relu=True)
    p.add("relu", accel.ReluOp, [(3, 70001)])
    return p


@pytest.mark.parametrize("num_threads", [None, 1, 2, 3])
def test_threads_compute_what_one_thread_does(cache: Path, num_threads: int | None) -> None:
    """Each kernel's rows (units, elements) split across the build's threads (None: OpenMP's
    default) give the interpreter's outputs; a 1-thread build prints no OpenMP region."""
    sources = threaded_cases().check(cache, num_threads=num_threads)
    unit = accel_code(sources)
    assert f"#define XA_NUM_THREADS {num_threads or 0}\n" in unit
    regions = unit.count("xn_parallel(xa_nt, ")
    assert regions == (0 if num_threads == 1 else 14)  # all but the generic conv
    assert "acc[x] += wv * row[" in unit  # the wide conv
    assert "if (held[r % 3] != n * 5 + r) {" in unit  # a slot's row, by image


PROBE = """
import os, sys
import numpy as np
from xrelay.codegen.runtime.loader import Library
lib = Library(sys.argv[1])
inputs = [np.zeros(info.shape, info.dtype) for info in lib.inputs]
before = len(os.listdir("/proc/self/task"))
lib(*inputs)
print(len(os.listdir("/proc/self/task")) - before)
"""


@pytest.mark.parametrize(
    ("num_threads", "omp_num_threads", "started"),
    [(None, "3", 2), (None, "1", 0), (2, "3", 1), (1, "3", 0)],
)
def test_the_thread_count_is_the_builds_else_omp_num_threads(
    cache: Path, num_threads: int | None, omp_num_threads: str, started: int
) -> None:
    """A run starts the threads the build option says, else those of `OMP_NUM_THREADS`."""
    p = Partitions(10)
    p.add("conv", accel.Conv2DOp, [(1, 16, 24, 64), (16, 16, 3, 3)], padding=[1, 1, 1, 1])
    library = build(emit(p.module(), num_threads=num_threads), cache)
    env = {**os.environ, "OMP_NUM_THREADS": omp_num_threads}
    command = [sys.executable, "-c", PROBE, str(library)]
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    assert int(result.stdout) == started


FORK = """
import os, signal, sys
import numpy as np
from xrelay.codegen.runtime.loader import Library
lib = Library(sys.argv[1])
xs = [np.linspace(-1, 1, np.prod(i.shape), dtype=i.dtype).reshape(i.shape) for i in lib.inputs]
want = lib(*xs)
pid = os.fork()
if pid == 0:
    signal.alarm(60)  # a hung child ends
    os._exit(0 if np.array_equal(lib(*xs), want) else 1)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_a_forked_child_runs_on_one_thread(cache: Path) -> None:
    """libgomp's threads do not survive fork: a child of a process that ran the kernels on
    threads runs them on one (a parallel region there would wait forever) and computes the same."""
    p = Partitions(12)
    p.add("conv", accel.Conv2DOp, [(1, 16, 24, 64), (16, 16, 3, 3)], padding=[1, 1, 1, 1])
    library = build(emit(p.module(), num_threads=2), cache)
    command = [sys.executable, "-c", FORK, str(library)]
    subprocess.run(command, check=True, timeout=90)


@pytest.mark.parametrize("value", [0, -2, "2", 2.0, True])
def test_num_threads_must_be_an_int_of_at_least_1(value: Any) -> None:
    message = r"option num_threads must be an int of at least 1, got "
    with pytest.raises(ValueError, match=message):
        check_options({"num_threads": value})
    with pytest.raises(ValueError, match=message):
        xrelay.build(xrelay.parse(FLOW), target=["accel", "c"], options={"num_threads": value})
    assert check_options({}).num_threads is None
    assert check_options({"num_threads": 3}).num_threads == 3


CONV = """
func.func @main(%x: tensor<1x16x24x64xf32>) -> tensor<1x16x24x64xf32> {
  %w = relay.constant dense<0.02> : tensor<16x16x3x3xf32>
  %b = relay.constant dense<-0.1> : tensor<16xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x24x64xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x24x64xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x16x24x64xf32>, tensor<16xf32>) -> tensor<1x16x24x64xf32>
  %2 = relay.nn.relu %1 : tensor<1x16x24x64xf32>
  func.return %2 : tensor<1x16x24x64xf32>
}
"""


def test_build_option_num_threads(cache: Path) -> None:
    mod = xrelay.parse(CONV)
    options = {"num_threads": 2, "cache_dir": cache}
    lib = xrelay.build(mod, target=["accel", "c"], options=options)
    unit = accel_code(lib.sources)
    assert "#define XA_NUM_THREADS 2\n" in unit
    assert "xn_parallel(xa_nt, " in unit
    assert lib.sources.ldflags == ["-fopenmp"]
    x = np.random.default_rng(11).standard_normal((1, 16, 24, 64)).astype("float32")
    np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=RTOL, atol=ATOL)


def test_threads_under_the_sanitizers(cache: Path, tmp_path: Path) -> None:
    """The threaded kernels built with ASan and UBSan, run from C (`tests/c/main.c`, two
    instances) on 3 threads: no report (leaks included), the interpreter's outputs."""
    p = threaded_cases()
    mod = p.module()
    stdout = run_main(emit(mod, num_threads=3), cache, tmp_path)
    got, inputs = main_outputs(stdout), main_inputs(p.values)
    for label, printed, want in zip(p.labels, got, xrelay.evaluate(mod, *inputs), strict=True):
        values = np.array(printed, dtype=np.float64)
        assert np.allclose(values, np.asarray(want).ravel(), rtol=RTOL, atol=ATOL), label
