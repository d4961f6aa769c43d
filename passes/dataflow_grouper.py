"""TVM's `PatternGrouper`: the non-overlapping matches of a pattern in a builder expression.

The graph is walked from its root down (reverse post-order); at each node not yet in a
group the pattern is matched, and a match becomes a group: its inputs are what the
pattern's leaves matched (and the operands of calls and tuples matched with any operands),
less operator handles, functions, constants the pattern names (`is_constant()`,
`is_expr(const)`: embedded), and what dominator paths and function patterns matched. The
group's function is the matched subgraph over fresh variables `FunctionVar_<g>_<i>`, named
after its ops in post-order (`nn.conv2d_nn.relu_`). A match is dropped if it overlaps an
earlier group, or if a node inside it is used outside it by a node the root does not
post-dominate (outlining it would make a cycle). Nodes inside functions already
partitioned (`PartitionedFromPattern`) are not matched again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xrelay.dialects.builder.expr import (
    Call,
    Constant,
    Expr,
    Function,
    FunctionCall,
    GlobalCall,
    If,
    OpaqueCall,
    Tuple,
    TupleGetItem,
    Var,
)
from xrelay.dialects.builder.expr_functor import ExprMutator
from xrelay.dialects.builder.op_handle import Op
from xrelay.passes.dataflow_pattern import (
    AltPattern,
    AttrPattern,
    CallPattern,
    ConstantPattern,
    DataTypePattern,
    DFPattern,
    ExprPattern,
    ShapePattern,
    TupleGetItemPattern,
    TuplePattern,
    TypePattern,
    WildcardPattern,
)
from xrelay.passes.dataflow_pattern_expr import (
    ExprGraph,
    ExprMatcher,
    Node,
    node_key,
    node_parts,
)
from xrelay.passes.dataflow_pattern_structural import (
    DominatorPattern,
    FunctionPattern,
    IfPattern,
    LetPattern,
)

__all__ = ["Group", "PatternGrouper", "group_root", "pattern_postorder", "visit_bottom_up"]


@dataclass
class Group:
    """One match: its root, what each sub-pattern matched, its inputs and function."""

    root: Node
    node_map: dict[DFPattern, list[Node]]
    args: list[Expr] = field(default_factory=lambda: [])
    function: Function | None = None
    name: str = ""


def _pattern_inputs(pattern: DFPattern) -> list[DFPattern]:
    if isinstance(pattern, CallPattern):
        return [pattern.op, *(pattern.args or [])]
    if isinstance(pattern, TuplePattern):
        return list(pattern.fields or [])
    if isinstance(pattern, TupleGetItemPattern):
        return [pattern.tuple]
    if isinstance(pattern, AltPattern):
        return [pattern.left, pattern.right]
    if isinstance(pattern, AttrPattern | TypePattern | ShapePattern | DataTypePattern):
        return [pattern.pattern]
    if isinstance(pattern, DominatorPattern):
        return [pattern.parent, pattern.path, pattern.child]
    if isinstance(pattern, FunctionPattern):
        return [*(pattern.params or []), pattern.body]
    if isinstance(pattern, IfPattern):
        return [pattern.cond, pattern.true_branch, pattern.false_branch]
    if isinstance(pattern, LetPattern):
        return [pattern.var, pattern.value, pattern.body]
    if isinstance(pattern, WildcardPattern) and pattern.pattern is not None:
        return [pattern.pattern]
    return []


def pattern_postorder(root: DFPattern) -> list[DFPattern]:
    """Every sub-pattern of `root`, each once, after its inputs (TVM's pattern graph)."""
    seen: set[int] = set()
    out: list[DFPattern] = []
    stack: list[tuple[DFPattern, bool]] = [(root, False)]
    while stack:
        pattern, expanded = stack.pop()
        if expanded:
            out.append(pattern)
            continue
        if id(pattern) in seen:
            continue
        seen.add(id(pattern))
        stack.append((pattern, True))
        stack.extend((p, False) for p in reversed(_pattern_inputs(pattern)) if id(p) not in seen)
    return out


class _Extractor(ExprMutator):
    """Copies the matched subgraph with its inputs replaced by variables, naming its ops."""

    def __init__(self, inputs: dict[object, Var]):
        super().__init__()
        self.inputs = inputs
        self.name = ""

    def visit(self, expr: object) -> object:
        if node_key(expr) in self.inputs:
            return self.inputs[node_key(expr)]
        return super().visit(expr)

    def _dispatch(self, expr: object) -> object:
        out = super()._dispatch(expr)
        if isinstance(expr, Tuple):
            self.name += "Tuple_"
        elif isinstance(expr, TupleGetItem):
            self.name += f"TupleGetItem{expr.index}_"
        elif isinstance(expr, Function):
            self.name += "Function"
        elif isinstance(expr, If):
            self.name += "If_"
        elif isinstance(expr, Call):
            self.name += f"{expr.op.name}_"
        elif isinstance(expr, FunctionCall | GlobalCall | OpaqueCall):
            self.name += "Call_"
        return out


def visit_bottom_up(mutator: ExprMutator, root: Node, stop: set[object] | None = None) -> object:
    """`mutator.visit(root)`, its parts visited first in post-order (not below `stop`'s
    nodes), so the recursive visitor never goes deeper than one level: long chains do
    not hit Python's recursion limit (TVM's `MixedModeMutator` does the same)."""
    stop = stop or set()
    seen: set[object] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        key = node_key(node)
        if expanded:
            mutator.visit(node)
            continue
        if key in seen:
            continue
        seen.add(key)
        if key in stop:
            continue
        stack.append((node, True))
        stack.extend((p, False) for p in reversed(node_parts(node)))
    return mutator.visit(root)


class PatternGrouper:
    """The groups of `pattern` in `expr` (`groups`: by id; `gid`: node key -> group id)."""

    def __init__(self, pattern: DFPattern, expr: Expr):
        self.pattern = pattern
        self.pattern_nodes = pattern_postorder(pattern)
        self.graph = ExprGraph(expr)
        self.matcher = ExprMatcher(self.graph)
        self.groups: dict[int, Group] = {}
        self.gid: dict[object, int] = {}
        self.graph_number = 0
        partitioned: set[object] = set()
        for node in reversed(self.graph.nodes):
            key = node_key(node)
            if key in self.gid:
                continue
            if isinstance(node, Function) and "PartitionedFromPattern" in node.attrs:
                partitioned.add(key)
                partitioned.update(node_key(n) for n in ExprGraph(node.body).nodes)
            if key not in partitioned and self.matcher.match(pattern, node):
                self._create_group(node)

    def _fuzzy(self, node_map: dict[DFPattern, list[Node]]) -> set[object]:
        """Nodes that are no inputs: what dominator parents/paths and functions matched."""
        fuzzy: set[object] = set()
        for pattern in self.pattern_nodes:
            if isinstance(pattern, DominatorPattern):
                for part in (pattern.parent, pattern.path):
                    fuzzy.update(node_key(n) for n in node_map.get(part, []))
            if isinstance(pattern, FunctionPattern):
                for fn in node_map.get(pattern, []):
                    assert isinstance(fn, Function)
                    fuzzy.update(node_key(n) for n in ExprGraph(fn.body).nodes)
        return fuzzy

    def _embed_const(self, expr: Node, pattern: DFPattern) -> bool:
        if not isinstance(expr, Constant):
            return False
        if isinstance(pattern, ConstantPattern):
            return True
        if isinstance(pattern, ExprPattern):
            return isinstance(pattern.expr, Constant)
        if isinstance(pattern, AltPattern):
            side = pattern.left if ExprMatcher(self.graph).match(pattern.left, expr) else None
            return self._embed_const(expr, side or pattern.right)
        return False

    def _create_group(self, root: Node) -> None:
        node_map = self.matcher.node_map()
        fuzzy = self._fuzzy(node_map)
        group = Group(root, node_map)
        inputs: dict[object, Var] = {}
        params: list[Var] = []

        def make_input(node: Node, pattern: DFPattern) -> None:
            key = node_key(node)
            if key in fuzzy or key in inputs or isinstance(node, Op | Function):
                return
            if self._embed_const(node, pattern):
                return
            assert isinstance(node, Expr)
            var = Var(f"FunctionVar_{self.graph_number}_{len(params)}")
            inputs[key] = var
            group.args.append(node)
            params.append(var)

        for pattern in self.pattern_nodes:
            for match in node_map.get(pattern, []):
                if isinstance(pattern, TuplePattern) and pattern.fields is None:
                    assert isinstance(match, Tuple)
                    for field_ in match.fields:
                        make_input(field_, pattern)
                elif isinstance(pattern, CallPattern) and pattern.args is None:
                    assert isinstance(match, Expr)
                    for arg in match.children():
                        make_input(arg, pattern)
                elif not _pattern_inputs(pattern):
                    make_input(match, pattern)
        self.graph_number += 1
        extractor = _Extractor(inputs)
        body = visit_bottom_up(extractor, root, set(inputs))
        assert isinstance(body, Expr)
        group.function = Function(params, body)
        group.name = extractor.name
        if not self._valid(root, body, extractor.memo_map, inputs):
            return
        gid = len(self.groups) + 1
        for node in extractor.memo_map:
            self.gid[node_key(node)] = gid
        self.groups[gid] = group

    def _valid(
        self, root: Node, body: Expr, memo: dict[object, object], inputs: dict[object, Var]
    ) -> bool:
        """No overlap with earlier groups, no inner node used outside unless it flows back
        to the root."""
        inside = {node_key(n) for n in memo}
        root_index = self.graph.node_index(root)
        for node, post in memo.items():
            key = node_key(node)
            if key in inputs or isinstance(node, Op | Function | Constant):
                continue
            if key in self.gid:
                return False
            if post is body or key not in self.graph.index:
                continue
            for user in self.graph.outputs[self.graph.index[key]]:
                if node_key(self.graph.nodes[user]) not in inside and not self.graph.dominates(
                    root_index, user
                ):
                    return False
        return True


def group_root(grouper: PatternGrouper, pre: object) -> Group | None:
    """The group whose root `pre` is, if any."""
    gid = grouper.gid.get(node_key(pre))
    if gid is None:
        return None
    group = grouper.groups[gid]
    return group if node_key(group.root) == node_key(pre) else None
