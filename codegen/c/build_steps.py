"""The passes `xrelay.build` runs before emission, defined once.

`xrelay.build` (`pipeline.lower`) binds its params into a private copy of the
module, then runs `build_steps(targets, opt_level)`; the pass
`build-pipeline{target=accel,c opt-level=3}` (`passes/build_pipeline.py`)
runs the same steps on the module it is given, so a build is reproducible
from the command line: `xrelay-opt model.mlir -p 'build-pipeline{target=accel,c}'`
prints what `lib.module` holds. The steps, in order:

1. `check-no-recursion` (`recursion.py`: the arena is static);
2. with BYOC targets and optimization: `PARTITION_PRELUDE` (CanonicalizeOps,
   SimplifyInference, FoldConstant, FoldScaleAxis, SimplifyExpr, FoldConstant:
   what TVM's `partition_for_dnnl` runs first, so a batch norm folds into its
   convolution's weights and bias before the targets see it; and xrelay's
   SplitConcatConv after FoldScaleAxis: a convolution over a channel
   concatenation as a sum of convolutions, `passes/split_concat_conv.py`; and
   FoldChannelShuffle, a channel shuffle folded into the convolution after it or moved
   past a strided depthwise one, `passes/fold_channel_shuffle.py`), then each
   target's `prelude` (`codegen/targets.py`), as one `Sequential` at the
   build's opt_level; then `partition-for{target=...}`;
3. `optimize` at `opt_level` (relay.build's passes, then FuseOps, which skips
   the partitioned functions); not with `optimize=False` (`opt_level` None);
4. each BYOC target's lowering passes (`CodegenTarget.lowering`), one
   `Sequential` per target at the build's opt_level (0 without optimization:
   only the conversions), so `PassContext(disabled_pass=[...])` turns one off;
5. `check-static-shapes` (`kernels_dyn.py`: a `relay.dyn.*` op left, its shape not
   folded by `dynamic-to-static`, is a located error), `widen-half-floats`
   (`half_floats.py`), then `plan-memory`.

Every pass runs under the current PassContext; `run_build_steps` runs them
without snapshots unless that context sets `transform.transactional`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xrelay.codegen.c.half_floats import widen_half_floats
from xrelay.codegen.c.kernels_dyn import check_static_shapes
from xrelay.codegen.c.recursion import check_no_recursion
from xrelay.codegen.targets import get_codegen, prelude_passes
from xrelay.dialects.ir_module import IRModule

if TYPE_CHECKING:
    from xrelay.passes.pass_manager import Pass

PARTITION_PRELUDE = (
    "CanonicalizeOps",
    "SimplifyInference",
    "FoldConstant",
    "FoldScaleAxis",
    "SplitConcatConv",
    "FoldChannelShuffle",
    "SimplifyExpr",
    "FoldConstant",
)
"""The passes run before partitioning (TVM names), gated at the build's opt_level."""


@dataclass(frozen=True)
class BuildStep:
    """One step of the build: what it is, as `xrelay-opt -p` would spell it, and how it runs."""

    spec: str
    """E.g. `partition-for{target=accel}`, `optimize{opt-level=3}`, `plan-memory`."""

    run: Callable[[IRModule], IRModule]
    """Runs the step on a module (in place or not): the module after it."""


def partition_steps(targets: Sequence[str], opt_level: int | None) -> list[BuildStep]:
    """The build's first steps, up to partitioning (1 and 2 of the module docstring): the
    module as the targets' lowering will find it, before host optimization."""
    from xrelay.passes.adapters import get_pass
    from xrelay.passes.partition_for import PartitionForPass
    from xrelay.passes.pass_manager import Sequential

    steps = [BuildStep("check-no-recursion", _check_no_recursion)]
    if targets:
        if opt_level is not None:
            common = [get_pass(name) for name in PARTITION_PRELUDE]
            prelude = Sequential([*common, *prelude_passes(targets)])
            prelude.scoped_opt_level = opt_level
            steps.append(BuildStep(_spec(prelude), prelude.run_in_place))
        partition = PartitionForPass(target=tuple(targets))
        steps.append(
            BuildStep(
                f"partition-for{{target={','.join(targets)}}}", partition.build().run_in_place
            )
        )
    return steps


def build_steps(targets: Sequence[str], opt_level: int | None) -> list[BuildStep]:
    """The steps of a build for the BYOC `targets` (registered code generators, host not
    listed) at `opt_level` (None: not optimized), in order (module docstring)."""
    from xrelay.passes.adapters import get_pass
    from xrelay.passes.optimize import OptimizePass
    from xrelay.passes.pass_manager import Sequential
    from xrelay.passes.plan_memory import PlanMemory

    steps = partition_steps(targets, opt_level)
    level = opt_level if opt_level is not None else 0
    if opt_level is not None:
        optimize = OptimizePass(opt_level=opt_level).build()
        steps.append(BuildStep(f"optimize{{opt-level={opt_level}}}", optimize.run_in_place))
    for name in targets:
        codegen = get_codegen(name)
        assert codegen is not None, name
        lowering = Sequential([get_pass(flag) for flag in codegen.lowering])
        lowering.scoped_opt_level = level
        steps.append(BuildStep(_spec(lowering), lowering.run_in_place))
    steps.append(BuildStep("check-static-shapes", _check_static_shapes))
    steps.append(BuildStep("widen-half-floats", _widen_half_floats))
    steps.append(BuildStep("plan-memory", PlanMemory().run_in_place))
    return steps


def run_build_steps(mod: IRModule, targets: Sequence[str], opt_level: int | None) -> IRModule:
    """`mod` after `build_steps(targets, opt_level)` (changed in place where a step allows).

    Unless the current PassContext sets `transform.transactional`, the passes run without
    snapshots (the caller owns `mod`; a third of the pass time on DenseNet-121).
    """
    from xrelay.passes.pass_context import PassContext

    defaults = {"transform.transactional": False}
    with PassContext.current().with_defaults(defaults):
        for step in build_steps(targets, opt_level):
            mod = step.run(mod)
    return mod


def describe(targets: Sequence[str], opt_level: int | None) -> list[str]:
    """The steps' specs, in order (what a build for `targets` at `opt_level` runs)."""
    return [step.spec for step in build_steps(targets, opt_level)]


def _spec(pipeline: Pass) -> str:
    """A pipeline's passes as `xrelay-opt -p` names them (by name where one cannot)."""
    return pipeline.pipeline_spec() or repr(pipeline)


def _check_no_recursion(mod: IRModule) -> IRModule:
    check_no_recursion(mod.module)
    return mod


def _check_static_shapes(mod: IRModule) -> IRModule:
    check_static_shapes(mod.module)
    return mod


def _widen_half_floats(mod: IRModule) -> IRModule:
    widen_half_floats(mod.module)
    return mod
