"""`xrelay.relay.testing`: TVM's `run_opt_pass` and `run_infer_type` test helpers."""

from __future__ import annotations

from xrelay.dialects.builder.analysis import free_vars
from xrelay.dialects.builder.expr import Expr, Function
from xrelay.dialects.builder.expr_functor import substitute_vars
from xrelay.dialects.ir_module import IRModule
from xrelay.passes.infer_type import InferType
from xrelay.passes.pass_manager import Pass


def run_opt_pass(expr: Expr, opt_pass: Pass, import_prelude: bool = False) -> Expr:
    """Run `opt_pass` on a module whose `main` is `expr`; the new `main` (or its body).

    As TVM's: a Function gives back the transformed function, any other expression the
    body of the transformed `main`, reading `expr`'s own free variables. `expr` itself is
    not changed.
    """
    if import_prelude:
        raise ValueError("run_opt_pass: xrelay has no Relay prelude (import_prelude=True)")
    mod = opt_pass(IRModule.from_expr(expr))
    entry = mod["main"]
    if isinstance(expr, Function):
        return entry
    # as in TVM, the body reads the caller's own free variables (not rebuilt parameters)
    originals = free_vars(expr)
    if len(originals) != len(entry.params):
        return entry.body
    mapping: dict[int, Expr] = {
        id(new): old
        for new, old in zip(entry.params, originals, strict=True)
        if new.checked_type == old.checked_type
    }
    return substitute_vars(entry.body, mapping)


def run_infer_type(expr: Expr) -> Expr:
    """`expr` after InferType (TVM's `run_infer_type`)."""
    return run_opt_pass(expr, InferType())


__all__ = ["run_infer_type", "run_opt_pass"]
