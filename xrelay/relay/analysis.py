"""`xrelay.relay.analysis`: TVM's `relay.analysis` variable queries."""

from __future__ import annotations

from xrelay.dialects.builder.analysis import (
    all_vars,
    bound_vars,
    free_type_vars,
    free_vars,
    op_freqs,
    post_order_visit,
)
from xrelay.dialects.builder.expr import Expr, Function
from xrelay.dialects.ir_module import IRModule

__all__ = [
    "all_vars",
    "bound_vars",
    "check_basic_block_normal_form",
    "free_type_vars",
    "free_vars",
    "list_op_freqs",
    "post_order_visit",
]


def check_basic_block_normal_form(expr: Expr) -> None:
    """TVM's check that every value is bound in a scope its uses see. An expression that
    becomes xrelay IR is in that form by SSA scoping (`passes/normal_form.py`), so this
    raises what becoming IR raises (an unsolvable type, a free variable in a function)."""
    IRModule.from_expr(expr if isinstance(expr, Function) else Function(free_vars(expr), expr))


def list_op_freqs(mod: IRModule) -> dict[str, int]:
    """TVM's `list_op_freqs`: each operator's name (`nn.pad`) and how many calls of it `main`
    makes, the functions it calls as values (fused ones) included."""
    return op_freqs(mod["main"])
