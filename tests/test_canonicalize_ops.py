"""CanonicalizeOps: bias_add becomes expand_dims + a broadcasting add, as TVM's BiasAddSimplifier.

Each case checks the rewritten IR against a module built with the builder, and
the numerics before and after on seeded random inputs.
"""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xrelay.passes.canonicalize_ops import CanonicalizeOps

from xrelay import IRModule, parse, relay, transform


def module(params: list[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(params, body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def weight(shape: tuple[int, ...]) -> relay.Constant:
    return relay.const(np.random.default_rng(7).standard_normal(shape).astype("float32"))


@pytest.mark.parametrize("axis", [1, -3])
def test_nchw_conv_bias(axis: int) -> None:
    """NCHW: the bias gets two trailing unit dims (`-3` is axis 1 of rank 4)."""

    def build(canonical: bool) -> IRModule:
        x = relay.var("x", shape=(1, 3, 8, 8))
        b = relay.var("b", shape=(4,))
        y = relay.nn.conv2d(x, weight((4, 3, 3, 3)), padding=(1, 1))
        if canonical:
            y = relay.add(y, relay.expand_dims(b, axis=1, num_newaxis=2))
        else:
            y = relay.nn.bias_add(y, b, axis=axis)
        return module([x, b], relay.nn.relu(y))

    out = run_and_check(build(canonical=False), CanonicalizeOps())
    assert str(out) == str(build(canonical=True))


@pytest.mark.parametrize("axis", [3, -1])
def test_nhwc_conv_bias(axis: int) -> None:
    """NHWC: the channel axis is the last one, so the bias broadcasts without expand_dims."""

    def build(canonical: bool) -> IRModule:
        x = relay.var("x", shape=(1, 8, 8, 3))
        b = relay.var("b", shape=(4,))
        w = weight((3, 3, 3, 4))
        y = relay.nn.conv2d(x, w, padding=(1, 1), data_layout="NHWC", kernel_layout="HWIO")
        y = relay.add(y, b) if canonical else relay.nn.bias_add(y, b, axis=axis)
        return module([x, b], y)

    out = run_and_check(build(canonical=False), CanonicalizeOps())
    assert count(out, "relay.expand_dims") == 0
    assert str(out) == str(build(canonical=True))


def test_dense_bias() -> None:
    """A rank-2 dense output (axis 1, the last) takes the bias as it is; axis 0 needs one dim."""

    def build(canonical: bool) -> IRModule:
        x = relay.var("x", shape=(2, 16))
        b = relay.var("b", shape=(8,))
        c = relay.var("c", shape=(2,))
        y = relay.nn.dense(x, weight((8, 16)))
        if canonical:
            y = relay.add(relay.add(y, b), relay.expand_dims(c, axis=1, num_newaxis=1))
        else:
            y = relay.nn.bias_add(relay.nn.bias_add(y, b), c, axis=0)
        return module([x, b, c], y)

    out = run_and_check(build(canonical=False), CanonicalizeOps())
    assert str(out) == str(build(canonical=True))


def test_rank3_middle_axis() -> None:
    x = relay.var("x", shape=(2, 5, 3))
    b = relay.var("b", shape=(5,))
    out = run_and_check(module([x, b], relay.nn.bias_add(x, b, axis=1)), CanonicalizeOps())
    (expand,) = [op for op in out.module.walk() if op.name == "relay.expand_dims"]
    assert str(expand.results[0].type) == "tensor<5x1xf32>"
    assert count(out, "relay.nn.bias_add") == 0


def test_keep_other_ops() -> None:
    """Without bias_add nothing changes (a plain add is not touched)."""
    x = relay.var("x", shape=(2, 4))
    b = relay.var("b", shape=(4,))
    before = module([x, b], relay.nn.softmax(relay.add(relay.nn.relu(x), b)))
    out = run_and_check(before, CanonicalizeOps())
    assert str(out) == str(before)


def test_keep_composite_body() -> None:
    """The bias_add of a composite body stays as matched; the one outside is rewritten."""
    text = """
func.func @main(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = relay.composite "accel.bias_add" (%x, %b) : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  ^bb0(%i: tensor<1x4x2x2xf32>, %j: tensor<4xf32>):
    %1 = relay.nn.bias_add %i, %j : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
    relay.yield %1 : tensor<1x4x2x2xf32>
  }
  %2 = relay.nn.bias_add %0, %b : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  func.return %2 : tensor<1x4x2x2xf32>
}
"""
    out = run_and_check(parse(text), CanonicalizeOps())
    assert count(out, "relay.nn.bias_add") == 1
    assert count(out, "relay.expand_dims") == 1


def test_pass_info_and_gating() -> None:
    pass_ = CanonicalizeOps()
    assert (pass_.info.name, pass_.info.opt_level) == ("CanonicalizeOps", 3)
    assert transform.get_pass("canonicalize-ops").info.name == "CanonicalizeOps"
    x = relay.var("x", shape=(1, 4, 2, 2))
    b = relay.var("b", shape=(4,))
    mod = module([x, b], relay.nn.bias_add(x, b))
    with transform.PassContext(opt_level=2):
        out = transform.Sequential([CanonicalizeOps()])(mod.clone())
    assert count(out, "relay.nn.bias_add") == 1
    with transform.PassContext(opt_level=3):
        out = transform.Sequential([CanonicalizeOps()])(mod.clone())
    assert count(out, "relay.nn.bias_add") == 0
