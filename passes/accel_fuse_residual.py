"""`accel-fuse-residual`: fold an `accel.add` of a convolution into the convolution's epilogue.

- **Match.** `accel.add %a, %b` (with or without `has_relu`) where one operand
  (`%a` first, then `%b`) is the result of an `accel.conv2d` that has no relu,
  no clip and no residual yet, has the add's type, and whose only user is this add.
- **Rewrite.** One `accel.conv2d` with the same operands and attributes plus
  the add's other operand as its residual (`has_residual`), and the add's
  `has_relu`, placed where the add was (every operand is defined before it)
  and named like the add's result; the add and the old convolution are erased.
  The kernel then writes `relu(conv + bias + residual)` once instead of the
  convolution's result and then the sum (a whole tensor written and read twice
  less). Float addition commutes, so `residual + conv` folds as well, bit for bit.
- **Kept.** A convolution with a relu (`relu(conv) + r` is not `relu(conv + r)`),
  or read by another op too; adds of anything else.

Part of accel's lowering (`codegen/accel/__init__.py`), after
`convert-relay-to-accel`. One rewrite pattern (`FuseResidual`) run by the greedy
driver in one forward sweep (a folded convolution has its residual: it never
matches again). Linear: each add is looked at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects import accel
from xrelay.passes.adapters import XdslPass
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_manager import Pass

__all__ = [
    "AccelFuseResidual",
    "AccelFuseResidualPass",
    "FuseResidual",
    "fusable_conv",
    "fuse_residuals",
]


def fusable_conv(value: SSAValue, add: accel.AddOp) -> accel.Conv2DOp | None:
    """The convolution computing `value` if `add` can fold into it (see the module docstring)."""
    conv = value.owner
    if not isinstance(conv, accel.Conv2DOp):
        return None
    if conv.has_relu.value.data or conv.has_residual.value.data or conv.clip_min is not None:
        return None  # relu(conv) + r is not relu(conv + r), nor is a clip; one residual only
    if not conv.result.has_one_use() or conv.result.type != add.result.type:
        return None
    return conv


def fuse(add: accel.AddOp, rewriter: PatternRewriter) -> bool:
    """Fold `add` into the convolution of one of its operands; whether it did."""
    for value, other in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
        conv = fusable_conv(value, add)
        if conv is None:
            continue
        props = dict(conv.properties)
        props["has_residual"] = IntegerAttr(1, i1)
        props["has_relu"] = add.has_relu
        fused = accel.Conv2DOp.make([*conv.operands, other], props, dict(conv.attributes))
        fused.result.name_hint = add.result.name_hint
        rewriter.insert(fused, InsertPoint.before(add))
        rewriter.replace_all_uses_with(add.result, fused.result)
        rewriter.erase(add)
        rewriter.erase(conv)
        return True
    return False


class FuseResidual(RewritePattern):
    """`accel.add(conv2d, r)` to one `accel.conv2d` with `r` as its residual; counts its folds."""

    def __init__(self) -> None:
        self.count = 0

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: accel.AddOp, rewriter: PatternRewriter, /) -> None:
        self.count += fuse(op, rewriter)


def fuse_residuals(module: ModuleOp) -> int:
    """Fold every foldable `accel.add` of `module` into its convolution; how many folded."""
    pattern = FuseResidual()
    rewrite_greedily(module.body, [pattern], apply_recursively=False)
    return pattern.count


@dataclass(frozen=True)
class AccelFuseResidualPass(ModulePass):
    """Fold `accel.add(conv2d, r)` into the convolution as its residual (`has_residual`)."""

    name = "accel-fuse-residual"
    tvm_name: ClassVar[str] = "AccelFuseResidual"
    opt_level: ClassVar[int] = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fuse_residuals(op)


def AccelFuseResidual() -> Pass:
    """The `accel-fuse-residual` pass, for `Sequential` and `PassContext` (TVM style)."""
    return XdslPass(AccelFuseResidualPass())
