"""TVM's `pattern.partition(expr, attrs, check)` over builder expressions.

Each group `PatternGrouper` finds (whose root passes `check`) is replaced by a call of its
function, with the attribute `PartitionedFromPattern` (its ops' names in post-order,
`nn.conv2d_nn.relu_`) and `attrs`, on the group's inputs as rewritten so far. A
`Composite` attribute makes the call a `relay.composite` region when lowered to IR.
Partitioning with a function pattern returns `expr` unchanged, as TVM does (a function that
is not called cannot be outlined).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xrelay.dialects.builder.expr import Expr, FunctionCall
from xrelay.dialects.builder.expr_functor import ExprMutator
from xrelay.passes.dataflow_grouper import PatternGrouper, group_root, visit_bottom_up
from xrelay.passes.dataflow_pattern import DFPattern
from xrelay.passes.dataflow_pattern_structural import FunctionPattern

__all__ = ["partition"]


class _Partitioner(ExprMutator):
    def __init__(
        self,
        grouper: PatternGrouper,
        attrs: Mapping[str, object],
        check: Callable[[object], bool],
    ):
        super().__init__()
        self.grouper = grouper
        self.attrs = attrs
        self.check = check

    def _dispatch(self, expr: object) -> object:
        post = super()._dispatch(expr)
        group = group_root(self.grouper, expr)
        if group is None or group.function is None or not self.check(expr):
            return post
        args = [self.memo_map.get(a, a) for a in group.args]
        fn = group.function.with_attr("PartitionedFromPattern", group.name)
        for key, value in self.attrs.items():
            fn = fn.with_attr(key, value)
        return FunctionCall(fn, [a for a in args if isinstance(a, Expr)])


def partition(
    pattern: DFPattern,
    expr: object,
    attrs: Mapping[str, object] | None = None,
    check: Callable[[object], bool] | None = None,
) -> object:
    """`expr` with every match of `pattern` outlined (see the module docstring)."""
    if not isinstance(expr, Expr):
        raise TypeError(f"partition: expected a relay expression, got {type(expr).__name__}")
    if isinstance(pattern, FunctionPattern):
        return expr
    grouper = PatternGrouper(pattern, expr)
    partitioner = _Partitioner(grouper, attrs or {}, check or (lambda _: True))
    return visit_bottom_up(partitioner, expr)
