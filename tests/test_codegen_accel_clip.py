"""accel's clip: the clip epilogue (`clip_min` / `clip_max`, ReLU6) of conv2d and dense and the
single `accel.clip`, built and run against the interpreter, NaN and ±inf inputs included.

Each kernel form that applies the epilogue is covered: the blocked conv (vectors, with a
residual and a relu before the clip; groups 2), the generic conv (NHWC), Winograd (through
the real flow), the dense (one row and several), and the flat clip. A NaN stays NaN and an
infinity is clamped to the bound (docs/semantics.md), as numpy's clip does.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from testlib.accel_cases import ATOL, RTOL, Partitions, accel_code, build, emit
from xrelay.dialects import accel
from xrelay.passes.partition_for import partition_for

import xrelay
from xrelay import IRModule, relay
from xrelay.runtime import Library


def test_clip_epilogues_and_clip_with_nan_and_inf(cache: Path) -> None:
    p = Partitions(21)
    conv, dense, pad1 = accel.Conv2DOp, accel.DenseOp, [1, 1, 1, 1]
    relu6 = {"clip_min": 0.0, "clip_max": 6.0}
    narrow = {"clip_min": -0.75, "clip_max": 1.25}
    p.add("blocked conv, bias, ReLU6", conv, [(1, 4, 6, 21), (8, 4, 3, 3), (8,)], padding=pad1,
          has_bias=True, **relu6)  # fmt: skip
    p.add("blocked conv, residual, relu, clip", conv,
          [(1, 3, 5, 13), (5, 3, 3, 3), (5,), (1, 5, 5, 13)], padding=pad1, has_bias=True,
          has_residual=True, has_relu=True, clip_min=0.0, clip_max=0.5)  # fmt: skip
    p.add("blocked conv, stride 2, narrow clip", conv, [(1, 2, 9, 9), (3, 2, 3, 3)],
          strides=[2, 2], **narrow)  # fmt: skip
    p.add("blocked conv, groups 2, clip", conv, [(1, 4, 5, 5), (4, 2, 3, 3), (4,)], groups=2,
          padding=pad1, has_bias=True, **narrow)  # fmt: skip
    p.add("generic conv, NHWC, clip", conv, [(1, 5, 5, 3), (3, 3, 3, 4)], data_layout="NHWC",
          kernel_layout="HWIO", padding=pad1, **narrow)  # fmt: skip
    p.add("dense, bias, ReLU6", dense, [(1, 40), (7, 40), (7,)], has_bias=True, **relu6)
    p.add("dense, 5 rows, relu, clip", dense, [(5, 30), (9, 30)], has_relu=True,
          clip_min=0.0, clip_max=1.0)  # fmt: skip
    p.add("clip", accel.ClipOp, [(3, 37)], a_min=-0.5, a_max=0.5)
    p.add("clip to a point", accel.ClipOp, [(2, 9)], a_min=0.25, a_max=0.25)
    for index in (0, 3, 7, 9, 12, 14, 17, 19, 20):  # data inputs: NaN, +inf, -inf, -0.0
        flat = p.values[index].reshape(-1)
        flat[[1, 7, 11, 16]] = [np.nan, np.inf, -np.inf, -0.0]
    p.values[1] *= 4.0  # the conv sums reach past 6
    mod = p.module()
    sources = emit(mod)
    unit = accel_code(sources)
    assert "= xa_clip(a0_0, 0x0.0p+0f, 0x1.8000000000000p+2f);" in unit  # ReLU6, vectors
    assert "xa_clip(" in unit
    assert "? (" in unit
    lib = Library(build(sources, cache))
    got = lib(*p.values)
    want = xrelay.evaluate(mod, *p.values)
    for label, g, w in zip(p.labels, got, want, strict=True):
        w = np.asarray(w)
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=label)
        assert np.array_equal(np.isnan(g), np.isnan(w)), label
    assert np.isnan(got[-2]).sum() == 1
    assert np.isnan(got[0]).any()
    clipped = got[-2].reshape(-1)
    assert clipped[7] == 0.5
    assert clipped[11] == -0.5
    assert np.signbit(clipped[16])
    assert clipped[16] == 0.0


def relu6_graph() -> IRModule:
    """conv 3x3 16->16 (Winograd) + bias + ReLU6, conv 1x1 + ReLU6, a clip after tanh, dense
    + bias + clip: every clip lands in accel."""
    rng = np.random.default_rng(3)

    def const(*shape: int) -> relay.Expr:
        return relay.const((rng.standard_normal(shape) * 0.5).astype("float32"))

    x = relay.var("x", shape=(1, 16, 16, 32), dtype="float32")
    y = relay.nn.conv2d(x, const(16, 16, 3, 3), padding=(1, 1))
    y = relay.clip(relay.nn.bias_add(y, const(16)), 0.0, 6.0)
    y = relay.clip(relay.nn.conv2d(y, const(8, 16, 1, 1)), 0.0, 6.0)
    y = relay.clip(relay.tanh(y), -0.5, 0.5)
    y = relay.reshape(y, (1, 8 * 16 * 32))
    y = relay.nn.bias_add(relay.nn.dense(y, const(10, 8 * 16 * 32)), const(10))
    return IRModule.from_expr(relay.Function([x], relay.clip(y, -1.0, 1.0)))


def test_relu6_network_builds_on_accel_and_matches(cache: Path) -> None:
    mod = relu6_graph()
    partitioned = str(partition_for(mod.clone(), "accel"))
    for name in ("conv2d_bias_clip", "conv2d_clip", "dense_bias_clip"):
        assert f'"accel.{name}"' in partitioned, name
    lib = xrelay.build(mod, target=["accel", "c"], options={"cache_dir": str(cache)})
    unit = accel_code(lib.sources)
    assert "/* accel.conv2d_winograd */" in unit
    assert "xa_clip(" in unit
    assert "/* accel.clip */" in unit
    x = np.random.default_rng(4).standard_normal((1, 16, 16, 32)).astype("float32") * 3
    x[0, 0, 0, :3] = [np.nan, np.inf, -np.inf]
    got, want = lib(x), np.asarray(xrelay.evaluate(mod, x))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, equal_nan=True)
