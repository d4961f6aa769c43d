"""TVM's pattern kinds that match whole expressions of the builder: functions, `if`, `let`
and dominator patterns.

They match builder expressions (`passes/dataflow_pattern_expr.py`), as TVM's do its
expression graph; over xrelay's SSA IR (MergeComposite's matcher) a function, `let` or
dominator pattern matches nothing, an `if` pattern a `relay.if` whose condition matches
(the branches are regions there, not values).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import OpResult, SSAValue
from xrelay.passes.dataflow_pattern import DFPattern, MatchState, match_pattern

__all__ = [
    "DominatorPattern",
    "FunctionPattern",
    "IfPattern",
    "LetPattern",
    "dominates",
    "is_if",
    "is_let",
]


class FunctionPattern(DFPattern):
    """A `relay.Function` whose parameters match `params` (any, if None) and body `body`."""

    def __init__(self, params: Sequence[DFPattern] | None, body: DFPattern):
        self.params = None if params is None else list(params)
        self.body = body

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        return False  # a function is no SSA value


class IfPattern(DFPattern):
    """`relay.If(cond, true_branch, false_branch)` with parts matching the three patterns."""

    def __init__(self, cond: DFPattern, true_branch: DFPattern, false_branch: DFPattern):
        self.cond = cond
        self.true_branch = true_branch
        self.false_branch = false_branch

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not (isinstance(value, OpResult) and value.op.name == "relay.if"):
            return False
        return match_pattern(self.cond, value.op.operands[0], state)


class LetPattern(DFPattern):
    """TVM's `let` pattern: xrelay has no `let` (see docs/design.md), so it matches nothing."""

    def __init__(self, var: DFPattern, value: DFPattern, body: DFPattern):
        self.var = var
        self.value = value
        self.body = body

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        return False


class DominatorPattern(DFPattern):
    """`child` whose every input path leads back to `parent` only through nodes matching
    `path` (TVM's dominator pattern, e.g. a convolution followed by elementwise ops)."""

    def __init__(self, parent: DFPattern, path: DFPattern, child: DFPattern):
        self.parent = parent
        self.path = path
        self.child = child

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        return False  # needs the expression graph: matched on builder expressions only


def is_if(cond: DFPattern, true_branch: DFPattern, false_branch: DFPattern) -> IfPattern:
    """An `if` expression with parts matching the three patterns."""
    return IfPattern(cond, true_branch, false_branch)


def is_let(var: DFPattern, value: DFPattern, body: DFPattern) -> LetPattern:
    """TVM's `let` pattern (xrelay has no `let`: it matches nothing)."""
    return LetPattern(var, value, body)


def dominates(parent: DFPattern, path: DFPattern, child: DFPattern) -> DominatorPattern:
    """`child` dominating `parent` through nodes matching `path`."""
    return DominatorPattern(parent, path, child)
