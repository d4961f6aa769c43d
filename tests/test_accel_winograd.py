"""Winograd F(2x2, 3x3) and F(4x4, 3x3) on accel: the numpy semantics, `accel-winograd` and
`accel-fuse-pool`.

`winograd_weights` and `winograd_conv2d` compute what the direct convolution
(`conv2d_nchw`) computes, up to float rounding, on any extents, padding and
batch; a NaN of the input reaches the outputs that read it and, with F(4x4),
others of its tiles, never other tiles. `accel-winograd` picks the tile
(`pays`, `choose_tile`) and leaves the interpreter's numbers within float32
rounding of the direct convolution's, `accel-fuse-pool` leaves them bit for
bit (NaN included), and both run in `xrelay.build`'s accel lowering, can be
disabled by name and do not run without optimization.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest
from xdsl.ir import Operation
from xrelay.codegen.accel import LOWERING
from xrelay.dialects import accel
from xrelay.dialects.accel_winograd import (
    Conv2DWinogradOp,
    winograd_conv2d,
    winograd_weights,
)
from xrelay.dialects.relay.reference_nn import conv2d_nchw
from xrelay.passes import lookup_pass
from xrelay.passes.accel_fuse_pool import AccelFusePool, AccelFusePoolPass, fuse_pool
from xrelay.passes.accel_fuse_residual import AccelFuseResidual
from xrelay.passes.accel_winograd import (
    AccelWinograd,
    AccelWinogradPass,
    choose_tile,
    pays,
    to_winograd,
)
from xrelay.passes.convert_relay_to_accel import ConvertRelayToAccel
from xrelay.passes.partition_for import partition_for

import xrelay
from xrelay import IRModule
from xrelay.transform import PassContext

Array = np.ndarray[Any, Any]
OpT = TypeVar("OpT", bound=Operation)


def ops(mod: IRModule, kind: type[OpT]) -> list[OpT]:
    return [op for op in mod.module.walk() if isinstance(op, kind)]


def direct(x: Array, w: Array, padding: tuple[int, int, int, int]) -> Array:
    """The direct convolution, float64."""
    return conv2d_nchw(x, w, (1, 1), padding, (1, 1), 1, np.dtype("float64"))


# --- the numpy semantics --------------------------------------------------------------------

CASES = [
    ((1, 16, 8, 8), 16, (1, 1, 1, 1)),
    ((1, 3, 5, 5), 4, (1, 1, 1, 1)),  # odd extents: the last tiles reach past the output
    ((2, 4, 7, 9), 5, (0, 0, 0, 0)),  # N = 2, no padding
    ((3, 2, 3, 3), 2, (2, 0, 1, 2)),  # N = 3, asymmetric padding
    ((1, 5, 6, 11), 3, (2, 2, 2, 2)),
    ((1, 2, 4, 1), 3, (0, 1, 0, 1)),  # one input column
    ((1, 1, 1, 1), 1, (1, 1, 1, 1)),  # a 1x1 output
    ((2, 8, 10, 13), 7, (0, 2, 1, 0)),
    ((1, 4, 12, 18), 6, (1, 1, 1, 1)),  # several whole tiles of 4
]


SCALED = {2: 1e-6, 4: 1e-5}
"""The largest difference from the direct convolution, relative to the largest input times the
largest filter's size: the weights rounded to float32 once (F(4x4)'s transform mixes them
more)."""


@pytest.mark.parametrize("tile", [2, 4])
@pytest.mark.parametrize(("shape", "k", "padding"), CASES)
def test_winograd_equals_direct_convolution(
    shape: tuple[int, int, int, int], k: int, padding: tuple[int, int, int, int], tile: int
) -> None:
    rng = np.random.default_rng(17)
    x = rng.standard_normal(shape).astype("float32")
    w = rng.standard_normal((k, shape[1], 3, 3)).astype("float32")
    u = winograd_weights(w, tile)
    assert u.shape == (tile + 2, tile + 2, k, shape[1])
    assert u.dtype == np.float32
    got, want = winograd_conv2d(x, u, padding), direct(x, w, padding)
    assert got.shape == want.shape
    # U mixes all 9 taps of a filter (those over the padding too): the error scales with
    # |x| times the whole filter's size, not with the result.
    scale = np.abs(x).max() * np.abs(w).sum(axis=(1, 2, 3)).max()
    np.testing.assert_allclose(got, want, rtol=0, atol=SCALED[tile] * scale)


G2 = [[1, 0, 0], [1 / 2, 1 / 2, 1 / 2], [1 / 2, -1 / 2, 1 / 2], [0, 0, 1]]
G4 = [
    [1 / 4, 0, 0],
    [-1 / 6, -1 / 6, -1 / 6],
    [-1 / 6, 1 / 6, -1 / 6],
    [1 / 24, 1 / 12, 1 / 6],
    [1 / 24, -1 / 12, 1 / 6],
    [0, 0, 1],
]
"""Lavin and Gray's filter transforms for F(2x2, 3x3) and F(4x4, 3x3)."""


