"""`optimize` (`xrelay.optimize`): the passes TVM's `relay.build` applies, as one named pipeline.

In TVM's order (`src/relay/backend/utils.cc`, `GetPassPrefix`, then the
fusion `relay.build` runs before lowering), each gated by the opt_level as in
any `Sequential`:

| pass | opt_level |
| --- | --- |
| SimplifyInference | 0 |
| DynamicToStatic | 2 |
| EliminateCommonSubexpr | 3 |
| SimplifyExpr | 0 |
| CombineParallelConv2D, CombineParallelDense, CombineParallelBatchMatmul (3 branches) | 4 |
| FoldConstant | 2 |
| FoldScaleAxis (Backward 3, Forward 3, FoldConstant 2) | 0 |
| SimplifyExpr | 0 |
| CanonicalizeOps | 3 |
| AlterOpLayout | 3 |
| FastMath | 4 |
| FoldConstant | 2 |
| DeadCodeElimination | 1 |
| FuseOps (with `fuse=true`) | 0 |

DynamicToStatic is not in TVM's `GetPassPrefix`; it runs early here because the C
target compiles static shapes only (a `relay.dyn.*` op left is a build error), and it
costs one walk per function when there is no dynamic op.
TVM's passes xrelay has no counterpart of (qnn Legalize, SplitArgs) are not in
the list, nor are CanonicalizeCast and FlattenAtrousConv (passes of their own); TVM's
RemoveUnusedFunctions is DeadCodeElimination's job here, moved to the end.
No InferType: xrelay's passes keep types correct.

`opt-level=-1` (the default) runs at the PassContext's opt_level; any other
value runs the pipeline at that level, as a nested context sharing the
current one's instruments, required/disabled passes and config.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from xrelay.passes.adapters import XdslPass, XdslPipelinePass, get_pass
from xrelay.passes.fold_scale_axis import FoldScaleAxisPass
from xrelay.passes.pass_manager import Sequential
from xrelay.passes.simplify_inference import SimplifyInferencePass

BUILD_PASSES = (
    "SimplifyInference",
    "DynamicToStatic",
    "EliminateCommonSubexpr",
    "SimplifyExpr",
    "CombineParallelConv2D",
    "CombineParallelDense",
    "CombineParallelBatchMatmul",
    "FoldConstant",
    "FoldScaleAxis",
    "SimplifyExpr",
    "CanonicalizeOps",
    "AlterOpLayout",
    "FastMath",
    "FoldConstant",
    "DeadCodeElimination",
)
"""The pipeline before fusion, by TVM name."""


@dataclass(frozen=True)
class OptimizePass(XdslPipelinePass):
    """Run the optimizations relay.build applies at an opt level, then fuse ops."""

    name = "optimize"
    tvm_name: ClassVar[str] = "Optimize"

    opt_level: int = -1
    """The level the passes are gated at; -1: the PassContext's."""

    fuse: bool = True
    """Finish with FuseOps (relay.build does; turn off to read the optimized graph)."""

    def passes(self) -> list[Any]:
        names = [*BUILD_PASSES, "FuseOps"] if self.fuse else list(BUILD_PASSES)
        return [_pass(n) for n in names]

    def build(self) -> Sequential:
        pipeline = super().build()
        if self.opt_level >= 0:
            pipeline.scoped_opt_level = self.opt_level
        return pipeline


def _folding_simplify_inference() -> Any:
    """SimplifyInference emitting batch_norm's scale and shift as the constants the
    pipeline's FoldConstant would fold them to (when it runs; same IR, fewer ops built)."""
    return XdslPass(SimplifyInferencePass(fold_constants=True))


def _folding_fold_scale_axis() -> Any:
    """FoldScaleAxis whose backward folds emit the new weights as the constants its own
    FoldConstant would fold them to (when it runs; same IR, fewer ops built)."""
    return FoldScaleAxisPass(fold_constants=True).build()


def _pass(name: str) -> Any:
    """The pass `name` of the pipeline, in its constant-emitting form where it has one."""
    if name == "SimplifyInference":
        return _folding_simplify_inference()
    if name == "FoldScaleAxis":
        return _folding_fold_scale_axis()
    return get_pass(name)
