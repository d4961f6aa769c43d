"""TVM's `DFPatternCallback` and `rewrite(callbacks, expr, mod=None)` over builder expressions.

For each callback in turn, the groups of its pattern are found (`PatternGrouper`) and the
expression is rebuilt bottom-up; at the root of a group the callback's result
`callback(pre, post, node_map)` takes the node's place (`pre`: the node matched, `post`:
it with its inputs rewritten, `node_map`: each sub-pattern -> the rewritten expressions it
matched). The callbacks run again until the expression stops changing (structural
equality), 100 rounds at most; a `rewrite_once` callback stops after its first change.
A `require_type` callback sees the expression's types solved first.
"""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.dialects.builder.expr import Expr, Function
from xrelay.dialects.builder.expr_functor import ExprMutator
from xrelay.dialects.builder.structural_equal import structural_equal
from xrelay.passes.dataflow_grouper import PatternGrouper, group_root, visit_bottom_up
from xrelay.passes.dataflow_pattern import DFPattern
from xrelay.passes.dataflow_pattern_expr import Node

__all__ = ["DFPatternCallback", "rewrite"]

MAX_ROUNDS = 100


class DFPatternCallback:
    """A pattern (`self.pattern`, set by the subclass) and what to replace its matches with
    (`callback`)."""

    pattern: DFPattern

    def __init__(self, require_type: bool = False, rewrite_once: bool = False):
        self.require_type = require_type
        self.rewrite_once = rewrite_once

    def rewrite(self, expr: Expr) -> Expr:
        """`rewrite(self, expr)`."""
        return rewrite(self, expr)

    def callback(self, pre: Expr, post: Expr, node_map: dict[DFPattern, list[Node]]) -> Expr:
        """The replacement of a match (`pre`, rewritten inside as `post`)."""
        raise NotImplementedError(f"{type(self).__name__}.callback")


class _Rewriter(ExprMutator):
    def __init__(self, grouper: PatternGrouper, callback: DFPatternCallback):
        super().__init__()
        self.grouper = grouper
        self.callback = callback

    def _dispatch(self, expr: object) -> object:
        post = super()._dispatch(expr)
        group = group_root(self.grouper, expr)
        if group is None or not isinstance(expr, Expr) or not isinstance(post, Expr):
            return post
        node_map = {
            p: [self.memo_map.get(n, n) for n in nodes] for p, nodes in group.node_map.items()
        }
        return self.callback.callback(expr, post, node_map)


def _unchanged(before: Expr, after: Expr) -> bool:
    return before is after or structural_equal(before, after, map_free_vars=True)


def _solve_types(expr: Expr) -> Expr:
    from xrelay.dialects.builder.solve import solve

    if isinstance(expr, Function):
        expr.solve_types()
    else:
        solve([expr])
    return expr


def rewrite(
    callbacks: DFPatternCallback | Sequence[DFPatternCallback],
    expr: Expr,
    mod: object = None,
) -> Expr:
    """`expr` with the callbacks' rewrites applied until nothing changes (module docstring);
    `mod` is accepted for TVM's signature (types come from the expression itself)."""
    todo = [callbacks] if isinstance(callbacks, DFPatternCallback) else list(callbacks)
    post, rounds, done = expr, 0, set[int]()
    while True:
        last = post
        for callback in todo:
            if id(callback) in done:
                continue
            before = post
            if callback.require_type:
                post = _solve_types(post)
            grouper = PatternGrouper(callback.pattern, post)
            result = visit_bottom_up(_Rewriter(grouper, callback), post)
            if not isinstance(result, Expr):
                raise TypeError(f"rewrite: a callback returned {type(result).__name__}")
            post = result
            rounds += 1
            if callback.rewrite_once and not _unchanged(before, post):
                done.add(id(callback))
        if _unchanged(last, post):
            return post
        if rounds >= MAX_ROUNDS:
            raise RuntimeError(f"rewrite: {MAX_ROUNDS} rounds, the callbacks may conflict")