@pytest.mark.parametrize(("tile", "g"), [(2, G2), (4, G4)])
def test_weights_are_g_g_gt_in_float64(tile: int, g: list[list[float]]) -> None:
    """`U[:, :, k, c] = G g G^T`, computed in float64 and rounded once (float64 sums in
    another order may round to the neighbouring float32: one ulp)."""
    gm = np.array(g, np.float64)
    w = np.random.default_rng(tile).standard_normal((3, 2, 3, 3)).astype("float32")
    u = winograd_weights(w, tile)
    for k in range(3):
        for c in range(2):
            want = (gm @ w[k, c].astype(np.float64) @ gm.T).astype(np.float32)
            np.testing.assert_array_max_ulp(u[:, :, k, c], want, maxulp=1)
    assert winograd_weights(w.astype(np.float64), tile).dtype == np.float64


def test_a_corner_filter_transforms_to_a_splat() -> None:
    """F(2x2)'s G maps (1, 0, 1) to all ones: a filter of corners c gives U = c everywhere
    (what `tests/filecheck/passes/accel_winograd.mlir` checks in the IR)."""
    corners = np.zeros((2, 2, 3, 3), np.float32)
    corners[:, :, ::2, ::2] = 0.25
    np.testing.assert_array_equal(winograd_weights(corners), np.full((4, 4, 2, 2), 0.25))


