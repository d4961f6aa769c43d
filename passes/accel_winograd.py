"""`accel-winograd`: 3x3 convolutions with constant weights to `accel.conv2d_winograd`.

- **Match.** `accel.conv2d` on float32 NCHW data with a constant OIHW `(K, C, 3, 3)`
  weight (a `relay.constant`), strides and dilation 1, one group, padding of
  at most 2 on each side, and where Winograd pays on accel's kernel
  (`choose_tile`): `C` and `K` at least `MIN_CHANNELS`, and the tiles of an
  output row fill at least `MIN_FILL` of the vectors (16 tiles to a vector).
  F(4x4, 3x3) (4x fewer multiplies) when `C <= MAX_CHANNELS[4]` and it fills
  them, else F(2x2, 3x3) (2.25x fewer) when `C <= MAX_CHANNELS[2]` and it
  does; else direct. tinyres-224's 16-channel convolutions take F(4x4); at 32
  columns (16 tiles of 2, 8 of 4) F(2x2); at 16 columns neither fills a vector.
- **Rewrite.** `accel.conv2d_winograd` with that `tile` and the weights
  transformed once, here (`winograd_weights`: `G g G^T` in float64, a new
  `(m + 2, m + 2, K, C)` constant, one per weight and tile in a block: convolutions
  sharing a weight share it), the same padding, bias, residual and relu; the old
  weight constant goes when nothing else reads it.
- **Kept.** Every other convolution (strided, dilated, grouped, other kernel
  sizes or layouts, weights computed at run time, too few channels to pay
  for the transforms, or more than the kernel's scratch holds).

The result agrees with the direct convolution up to float rounding (the
transformed weights are rounded to float32: F(2x2) moves a 16-channel layer's
outputs by about 1e-7 relative, F(4x4) by about 1e-6). TVM does the same in two
steps (`contrib_conv2d_winograd_weight_transform` folded by FoldConstant); here
the weights are constants by then, so one pass does both. Part of accel's
lowering, after `accel-fuse-residual`; disable it by name
(`PassContext(disabled_pass=["accel-winograd"])`) to keep direct convolution.
One rewrite pattern (`ToWinograd`, which remembers the weights it transformed) run
by the greedy driver in one forward sweep, so a shared transformed weight is
made before its first convolution. Linear: each convolution is looked at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, IntegerAttr, ModuleOp, i64
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects import accel
from xrelay.dialects.accel_winograd import Conv2DWinogradOp, winograd_weights
from xrelay.dialects.relay.base import get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import (
    dense_from_numpy,
    dense_to_numpy,
    shape_of,
    tensor_element_type,
)
from xrelay.passes.adapters import XdslPass
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_manager import Pass

__all__ = [
    "AccelWinograd",
    "AccelWinogradPass",
    "ToWinograd",
    "choose_tile",
    "pays",
    "to_winograd",
]

MIN_CHANNELS = 8
"""Fewest input and output channels: below, the transforms cost more than the products save."""

MAX_CHANNELS = {4: 32, 2: 64}
"""Most input channels by tile: the kernel keeps `(m + 2)^2 * C` vectors of transformed
input on a thread's stack (`codegen/accel/conv_winograd.py`), at most 80 KiB."""

MIN_FILL = 0.75
"""Least share of the vector lanes (16 tiles each) an output row's tiles fill."""

LANES = 16
"""Tiles per vector on AVX-512, the kernel's widest (`codegen/accel/vectors.py`)."""


