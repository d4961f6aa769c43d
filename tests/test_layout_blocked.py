"""Blocked layouts (TVM's `NCHW4c` data, `OIHW4i4o` / `OIHW4o` kernels): conv2d,
contrib_conv2d_NCHWc and the pools' types, the reference against naive loops, the C target
against the reference, and ConvertLayout into them (with LayoutConfig's skipped layers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xdsl.ir import Block, BlockArgument, Operation
from xrelay.dialects.relay.base import get_str
from xrelay.dialects.relay.types import shape_of
from xrelay.passes.convert_layout import ConvertLayout

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(7)


def typed(expr: relay.Expr) -> tuple[int, ...]:
    return shape_of(IRModule.from_expr(expr)["main"].body.checked_type)


def test_conv2d_types_in_blocked_layouts() -> None:
    x = relay.var("x", shape=(1, 2, 8, 8, 4))
    w = relay.var("w", shape=(3, 2, 3, 3, 4, 4))
    y = relay.nn.conv2d(x, w, data_layout="NCHW4c", kernel_layout="OIHW4i4o", padding=(1, 1))
    assert typed(y) == (1, 3, 8, 8, 4)
    k = relay.var("k", shape=(2, 8, 3, 3, 4))
    y = relay.nn.contrib_conv2d_nchwc(x, k, data_layout="NCHW4c", kernel_layout="OIHW4o")
    assert typed(y) == (1, 2, 6, 6, 4)
    d = relay.var("d", shape=(1, 5, 5, 4, 2))  # NHWC2c, depthwise HWIO1i2o (TVM's fold tests)
    dw = relay.var("dw", shape=(3, 3, 1, 4, 1, 2))
    y = relay.nn.conv2d(
        d, dw, data_layout="NHWC2c", kernel_layout="HWIO1i2o", groups=8, channels=8, padding=1
    )
    assert typed(y) == (1, 5, 5, 4, 2)
    h = relay.var("h", shape=(6, 6, 1, 8))
    y = relay.nn.conv2d(h, relay.var("g", shape=(3, 3, 4, 8)), data_layout="HWNC",
                        kernel_layout="HWOI")  # fmt: skip
    assert typed(y) == (4, 4, 1, 4)
    p = relay.nn.max_pool2d(x, pool_size=(2, 2), strides=(2, 2), layout="NCHW4c")
    assert typed(p) == (1, 2, 4, 4, 4)
    assert typed(relay.nn.global_max_pool2d(x, layout="NCHW4c")) == (1, 2, 1, 1, 4)


def test_blocked_errors_name_the_layout() -> None:
    x = relay.var("x", shape=(1, 2, 8, 8, 4))
    with pytest.raises(xrelay.relay.RelayTypeError, match="axis 'C' of size 6 is not divisible"):
        relay.nn.conv2d(x, relay.var("w", shape=(6, 8, 1, 1)), data_layout="NCHW4c")
    with pytest.raises(xrelay.relay.RelayTypeError, match="splits H or W"):
        relay.nn.max_pool2d(x, layout="NCHW4h")


def naive_conv(x: Array, w: Array, pad: int) -> Array:
    """NCHW x OIHW, stride 1, by loops."""
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.zeros((n, c, h + 2 * pad, wd + 2 * pad))
    xp[:, :, pad : pad + h, pad : pad + wd] = x
    out = np.zeros((n, o, h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1))
    for b in range(n):
        for oc in range(o):
            for i in range(out.shape[2]):
                for j in range(out.shape[3]):
                    out[b, oc, i, j] = sum(
                        xp[b, ic, i + p, j + q] * w[oc, ic, p, q]
                        for ic in range(c)
                        for p in range(kh)
                        for q in range(kw)
                    )
    return out


def block_nchw(x: Array, k: int) -> Array:
    """NCHW -> NCHW{k}c by hand: channel c sits at [c // k, ..., c % k]."""
    n, c, h, w = x.shape
    return x.reshape(n, c // k, k, h, w).transpose(0, 1, 3, 4, 2)


def test_reference_blocked_conv_matches_naive_loops() -> None:
    xd = RNG.standard_normal((1, 4, 4, 4)).astype("float32")
    wd = RNG.standard_normal((4, 4, 2, 2)).astype("float32")
    o, i, kh, kw = wd.shape
    # OIHW2i2o by hand: [o // 2, i // 2, kh, kw, i % 2, o % 2]
    wb = wd.reshape(o // 2, 2, i // 2, 2, kh, kw).transpose(0, 2, 4, 5, 3, 1)
    x = relay.var("x", shape=(1, 2, 4, 4, 2))
    w = relay.var("w", shape=wb.shape)
    y = relay.nn.contrib_conv2d_nchwc(
        x, w, padding=(1, 1), data_layout="NCHW2c", kernel_layout="OIHW2i2o"
    )
    got = xrelay.evaluate(IRModule.from_expr(relay.Function([x, w], y)), block_nchw(xd, 2), wb)
    want = block_nchw(naive_conv(xd.astype(np.float64), wd.astype(np.float64), 1), 2)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_c_target_runs_blocked_layouts(tmp_path: Path) -> None:
    x = relay.var("x", shape=(1, 8, 6, 6))
    w = relay.var("w", shape=(8, 8, 3, 3))
    xb = relay.layout_transform(x, "NCHW", "NCHW4c")
    y = relay.nn.conv2d(
        xb,
        relay.layout_transform(w, "OIHW", "OIHW4i4o"),
        data_layout="NCHW4c",
        kernel_layout="OIHW4i4o",
        padding=(1, 1),
    )
    y = relay.nn.relu(y)
    pooled = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2), layout="NCHW4c")
    mean = relay.nn.avg_pool2d(y, pool_size=(3, 3), padding=(1, 1), layout="NCHW4c")
    glob = relay.nn.global_max_pool2d(y, layout="NCHW4c")
    z = relay.nn.contrib_conv2d_nchwc(
        pooled,
        relay.layout_transform(w, "OIHW", "OIHW4o"),
        strides=(2, 1),
        padding=(1, 1),
        data_layout="NCHW4c",
        kernel_layout="OIHW4o",
    )
    hwnc = relay.layout_transform(x, "NCHW", "HWNC")
    v = relay.nn.conv2d(
        hwnc, relay.layout_transform(w, "OIHW", "HWOI"), data_layout="HWNC", kernel_layout="HWOI"
    )
    outs = [y, pooled, mean, glob, z, v]
    mod = IRModule.from_expr(relay.Function([x, w], relay.Tuple(outs)))
    xd = RNG.standard_normal((1, 8, 6, 6)).astype("float32")
    wd = RNG.standard_normal((8, 8, 3, 3)).astype("float32")
    lib = xrelay.build(mod, target="c", options={"cache_dir": tmp_path})
    for got, want in zip(lib(xd, wd), xrelay.evaluate(mod, xd, wd), strict=True):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)


