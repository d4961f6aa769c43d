"""TVM's `relay.analysis` variable queries and `post_order_visit` over builder expressions.

Iterative (no recursion limit); each expression is visited once. A `Function` nested in an
expression binds its parameters.
"""

from __future__ import annotations

from collections.abc import Callable

from xrelay.dialects.builder.expr import Call, Expr, Function, FunctionCall, If, Var, postorder
from xrelay.dialects.relay.structure import TupleGetItemOp, TupleOp


def _parts(node: Expr) -> list[Expr]:
    if isinstance(node, Function):
        return [*node.params, node.body]
    parts = list(node.children())
    if isinstance(node, If):
        parts += [node.true_branch, node.false_branch]
    return parts


def post_order(expr: Expr) -> list[Expr]:
    """Every subexpression of `expr` once, each after its parts (post-DFS order)."""
    return postorder([expr], _parts)


def post_order_visit(expr: Expr, fvisit: Callable[[Expr], object]) -> None:
    """TVM's `relay.analysis.post_order_visit`: `fvisit(e)` on each subexpression, parts first."""
    for node in post_order(expr):
        fvisit(node)


def all_vars(expr: Expr) -> list[Var]:
    """Every variable in `expr`, free or bound, in post-DFS order."""
    return [node for node in post_order(expr) if isinstance(node, Var)]


def bound_vars(expr: Expr) -> list[Var]:
    """The variables bound in `expr` (parameters of its functions), in post-DFS order."""
    bound = {id(p) for node in post_order(expr) if isinstance(node, Function) for p in node.params}
    return [v for v in all_vars(expr) if id(v) in bound]


def free_vars(expr: Expr) -> list[Var]:
    """The variables `expr` reads that no function in it binds, in post-DFS order."""
    bound = {id(v) for v in bound_vars(expr)}
    return [v for v in all_vars(expr) if id(v) not in bound]


def free_type_vars(expr: Expr) -> list[object]:
    """TVM's `free_type_vars`: always empty (the builder's types are concrete)."""
    del expr
    return []


_NOT_OPERATORS = (TupleOp, TupleGetItemOp)
"""Relay ops the reader turns into calls that are not operators in TVM."""


def _parts_and_callees(node: Expr) -> list[Expr]:
    parts = _parts(node)
    if isinstance(node, FunctionCall):
        parts.append(node.op)
    return parts


def op_freqs(expr: Expr) -> dict[str, int]:
    """How many calls of each relay operator (TVM's name: `nn.conv2d`) `expr` makes, the
    bodies of the functions it calls as values (fused, composite) included; each
    subexpression counted once."""
    counts: dict[str, int] = {}
    for node in postorder([expr], _parts_and_callees):
        if isinstance(node, Call) and node.op_class not in _NOT_OPERATORS:
            name = node.op.name
            counts[name] = counts.get(name, 0) + 1
    return counts
