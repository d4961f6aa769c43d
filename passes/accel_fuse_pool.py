"""`accel-fuse-pool`: fold a 2x2 max pool into the Winograd convolution that feeds it.

- **Match.** `accel.max_pool2d` with a 2x2 window, strides 2, dilation 1, no
  padding, NCHW, whose data is an `accel.conv2d_winograd` with no pool yet,
  even output extents, and this pool as its only user.
- **Rewrite.** The convolution with `has_max_pool` (its result now the pool's
  type), placed where it was and named like the pool's result; the pool is
  erased. Each 2x2 output tile of F(2x2, 3x3) is one pool window, so the kernel
  stores the tile's maximum after its epilogue: the convolution's full output is
  never written nor read back (tinyres-224: 3.2 MB each way per pool).
  With even extents every window is whole, so `ceil_mode` changes nothing.
- **Kept.** Other pools (windows, strides, padding, layouts), pools of anything
  else, convolutions read by another op too or with odd extents.

Part of accel's lowering, after `accel-winograd`. One rewrite pattern (`FusePool`) run
by the greedy driver in one forward sweep. Linear: each pool is looked at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects import accel
from xrelay.dialects.accel_winograd import Conv2DWinogradOp
from xrelay.dialects.relay.base import get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.types import shape_of
from xrelay.passes.adapters import XdslPass
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_manager import Pass

__all__ = ["AccelFusePool", "AccelFusePoolPass", "FusePool", "fuse_pool"]


def _fusable(pool: accel.MaxPool2DOp) -> Conv2DWinogradOp | None:
    """The convolution `pool` folds into (see the module docstring), else None."""
    props = pool.properties
    conv = pool.data.owner
    if not isinstance(conv, Conv2DWinogradOp) or conv.has_max_pool.value.data:
        return None
    if get_ints(props, "pool_size") != (2, 2) or get_ints(props, "strides") != (2, 2):
        return None
    if get_ints(props, "dilation") != (1, 1) or any(pad_2d(get_ints(props, "padding"))):
        return None
    if get_str(props, "layout") != "NCHW" or not conv.result.has_one_use():
        return None
    _, _, oh, ow = shape_of(conv.result.type)
    return conv if oh % 2 == 0 and ow % 2 == 0 else None


def fuse_pool(pool: accel.MaxPool2DOp, rewriter: PatternRewriter | None = None) -> bool:
    """Fold `pool` into its convolution if it can; whether it did."""
    conv = _fusable(pool)
    if conv is None:
        return False
    rewriter = rewriter or PatternRewriter(pool)
    props = dict(conv.properties)
    props["has_max_pool"] = IntegerAttr(1, i1)
    fused = Conv2DWinogradOp.make(conv.operands, props, dict(conv.attributes))
    fused.result.name_hint = pool.result.name_hint
    rewriter.insert(fused, InsertPoint.before(conv))
    rewriter.replace_all_uses_with(pool.result, fused.result)
    rewriter.erase(pool)
    rewriter.erase(conv)
    return True


class FusePool(RewritePattern):
    """A 2x2 stride-2 `accel.max_pool2d` of a Winograd convolution into it (`has_max_pool`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: accel.MaxPool2DOp, rewriter: PatternRewriter, /) -> None:
        fuse_pool(op, rewriter)


@dataclass(frozen=True)
class AccelFusePoolPass(ModulePass):
    """Fold 2x2 stride-2 max pools into the Winograd convolutions feeding them."""

    name = "accel-fuse-pool"
    tvm_name: ClassVar[str] = "AccelFusePool"
    opt_level: ClassVar[int] = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_greedily(op.body, [FusePool()], apply_recursively=False)


def AccelFusePool() -> Pass:
    """The `accel-fuse-pool` pass, for `Sequential` and `PassContext` (TVM style)."""
    return XdslPass(AccelFusePoolPass())