def convs(channels_in: int) -> IRModule:
    """conv -> relu -> max_pool -> two convs -> add -> split -> global pool, NCHW."""
    x = relay.var("x", shape=(1, channels_in, 8, 8))

    def weight(o: int, i: int, k: int) -> relay.Constant:
        return relay.const(RNG.standard_normal((o, i, k, k)).astype("float32"))

    y = relay.nn.relu(relay.nn.conv2d(x, weight(8, channels_in, 3), padding=(1, 1)))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    a = relay.nn.conv2d(y, weight(8, 8, 3), padding=(1, 1))
    b = relay.nn.conv2d(y, weight(8, 8, 1))
    bias = relay.const(RNG.standard_normal((8, 1, 1)).astype("float32"))
    y = relay.add(relay.add(a, b), bias)
    parts = relay.split(y, [4], axis=1)
    y = relay.multiply(parts[0], parts[1])
    return IRModule.from_expr(relay.Function([x], relay.nn.global_avg_pool2d(y)))


def ops(mod: IRModule, name: str) -> list[Any]:
    return [op for op in mod.module.walk() if op.name == name]


def test_convert_layout_to_nchw4c() -> None:
    out = run_and_check(convs(4), ConvertLayout({"nn.conv2d": ["NCHW4c", "OIHW4i4o"]}))
    assert len(ops(out, "relay.nn.contrib_conv2d_NCHWc")) == 3
    assert not ops(out, "relay.nn.conv2d")
    for name in ("relay.nn.max_pool2d", "relay.nn.global_avg_pool2d"):
        assert get_str(ops(out, name)[0].properties, "layout") == "NCHW4c"
    (split,) = ops(out, "relay.split")  # [4] along C is [1] along the blocks
    assert str(split.properties["indices_or_sections"]) == "array<i64: 1>"
    inputs = [
        op for op in ops(out, "relay.layout_transform") if isinstance(op.operands[0], BlockArgument)
    ]
    assert len(inputs) == 1  # the input, once