def pays(c: int, k: int, ow: int, tile: int = 2) -> bool:
    """Whether F(tile x tile, 3x3) beats direct convolution on accel for `c` input and `k`
    output channels and `ow` output columns (the thresholds above)."""
    tiles = -(-ow // tile)
    fill = tiles / (LANES * -(-tiles // LANES))
    channels = MIN_CHANNELS <= c <= MAX_CHANNELS[tile] and k >= MIN_CHANNELS
    return channels and fill >= MIN_FILL


def choose_tile(c: int, k: int, ow: int) -> int | None:
    """The tile extent for a convolution of these channels and output columns: 4 when it
    pays, else 2 when it pays, else None (direct)."""
    return next((tile for tile in (4, 2) if pays(c, k, ow, tile)), None)


def _candidate(conv: accel.Conv2DOp) -> tuple[ConstantOp, int] | None:
    """The weight constant of `conv` and the tile, when it takes the Winograd kernel."""
    props = conv.properties
    weight = conv.weight.owner
    if not isinstance(weight, ConstantOp):
        return None
    if any(
        not isinstance(tensor_element_type(v.type), Float32Type)
        for v in (*conv.operands, conv.result)
    ):
        return None
    if get_str(props, "data_layout") != "NCHW" or get_str(props, "kernel_layout") != "OIHW":
        return None
    if get_ints(props, "strides") != (1, 1) or get_ints(props, "dilation") != (1, 1):
        return None
    if get_int(props, "groups") != 1 or max(pad_2d(get_ints(props, "padding"))) > 2:
        return None
    k, c, kh, kw = shape_of(conv.weight.type)
    tile = choose_tile(c, k, shape_of(conv.result.type)[3])
    if (kh, kw) != (3, 3) or tile is None:
        return None
    return weight, tile


Transformed = dict[tuple[int, int], ConstantOp]
"""Transformed weights made so far: (id of the weight constant, tile) -> the new constant."""


def to_winograd(
    conv: accel.Conv2DOp, made: Transformed | None = None, rewriter: PatternRewriter | None = None
) -> bool:
    """Rewrite `conv` to `accel.conv2d_winograd` if it matches; whether it did.

    `made`: the weights transformed by earlier rewrites (in walk order) of the same pass;
    a convolution sharing a weight with one of them in its block reads the same constant.
    """
    found = _candidate(conv)
    if found is None:
        return False
    weight, tile = found
    made = {} if made is None else made
    rewriter = rewriter or PatternRewriter(conv)
    transformed = made.get((id(weight), tile))
    new_ops: list[Operation] = []
    if transformed is None or transformed.parent_block() is not conv.parent_block():
        u = winograd_weights(np.asarray(dense_to_numpy(weight.value)), tile)
        transformed = ConstantOp(dense_from_numpy(u, tensor_element_type(conv.weight.type)))
        if weight.result.name_hint:
            transformed.result.name_hint = f"{weight.result.name_hint}_winograd"
        made[(id(weight), tile)] = transformed
        new_ops.append(transformed)
    props: dict[str, Attribute] = {
        "padding": conv.padding,
        "tile": IntegerAttr(tile, i64),
        "has_bias": conv.has_bias,
        "has_residual": conv.has_residual,
        "has_relu": conv.has_relu,
    }
    if conv.clip_min is not None and conv.clip_max is not None:
        props["clip_min"], props["clip_max"] = conv.clip_min, conv.clip_max
    operands = [conv.data, transformed.result, *conv.extras]
    fast = Conv2DWinogradOp.make(operands, props, dict(conv.attributes))
    fast.result.name_hint = conv.result.name_hint
    rewriter.insert([*new_ops, fast], InsertPoint.before(conv))
    rewriter.replace_all_uses_with(conv.result, fast.result)
    rewriter.erase(conv)
    if not weight.result.uses:
        made.pop((id(weight), tile), None)
        rewriter.erase(weight)
    return True


class ToWinograd(RewritePattern):
    """An `accel.conv2d` that takes the Winograd kernel to `accel.conv2d_winograd`; convolutions
    sharing a weight in a block share its transform (the ones this pattern made)."""

    def __init__(self) -> None:
        self.made: Transformed = {}

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: accel.Conv2DOp, rewriter: PatternRewriter, /) -> None:
        to_winograd(op, self.made, rewriter)


@dataclass(frozen=True)
class AccelWinogradPass(ModulePass):
    """3x3 stride-1 convolutions with constant weights to `accel.conv2d_winograd`."""

    name = "accel-winograd"
    tvm_name: ClassVar[str] = "AccelWinograd"
    opt_level: ClassVar[int] = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_greedily(op.body, [ToWinograd()], apply_recursively=False)


def AccelWinograd() -> Pass:
    """The `accel-winograd` pass, for `Sequential` and `PassContext` (TVM style)."""
    return XdslPass(AccelWinogradPass())
