"""`lambda-lift` (TVM's `LambdaLift`): nothing is left to lift.

See `normal_form.py` for why xrelay's SSA IR is already in this form; the
pass verifies the module and leaves it unchanged, so pipelines written for
TVM run as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xrelay.passes.adapters import XdslPass
from xrelay.passes.normal_form import check_module_functions
from xrelay.passes.pass_manager import Pass


@dataclass(frozen=True)
class LambdaLiftPass(ModulePass):
    """TVM's `LambdaLift`: a check of the form SSA already gives (see `normal_form.py`)."""

    name = "lambda-lift"
    tvm_name: ClassVar[str] = "LambdaLift"
    opt_level: ClassVar[int] = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_module_functions(op, self.name)


def LambdaLift() -> Pass:
    """TVM's `relay.transform.LambdaLift`: the `lambda-lift` pass."""
    return XdslPass(LambdaLiftPass())