def tiles_holding(nans: Array, tile: int, padding: tuple[int, int, int, int]) -> Array:
    """Per image, the outputs of the tiles whose (tile + 2)-square windows hold a NaN of
    `nans` (N, H, W)."""
    top, left, bottom, right = padding
    n, h, w = nans.shape
    oh, ow = h + top + bottom - 2, w + left + right - 2
    ty, tx = -(-oh // tile), -(-ow // tile)
    padded = np.zeros((n, ty * tile + 2, tx * tile + 2), bool)
    padded[:, top : top + h, left : left + w] = nans
    out = np.zeros((n, ty * tile, tx * tile), bool)
    for y in range(ty):
        for x in range(tx):
            window = padded[:, y * tile : y * tile + tile + 2, x * tile : x * tile + tile + 2]
            out[:, y * tile : (y + 1) * tile, x * tile : (x + 1) * tile] = window.any(axis=(1, 2))[
                :, None, None
            ]
    return out[:, :oh, :ow]


@pytest.mark.parametrize("tile", [2, 4])
def test_nan_reaches_the_outputs_of_its_tiles_only(tile: int) -> None:
    """A NaN of the input makes NaN the outputs whose 3x3 window holds it (as the direct
    convolution does) and, with F(4x4), others of the tiles whose windows hold it (its
    transforms mix a window row into every output row); never outputs of other tiles, as
    `0 * nan` terms would. F(2x2) gives exactly the direct convolution's NaNs."""
    rng = np.random.default_rng(17)
    x = rng.standard_normal((2, 3, 9, 10)).astype("float32")
    w = rng.standard_normal((4, 3, 3, 3)).astype("float32")
    x[0, 1, 2, 3] = np.nan
    x[1, 2, 8, 0] = np.nan
    for padding in [(1, 1, 1, 1), (0, 0, 0, 0), (2, 1, 0, 2)]:
        got, want = winograd_conv2d(x, winograd_weights(w, tile), padding), direct(x, w, padding)
        nan, direct_nan = np.isnan(got), np.isnan(want)
        assert direct_nan.sum() > 0
        assert not (direct_nan & ~nan).any()
        assert not (nan & ~tiles_holding(np.isnan(x).any(axis=1), tile, padding)[:, None]).any()
        if tile == 2:
            np.testing.assert_array_equal(nan, direct_nan)
        scale = SCALED[tile] * np.abs(want[~nan]).max()
        np.testing.assert_allclose(got[~nan], want[~nan], rtol=0, atol=scale)


# --- the passes -----------------------------------------------------------------------------

BLOCK = """
func.func @main(%x: tensor<1x16x64x64xf32>, %w1: tensor<16x16x3x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3x3xf32>, %b2: tensor<16xf32>, %w3: tensor<32x16x3x3xf32>, %b3: tensor<32xf32>) -> tensor<1x32x16x16xf32> {
  %0 = relay.nn.conv2d %x, %w1 {padding = [1, 1, 1, 1]} : (tensor<1x16x64x64xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x64x64xf32>
  %1 = relay.nn.bias_add %0, %b1 : (tensor<1x16x64x64xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
  %2 = relay.nn.relu %1 : tensor<1x16x64x64xf32>
  %3 = relay.nn.conv2d %2, %w2 {padding = [1, 1, 1, 1]} : (tensor<1x16x64x64xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x64x64xf32>
  %4 = relay.nn.bias_add %3, %b2 : (tensor<1x16x64x64xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
  %5 = relay.add %4, %x : tensor<1x16x64x64xf32>
  %6 = relay.nn.relu %5 : tensor<1x16x64x64xf32>
  %7 = relay.nn.max_pool2d %6 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x16x64x64xf32>) -> tensor<1x16x32x32xf32>
  %8 = relay.nn.conv2d %7, %w3 {padding = [1, 1, 1, 1]} : (tensor<1x16x32x32xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x32x32xf32>
  %9 = relay.nn.bias_add %8, %b3 : (tensor<1x32x32x32xf32>, tensor<32xf32>) -> tensor<1x32x32x32xf32>
  %10 = relay.nn.relu %9 : tensor<1x32x32x32xf32>
  %11 = relay.nn.max_pool2d %10 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x32x32x32xf32>) -> tensor<1x32x16x16xf32>
  func.return %11 : tensor<1x32x16x16xf32>
}
"""
"""Three 3x3 convolutions that pay (16->16 at 64 columns: F(4x4), the second with a residual,
then 16->32 at 32: F(2x2)), each followed by a 2x2 max pool but the first."""

SHAPES = {
    "w1": (16, 16, 3, 3),
    "b1": (16,),
    "w2": (16, 16, 3, 3),
    "b2": (16,),
    "w3": (32, 16, 3, 3),
    "b3": (32,),
}


def params(seed: int = 0) -> dict[str, Array]:
    rng = np.random.default_rng(seed)
    return {k: (rng.standard_normal(s) * 0.2).astype("float32") for k, s in SHAPES.items()}


def accel_block() -> IRModule:
    """BLOCK partitioned for accel (weights bound as constants) and lowered to accel ops, with
    residuals folded: what `accel-winograd` sees in the build."""
    mod = partition_for(xrelay.parse(BLOCK), "accel", params())
    mod = xrelay.optimize(mod, opt_level=3)
    return AccelFuseResidual()(ConvertRelayToAccel()(mod))


def test_registered_and_in_accel_lowering() -> None:
    for tvm_name, flag, factory in [
        ("AccelWinograd", "accel-winograd", AccelWinogradPass),
        ("AccelFusePool", "accel-fuse-pool", AccelFusePoolPass),
    ]:
        entry = lookup_pass(tvm_name)
        assert entry is not None
        assert entry.flag == flag
        assert entry.factory() is factory
        assert factory.tvm_name == tvm_name
        assert factory.opt_level == 1  # not run without optimization
    assert AccelWinograd().info.name == "AccelWinograd"
    assert AccelFusePool().info.name == "AccelFusePool"
    assert LOWERING == (
        "convert-relay-to-accel",
        "accel-fuse-residual",
        "accel-winograd",
        "accel-fuse-pool",
    )


@pytest.mark.parametrize(
    ("c", "k", "ow", "tile", "taken"),
    [
        (16, 16, 32, 2, True),
        (8, 8, 24, 2, True),  # the fewest channels; 12 tiles fill 0.75 of a vector
        (64, 8, 224, 2, True),  # the most input channels for F(2x2)
        (7, 16, 32, 2, False),
        (16, 7, 32, 2, False),
        (65, 16, 32, 2, False),
        (16, 512, 32, 2, True),  # output channels have no upper bound
        (16, 16, 16, 2, False),  # 8 tiles: half a vector
        (16, 16, 18, 2, False),  # 9 of 16
        (16, 16, 23, 2, True),  # 12 tiles (the last one cut)
        (16, 16, 22, 2, False),  # 11 of 16
        (16, 16, 34, 2, False),  # 17 of 32
        (16, 16, 48, 2, True),  # 24 of 32
        (16, 16, 112, 2, True),  # 56 of 64
        (16, 16, 2, 2, False),  # 1 of 16
        (16, 16, 64, 4, True),  # 16 tiles of 4
        (32, 8, 48, 4, True),  # the most input channels for F(4x4); 12 tiles of 16
        (33, 16, 64, 4, False),
        (7, 16, 64, 4, False),
        (16, 7, 64, 4, False),
        (16, 16, 32, 4, False),  # 8 tiles: half a vector
        (16, 16, 45, 4, True),  # 12 tiles, the last one cut
        (16, 16, 44, 4, False),  # 11 of 16
        (16, 16, 224, 4, True),  # 56 of 64
    ],
)
def test_pays(c: int, k: int, ow: int, tile: int, taken: bool) -> None:
    assert pays(c, k, ow, tile) is taken


@pytest.mark.parametrize(
    ("c", "k", "ow", "tile"),
    [
        (16, 16, 224, 4),  # tinyres-224's 16-channel convolutions
        (16, 16, 64, 4),
        (16, 16, 32, 2),  # 8 tiles of 4: half a vector; 16 of 2
        (32, 16, 48, 4),
        (33, 16, 48, 2),  # too many channels for F(4x4)'s scratch
        (64, 16, 48, 2),
        (65, 16, 48, None),
        (16, 16, 16, None),  # neither fills a vector
        (4, 16, 64, None),
    ],
)
def test_choose_tile(c: int, k: int, ow: int, tile: int | None) -> None:
    assert choose_tile(c, k, ow) == tile


def test_winograd_keeps_the_numbers_and_pool_fusion_keeps_them_bit_for_bit() -> None:
    """The interpreter before and after `accel-winograd` (within float32 rounding), then after
    `accel-fuse-pool` (the same bits): the three convolutions take Winograd, the two pools of
    Winograd convolutions fold."""
    mod = accel_block()
    x = np.random.default_rng(3).standard_normal((1, 16, 64, 64)).astype("float32")
    before = np.asarray(xrelay.evaluate(mod, x))
    assert len(ops(mod, accel.Conv2DOp)) == 3
    winograd = AccelWinograd()(mod.clone())
    assert not ops(winograd, accel.Conv2DOp)
    convs = ops(winograd, Conv2DWinogradOp)
    assert [(c.bias is not None, c.residual is not None) for c in convs] == [
        (True, False),
        (True, True),
        (True, False),
    ]
    assert all(c.has_relu.value.data for c in convs)
    assert [c.tile.value.data for c in convs] == [4, 4, 2]  # 64 columns: F(4x4); 32: F(2x2)
    after = np.asarray(xrelay.evaluate(winograd, x))
    # F(4x4)'s weights rounded to float32: errors scale with the outputs, not each element.
    np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-5 * np.abs(before).max())
    pooled = AccelFusePool()(winograd.clone())
    assert not ops(pooled, accel.MaxPool2DOp)
    assert [bool(c.has_max_pool.value.data) for c in ops(pooled, Conv2DWinogradOp)] == [
        False,
        True,
        True,
    ]
    np.testing.assert_array_equal(np.asarray(xrelay.evaluate(pooled, x)), after)


