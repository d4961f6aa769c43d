"""`build-pipeline{target=accel,c opt-level=3}`: what `xrelay.build` runs before emission.

    xrelay-opt model.mlir -p 'build-pipeline{target=accel,c}'            # = lib.module
    xrelay-opt model.mlir -p 'build-pipeline{target=dnnl,c opt-level=2}' -t c

The steps are `codegen/c/build_steps.py`'s list, the one `xrelay.build` runs
after binding its params (there is no second copy): recursion check, with
BYOC targets the partition prelude and `partition-for`, `optimize`, each
target's lowering, `widen-half-floats`, `plan-memory`. The output is the
module `xrelay.build(mod, target=[...], options={"opt_level": N})` emits
(`lib.module`), under the same PassContext (disabled passes, instruments,
config). Options: `target` as `xrelay.build` takes it (a list ending in `c`,
default `c`), `opt-level` (0-3, default 3), `optimize` (default true; false
is the build option `optimize=False`: nothing optimized, only partitioned,
lowered and planned). Params are not bound: a module with parameters keeps
them (pass constants in the text to fold them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xrelay.dialects.ir_module import IRModule
from xrelay.passes.transaction import restore


@dataclass(frozen=True)
class BuildPipelinePass(ModulePass):
    """Run what xrelay.build runs before emitting C (codegen/c/build_steps.py)."""

    name = "build-pipeline"
    tvm_name: ClassVar[str] = "BuildPipeline"

    target: tuple[str, ...] = ("c",)
    """The build's targets, host last (e.g. `accel,c`), as `xrelay.build(target=...)` takes."""

    opt_level: int = 3
    """The build option `opt_level` (0-3)."""

    optimize: bool = True
    """The build option `optimize` (false: nothing optimized)."""

    def __post_init__(self) -> None:
        from xrelay.codegen.c.pipeline import check_options, check_targets

        check_targets(list(self.target))
        check_options({"opt_level": self.opt_level, "optimize": self.optimize})

    def steps(self) -> list[str]:
        """The specs of the steps this pass runs, in order (`build_steps.describe`)."""
        from xrelay.codegen.c.build_steps import describe

        return describe(self.target[:-1], self.opt_level if self.optimize else None)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xrelay.codegen.c.build_steps import run_build_steps

        level = self.opt_level if self.optimize else None
        result = run_build_steps(IRModule(module=op), self.target[:-1], level)
        if result.module is not op:
            restore(op, result.module)
