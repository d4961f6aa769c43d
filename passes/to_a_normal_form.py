"""`to-a-normal-form` (TVM's `ToANormalForm`): every intermediate value named, operands atomic.

TVM rewrites a dataflow graph into nested `let` bindings so each intermediate result
has a name and every call's arguments are variables or constants. xrelay's IR already
has that form: each op's result is an SSA value (a named binding, in order, scoped to
its block: `relay.if` branches are their own scopes, as TVM's), and operands are values.
So the pass changes nothing; it exists so TVM pipelines naming it (`Sequential`,
instruments, `required_pass`) run unchanged. Opt level 1, as TVM's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xrelay.passes.adapters import XdslPass
from xrelay.passes.pass_manager import Pass


@dataclass(frozen=True)
class ToANormalFormPass(ModulePass):
    """Leave the module as it is: xrelay's SSA form is already A-normal."""

    name = "to-a-normal-form"
    tvm_name: ClassVar[str] = "ToANormalForm"
    opt_level: ClassVar[int] = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx, op


def ToANormalForm() -> Pass:
    """TVM's `relay.transform.ToANormalForm()`."""
    return XdslPass(ToANormalFormPass())
