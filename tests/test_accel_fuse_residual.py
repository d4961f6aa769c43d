"""`accel-fuse-residual`: an add of a convolution folds into it, with the same numbers.

The reference interpreter gives the same numbers, bit for bit, before and
after the pass (the fused convolution adds the residual after the bias, then
the relu: the same float32 operations in the same order as the add it
replaces). tinyres's residual block folds through `xrelay.build`'s accel
lowering, and what must not fold (a convolution with a relu or with another
user) does not.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TypeVar

import numpy as np
from xdsl.ir import Operation
from xrelay.codegen.accel import LOWERING
from xrelay.codegen.c.pipeline import lower
from xrelay.dialects import accel
from xrelay.passes import lookup_pass
from xrelay.passes.accel_fuse_residual import (
    AccelFuseResidual,
    AccelFuseResidualPass,
    fuse_residuals,
)

import xrelay

OpT = TypeVar("OpT", bound=Operation)
ROOT = Path(__file__).resolve().parent.parent
RNG = np.random.default_rng(7)

BLOCK = """
func.func @main(%x: tensor<1x3x6x7xf32>, %r: tensor<1x4x6x7xf32>) -> (tensor<1x4x6x7xf32>, tensor<1x4x6x7xf32>, tensor<1x4x6x7xf32>) {
  %w = relay.constant dense<[[[[0.5, -0.25, 0.125]]]]> : tensor<1x1x1x3xf32>
  %k = relay.constant dense<0.1> : tensor<4x3x3x3xf32>
  %b = relay.constant dense<[0.5, -1.0, 0.25, 0.0]> : tensor<4xf32>
  %c = accel.conv2d %x, %k, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<1x3x6x7xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x7xf32>
  %y = accel.add %c, %r {has_relu = true} : tensor<1x4x6x7xf32>
  %d = accel.conv2d %x, %k {padding = [1, 1, 1, 1]} : (tensor<1x3x6x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x7xf32>
  %z = accel.add %r, %d : tensor<1x4x6x7xf32>
  %e = accel.conv2d %x, %k {padding = [1, 1, 1, 1], has_relu = true} : (tensor<1x3x6x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x7xf32>
  %u = accel.add %e, %r : tensor<1x4x6x7xf32>
  func.return %y, %z, %u : tensor<1x4x6x7xf32>, tensor<1x4x6x7xf32>, tensor<1x4x6x7xf32>
}
"""


def ops(mod: xrelay.IRModule, kind: type[OpT]) -> list[OpT]:
    return [op for op in mod.module.walk() if isinstance(op, kind)]


def test_registered_and_in_accel_lowering() -> None:
    entry = lookup_pass("AccelFuseResidual")
    assert entry is not None
    assert entry.flag == "accel-fuse-residual"
    assert entry.factory() is AccelFuseResidualPass
    assert LOWERING[:2] == ("convert-relay-to-accel", "accel-fuse-residual")


def test_same_numbers_bit_for_bit() -> None:
    mod = xrelay.parse(BLOCK)
    x = RNG.standard_normal((1, 3, 6, 7)).astype("float32")
    r = RNG.standard_normal((1, 4, 6, 7)).astype("float32")
    before = xrelay.evaluate(mod, x, r)
    fused = AccelFuseResidual()(mod)
    after = xrelay.evaluate(fused, x, r)
    for want, got in zip(before, after, strict=True):
        np.testing.assert_array_equal(got, want)
    convs = ops(fused, accel.Conv2DOp)
    assert [bool(c.has_residual.value.data) for c in convs] == [True, True, False]
    assert len(ops(fused, accel.AddOp)) == 1  # the add of the relu'd convolution stays
    assert fuse_residuals(fused.module) == 0  # nothing left to fold


def test_tinyres_residual_folds_in_the_build_lowering() -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from tinyres import tinyres  # pyright: ignore[reportMissingImports, reportUnknownVariableType]
    finally:
        sys.path.pop(0)
    mod = tinyres(16)  # pyright: ignore[reportUnknownVariableType]
    lowered = lower(mod, targets=("accel",))  # pyright: ignore[reportUnknownArgumentType]
    assert not ops(lowered, accel.AddOp)
    fused = [c for c in ops(lowered, accel.Conv2DOp) if c.has_residual.value.data]
    assert len(fused) == 1
    x = RNG.standard_normal((1, 3, 16, 16)).astype("float32")
    np.testing.assert_allclose(
        xrelay.evaluate(lowered, x),
        xrelay.evaluate(mod, x),
        rtol=1e-5,
        atol=1e-6,  # pyright: ignore[reportUnknownArgumentType]
    )