def test_nan_through_the_fused_pool() -> None:
    """NaNs of the input (one alone in its pool window, one in a window of the residual)
    reach the same outputs before and after `accel-fuse-pool` (interpreter, same bits)."""
    rng = np.random.default_rng(17)
    mod = AccelWinograd()(accel_block())
    x = rng.standard_normal((1, 16, 64, 64)).astype("float32")
    x[0, 3, 10, 21] = np.nan
    x[0, 9, 63, 0] = np.nan
    before = np.asarray(xrelay.evaluate(mod, x))
    fused = AccelFusePool()(mod.clone())
    assert not ops(fused, accel.MaxPool2DOp)
    after = np.asarray(xrelay.evaluate(fused, x))
    assert 0 < np.isnan(after).sum() < after.size
    np.testing.assert_array_equal(after, before)


def test_to_winograd_and_fuse_pool_say_whether_they_rewrote() -> None:
    mod = accel_block()
    conv = ops(mod, accel.Conv2DOp)[0]
    assert to_winograd(conv)
    pool = ops(mod, accel.MaxPool2DOp)[0]
    assert not fuse_pool(pool)  # its convolution (the residual one) is direct still
    (conv,) = [c for c in ops(mod, accel.Conv2DOp) if c.residual is not None]
    assert to_winograd(conv)
    assert fuse_pool(pool)
    mod.module.verify()


