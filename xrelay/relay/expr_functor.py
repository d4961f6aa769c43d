"""`xrelay.relay.expr_functor`: TVM's visitors and mutators over relay expressions."""

from __future__ import annotations

from xrelay.dialects.builder.expr_functor import ExprFunctor, ExprMutator, ExprVisitor

__all__ = ["ExprFunctor", "ExprMutator", "ExprVisitor"]
