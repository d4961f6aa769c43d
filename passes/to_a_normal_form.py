"""`to-a-normal-form` (TVM's `ToANormalForm`): SSA values are already ANF.

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
class ToANormalFormPass(ModulePass):
    """TVM's `ToANormalForm`: a check of the form SSA already gives (see `normal_form.py`)."""

    name = "to-a-normal-form"
    tvm_name: ClassVar[str] = "ToANormalForm"
    opt_level: ClassVar[int] = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_module_functions(op, self.name)


def ToANormalForm() -> Pass:
    """TVM's `relay.transform.ToANormalForm`: the `to-a-normal-form` pass."""
    return XdslPass(ToANormalFormPass())