# --- in xrelay.build ------------------------------------------------------------------------


def kinds(mod: IRModule) -> list[str]:
    """The kernel ops of `mod`, with a Winograd convolution's pool marked."""
    out: list[str] = []
    for op in mod.module.walk():
        if isinstance(op, Conv2DWinogradOp):
            pool = "+pool" if op.has_max_pool.value.data else ""
            out.append(f"winograd{op.tile.value.data}{pool}")
        elif isinstance(op, accel.Conv2DOp | accel.MaxPool2DOp):
            out.append(op.name)
    return out


DIRECT = ["accel.conv2d", "accel.conv2d", "accel.max_pool2d", "accel.conv2d", "accel.max_pool2d"]


@pytest.mark.parametrize(
    ("disabled", "optimize", "want"),
    [
        ((), True, ["winograd4", "winograd4+pool", "winograd2+pool"]),
        (("accel-winograd",), True, DIRECT),
        (("AccelWinograd",), True, DIRECT),
        (("accel-fuse-pool",), True, [
            "winograd4", "winograd4", "accel.max_pool2d", "winograd2", "accel.max_pool2d"]),
        ((), False, DIRECT),
    ],
)  # fmt: skip
def test_build_takes_winograd_unless_disabled_or_unoptimized(
    cache: Path, disabled: tuple[str, ...], optimize: bool, want: list[str]
) -> None:
    """In `xrelay.build(..., ["accel", "c"])` the passes run after `accel-fuse-residual`;
    `disabled_pass` (flag or TVM name) keeps what they would rewrite, and a build with
    `optimize=False` runs neither (opt_level 0: the conversions only). The library computes
    the relay module's numbers either way."""
    rng = np.random.default_rng(17)
    mod = xrelay.parse(BLOCK)
    weights = params()
    options = {"cache_dir": cache, "optimize": optimize}
    with PassContext(opt_level=3, disabled_pass=list(disabled)):
        lib = xrelay.build(mod, ["accel", "c"], weights, options)
    assert kinds(lib.module) == want
    x = rng.standard_normal((1, 16, 64, 64)).astype("float32")
    expected = xrelay.evaluate(mod, x, *weights.values())
    np.testing.assert_allclose(lib(x), expected, rtol=1e-4, atol=1e-4)