def test_convert_layout_keeps_a_conv_on_indivisible_input_channels() -> None:
    """As TVM: a conv reading a parameter whose channels the block does not divide stays."""
    out = run_and_check(convs(3), ConvertLayout({"nn.conv2d": ["NCHW4c", "OIHW4o"]}))
    assert len(ops(out, "relay.nn.conv2d")) == 1
    assert len(ops(out, "relay.nn.contrib_conv2d_NCHWc")) == 2
    assert get_str(ops(out, "relay.nn.max_pool2d")[0].properties, "layout") == "NCHW"


def test_layout_config_skips_the_given_conv2d_layers() -> None:
    with relay.transform.LayoutConfig(skip_layers=[0, 2]):
        out = run_and_check(convs(4), ConvertLayout({"nn.conv2d": ["HWNC", "default"]}))
    layouts = [get_str(op.properties, "data_layout") for op in ops(out, "relay.nn.conv2d")]
    assert layouts == ["NCHW", "HWNC", "NCHW"]
    kernels = [get_str(op.properties, "kernel_layout") for op in ops(out, "relay.nn.conv2d")]
    assert kernels == ["OIHW", "HWOI", "OIHW"]
    assert relay.transform.LayoutConfig.current is None


def test_convert_layout_leaves_what_the_block_does_not_divide() -> None:
    """A conv or pool whose channels 4 does not divide stays (TVM fails there)."""
    x = relay.var("x", shape=(1, 3, 6, 6))
    y = relay.nn.relu(x)  # not a parameter: TVM's Var rule does not apply
    y = relay.nn.conv2d(y, relay.const(RNG.standard_normal((6, 3, 1, 1)).astype("float32")))
    y = relay.nn.avg_pool2d(y, pool_size=(2, 2))
    mod = IRModule.from_expr(relay.Function([x], y))
    desired = {"nn.conv2d": ["NCHW4c", "OIHW4o"], "nn.avg_pool2d": ["NCHW4c"]}
    out = run_and_check(mod, ConvertLayout(desired))
    assert len(ops(out, "relay.nn.conv2d")) == 1
    assert get_str(ops(out, "relay.nn.avg_pool2d")[0].properties, "layout") == "NCHW"
    assert not ops(out, "relay.layout_transform")


def test_forward_fold_scale_axis_into_blocked_convolutions() -> None:
    """A (C/2, 2) scale on NCHW2c data folds into OIHW4i2o weights (reshaped to C/4 x 4) and
    divides the bias on the way; a depthwise NHWC2c / HWIO1i2o conv folds along O."""
    x = relay.var("x", shape=(1, 2, 5, 5, 2))
    scale = relay.const(RNG.uniform(0.5, 2, (1, 2, 1, 1, 2)).astype("float32"))
    bias = relay.const(RNG.standard_normal((1, 2, 1, 1, 2)).astype("float32"))
    y = relay.add(relay.nn.relu(relay.multiply(x, scale)), bias)
    w = relay.const(RNG.standard_normal((4, 1, 3, 3, 4, 2)).astype("float32"))
    y = relay.nn.conv2d(y, w, padding=(1, 1), data_layout="NCHW2c", kernel_layout="OIHW4i2o")
    d = relay.var("d", shape=(1, 5, 5, 2, 2))
    dscale = relay.const(RNG.uniform(0.5, 2, (2, 2)).astype("float32"))
    dw = relay.const(RNG.standard_normal((3, 3, 1, 2, 1, 2)).astype("float32"))
    z = relay.nn.conv2d(relay.multiply(dscale, d), dw, groups=4, channels=4, padding=(1, 1),
                        data_layout="NHWC2c", kernel_layout="HWIO1i2o")  # fmt: skip
    mod = IRModule.from_expr(relay.Function([x, d], relay.Tuple([y, z])))
    out = run_and_check(mod, relay.transform.ForwardFoldScaleAxis())
    reshapes = sorted(str(op.results[0].type) for op in ops(out, "relay.reshape"))
    assert reshapes == [
        "tensor<1x1x1x1x4x1xf32>",  # OIHW4i2o's I, i: the 4 channels as 1 x 4
        "tensor<1x1x1x2x1x2xf32>",  # the depthwise HWIO1i2o's O, o
        "tensor<1x2x1x1x2xf32>",  # the bias's C, c
    ]
    for conv in ops(out, "relay.nn.conv2d"):
        data, weight = conv.operands[0].owner, conv.operands[1].owner
        assert isinstance(data, Block) or data.name != "relay.multiply"
        assert isinstance(weight, Operation)
        assert weight.name == "relay.multiply"
