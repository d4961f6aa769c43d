"""TVM's pattern matcher over the builder's expressions (`relay.var`, `relay.Call`, ...).

`pattern.match(expr)` on a builder expression or an op handle matches as TVM's
`DFPatternMatcher` does on its expression graph: `is_op("add")` matches the op handle
(`relay.op.op.get("add")`; `is_op("add")(x, y)` the call), `is_expr(e)` what is
structurally equal to `e` (a variable only itself), a function pattern a `relay.Function`,
a dominator pattern a node whose inputs lead back to its parent only through nodes matching
its path (`ExprGraph` holds the graph's users and post-dominator tree for that).

A pattern object bound once must match the same expression again (TVM's memo), except the
path of a dominator pattern, which may match many.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xrelay.dialects.builder.expr import (
    Call,
    Constant,
    Expr,
    Function,
    FunctionCall,
    GlobalCall,
    GlobalVar,
    If,
    OpaqueCall,
    Tuple,
    TupleGetItem,
    Var,
)
from xrelay.dialects.builder.incomplete import is_complete
from xrelay.dialects.builder.op_handle import Op
from xrelay.dialects.builder.structural_equal import structural_equal
from xrelay.passes.byoc_registry import AttrsView, TypeView
from xrelay.passes.dataflow_pattern import (
    COMMUTATIVE_OPS,
    AltPattern,
    AttrPattern,
    CallPattern,
    ConstantPattern,
    DataTypePattern,
    DFPattern,
    ExprPattern,
    OpPattern,
    ShapePattern,
    TupleGetItemPattern,
    TuplePattern,
    TypePattern,
    VarPattern,
    WildcardPattern,
    normalize_attr,
)
from xrelay.passes.dataflow_pattern_structural import (
    DominatorPattern,
    FunctionPattern,
    IfPattern,
    LetPattern,
)
from xrelay.passes.op_pattern import OP_PATTERNS

__all__ = ["ExprGraph", "ExprMatcher", "is_call", "node_key", "node_parts", "same_node"]

Node = object
"""A node of the expression graph: a builder `Expr`, an `Op` handle or a `GlobalVar`."""


def node_key(node: Node) -> object:
    """Identity of a node: op handles of one op are one node, as TVM's ops are."""
    if isinstance(node, Op):
        return ("op", node.op_class)
    return id(node)


def same_node(lhs: Node, rhs: Node) -> bool:
    """TVM's `same_as`."""
    return node_key(lhs) == node_key(rhs)


def is_call(node: Node) -> bool:
    """A call in TVM's sense (tuples and projections are not)."""
    if isinstance(node, Tuple | TupleGetItem):
        return False
    return isinstance(node, Call | FunctionCall | GlobalCall | OpaqueCall)


def call_callee(node: Node) -> Node:
    """A call's `op`: its op handle, callee function or global."""
    if isinstance(node, FunctionCall | GlobalCall):
        return node.callee
    if isinstance(node, OpaqueCall):
        return node.template
    assert isinstance(node, Call)
    return node.op


def call_args(node: Node) -> list[Expr]:
    """A call's arguments."""
    assert isinstance(node, Call | FunctionCall | GlobalCall | OpaqueCall)
    return list(node.args)


def node_inputs(node: Node) -> list[Node]:
    """The dataflow inputs of a node, in TVM's order (a call's op first)."""
    if isinstance(node, Tuple):
        return list(node.fields)
    if isinstance(node, TupleGetItem):
        return [node.tuple_value]
    if is_call(node):
        callee = call_callee(node)
        return ([] if isinstance(node, OpaqueCall) else [callee]) + list(call_args(node))
    if isinstance(node, Function):
        return [node.body]
    if isinstance(node, If):
        return [node.cond, node.true_branch, node.false_branch]
    return []


def node_parts(node: Node) -> list[Node]:
    """What a post-order walk visits before the node (a function's parameters too)."""
    if isinstance(node, Function):
        return [*node.params, node.body]
    return node_inputs(node)


class ExprGraph:
    """The nodes `root` reaches in post-order, with inputs, users and post-dominators.

    A node's dominator parent is the lowest common ancestor of its users in the tree
    (TVM's `IndexedGraph::PostDom`): every path from the node to the root passes it.
    """

    def __init__(self, root: Node):
        self.nodes: list[Node] = []
        self.index: dict[object, int] = {}
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            key = node_key(node)
            if expanded:
                if key not in self.index:
                    self.index[key] = len(self.nodes)
                    self.nodes.append(node)
                continue
            if key in self.index:
                continue
            stack.append((node, True))
            stack.extend((p, False) for p in reversed(node_parts(node)))
        self.inputs: list[list[int]] = [
            [self.index[node_key(i)] for i in node_inputs(n)] for n in self.nodes
        ]
        self.outputs: list[list[int]] = [[] for _ in self.nodes]
        for user, inputs in enumerate(self.inputs):
            for i in inputs:
                self.outputs[i].append(user)
        self._post_dominators()

    def _post_dominators(self) -> None:
        size = len(self.nodes)
        self.dom_parent: list[int | None] = [None] * size
        self.depth: list[int] = [1] * size
        self.dom_children: list[list[int]] = [[] for _ in range(size)]
        for index in reversed(range(size)):
            parent = self._common_ancestor(self.outputs[index])
            self.dom_parent[index] = parent
            if parent is not None:
                self.depth[index] = self.depth[parent] + 1
                self.dom_children[parent].append(index)

    def _common_ancestor(self, nodes: Sequence[int]) -> int | None:
        if not nodes:
            return None
        out: int | None = nodes[0]
        for other in nodes[1:]:
            lhs, rhs = out, other
            while lhs != rhs:
                if lhs is None or rhs is None:
                    return None
                if self.depth[lhs] < self.depth[rhs]:
                    rhs = self.dom_parent[rhs]
                elif self.depth[lhs] > self.depth[rhs]:
                    lhs = self.dom_parent[lhs]
                else:
                    lhs, rhs = self.dom_parent[lhs], self.dom_parent[rhs]
            out = lhs
        return out

    def node_index(self, node: Node) -> int:
        """The post-order index of `node`."""
        return self.index[node_key(node)]

    def dominated(self, index: int) -> list[int]:
        """The nodes below `index` in the dominator tree (each once)."""
        out: list[int] = []
        stack = [index]
        seen: set[int] = set()
        while stack:
            for child in self.dom_children[stack.pop()]:
                if child not in seen:
                    seen.add(child)
                    out.append(child)
                    stack.append(child)
        return out

    def dominates(self, lhs: int, rhs: int) -> bool:
        """Whether every path from `rhs` to the root passes `lhs`."""
        return rhs in self.dominated(lhs)


def _solved_type(node: Node) -> Attribute | None:
    if not isinstance(node, Expr):
        return None
    if not is_complete(node.checked_type):
        from xrelay.dialects.builder.solve import solve

        solve([node], partial=True)  # TVM's matcher runs InferType on the expression
    return node.checked_type


def _attrs_equal(actual: object, expected: object) -> bool:
    lhs, rhs = normalize_attr(actual), normalize_attr(expected)
    if isinstance(lhs, np.ndarray) or isinstance(rhs, np.ndarray):
        return bool(np.array_equal(np.asarray(lhs), np.asarray(rhs)))
    return lhs == rhs


class ExprMatcher:
    """TVM's `DFPatternMatcher` on one expression graph (`graph` only for dominators)."""

    def __init__(self, graph: ExprGraph | None = None):
        self.graph = graph
        self.memo: dict[int, list[Node]] = {}
        """id(pattern) -> what it matched."""
        self.patterns: dict[int, DFPattern] = {}
        self.matched: list[int] = []
        self.memoize = True
        self.call: Node | None = None
        """The call whose callee is being matched (for `has_attr` on a callee pattern)."""

    def match(self, pattern: DFPattern, expr: Node) -> bool:
        """Whether `pattern` matches at `expr` (a fresh memo)."""
        self.memo.clear()
        self.matched.clear()
        return self.visit(pattern, expr)

    def node_map(self) -> dict[DFPattern, list[Node]]:
        """What each sub-pattern matched in the last match."""
        return {self.patterns[k]: list(v) for k, v in self.memo.items()}

    def clear(self, watermark: int) -> None:
        for key in self.matched[watermark:]:
            self.memo.pop(key, None)
        del self.matched[watermark:]

    def visit(self, pattern: DFPattern, expr: Node) -> bool:
        key = id(pattern)
        if self.memoize and key in self.memo:
            return same_node(expr, self.memo[key][0])
        watermark = len(self.matched)
        if self._dispatch(pattern, expr):
            self.memo.setdefault(key, []).append(expr)
            self.patterns[key] = pattern
            self.matched.append(key)
            return True
        self.clear(watermark)
        return False

    def _dispatch(self, pattern: DFPattern, expr: Node) -> bool:
        if isinstance(pattern, WildcardPattern):
            return pattern.pattern is None or self.visit(pattern.pattern, expr)
        if isinstance(pattern, OpPattern):
            return _is_op_call(expr, pattern.op_name) or (
                isinstance(expr, Op) and expr.name == pattern.op_name
            )
        if isinstance(pattern, ExprPattern):
            return self._expr(pattern.expr, expr)
        if isinstance(pattern, VarPattern):
            name = pattern.name_hint
            return isinstance(expr, Var) and (not name or expr.name_hint == name)
        if isinstance(pattern, ConstantPattern):
            return isinstance(expr, Constant)
        if isinstance(pattern, CallPattern):
            return self._call(pattern, expr)
        if isinstance(pattern, AltPattern):
            return self.visit(pattern.left, expr) or self.visit(pattern.right, expr)
        if isinstance(pattern, TuplePattern):
            if not isinstance(expr, Tuple):
                return False
            return pattern.fields is None or self._all(pattern.fields, expr.fields)
        if isinstance(pattern, TupleGetItemPattern):
            if not isinstance(expr, TupleGetItem):
                return False
            index_ok = pattern.index is None or pattern.index in (-1, expr.index)
            return index_ok and self.visit(pattern.tuple, expr.tuple_value)
        return self._dispatch_more(pattern, expr)

    def _dispatch_more(self, pattern: DFPattern, expr: Node) -> bool:
        if isinstance(pattern, AttrPattern):
            return self.visit(pattern.pattern, expr) and self._attrs(pattern, expr)
        if isinstance(pattern, TypePattern):
            return _solved_type(expr) == pattern.type and self.visit(pattern.pattern, expr)
        if isinstance(pattern, ShapePattern | DataTypePattern):
            ty = _solved_type(expr)
            if not isinstance(ty, TensorType):
                return False
            view = TypeView(cast(Attribute, ty))
            if isinstance(pattern, ShapePattern):
                ok = view.shape == pattern.shape
            else:
                ok = view.dtype == pattern.dtype
            return ok and self.visit(pattern.pattern, expr)
        if isinstance(pattern, FunctionPattern):
            if not isinstance(expr, Function):
                return False
            if pattern.params is not None and not self._all(pattern.params, expr.params):
                return False
            return self.visit(pattern.body, expr.body)
        if isinstance(pattern, IfPattern):
            return (
                isinstance(expr, If)
                and self.visit(pattern.cond, expr.cond)
                and self.visit(pattern.true_branch, expr.true_branch)
                and self.visit(pattern.false_branch, expr.false_branch)
            )
        if isinstance(pattern, LetPattern):
            return False  # xrelay has no let
        if isinstance(pattern, DominatorPattern):
            return self._dominator(pattern, expr)
        raise TypeError(f"cannot match a {type(pattern).__name__} on an expression")

    def _all(self, patterns: Sequence[DFPattern], exprs: Sequence[Node]) -> bool:
        if len(patterns) != len(exprs):
            return False
        return all(self.visit(p, e) for p, e in zip(patterns, exprs, strict=True))

    def _expr(self, wanted: object, expr: Node) -> bool:
        if isinstance(wanted, Op) or isinstance(expr, Op):
            return isinstance(wanted, Op) and isinstance(expr, Op) and wanted == expr
        if isinstance(wanted, GlobalVar) or isinstance(expr, GlobalVar):
            return wanted == expr
        if not isinstance(wanted, Expr) or not isinstance(expr, Expr):
            return False
        return wanted is expr or structural_equal(wanted, expr)

    def _attrs(self, pattern: AttrPattern, expr: Node) -> bool:
        if isinstance(expr, Op):
            kind = OP_PATTERNS.get(expr.op_class)
            for key, value in pattern.attrs.items():
                if key == "TOpPattern":
                    if kind is None or int(kind) != value:
                        return False
                elif self.call is None or not self._call_attr(self.call, key, value):
                    return False  # other keys: the attributes of the call being matched
            return True
        if isinstance(expr, Function):
            return all(
                k in expr.attrs and _attrs_equal(expr.attrs[k], v) for k, v in pattern.attrs.items()
            )
        if isinstance(expr, Call) and is_call(expr):
            return all(self._call_attr(expr, k, v) for k, v in pattern.attrs.items())
        return False

    def _call_attr(self, call: Node, key: str, value: object) -> bool:
        if not (isinstance(call, Call) and is_call(call)):
            return False
        view = AttrsView(
            call.op_class.create(properties=dict(call.props), attributes=dict(call.attrs))
        )
        return key in view and _attrs_equal(view[key], value)

    def _call(self, pattern: CallPattern, expr: Node) -> bool:
        if not is_call(expr):
            return False
        watermark = len(self.matched)
        args = call_args(expr)
        outer, self.call = self.call, expr
        try:
            callee_matches = self.visit(pattern.op, call_callee(expr))
        finally:
            self.call = outer
        if callee_matches:
            inner = len(self.matched)
            if self._args(pattern.args, args, inner):
                return True
            op_name = _pattern_op(pattern)
            commutative = op_name in COMMUTATIVE_OPS and pattern.args is not None
            return commutative and self._args((pattern.args or [])[::-1], args, inner)
        self.clear(watermark)
        return self._reassociate(pattern, expr, args, watermark)

    def _args(self, patterns: list[DFPattern] | None, args: list[Expr], watermark: int) -> bool:
        if patterns is None:
            return True
        if self._all(patterns, args):
            return True
        self.clear(watermark)
        return False

    def _reassociate(
        self, pattern: CallPattern, expr: Node, args: list[Expr], watermark: int
    ) -> bool:
        """TVM's call matcher also sees `(a * b) / c` in `a * (b / c)` and the converse."""
        op_name, pargs = _pattern_op(pattern), pattern.args
        if pargs is None or len(pargs) != 2 or len(args) != 2:
            return False
        if op_name == "divide" and isinstance(pargs[0], CallPattern):
            inner = pargs[0]
            if (
                _pattern_op(inner) == "multiply"
                and inner.args is not None
                and _is_op_call(expr, "multiply")
                and any(_is_op_call(a, "divide") for a in args)
            ):
                for arg_id in range(2):
                    div = CallPattern(pattern.op, [inner.args[arg_id], pargs[1]])
                    mul = CallPattern(inner.op, [inner.args[(arg_id + 1) % 2], div])
                    if self.visit(mul, expr):
                        return True
                    self.clear(watermark)
                return False
        if op_name == "multiply":
            for arg_id in range(2):
                inner = pargs[arg_id]
                if (
                    isinstance(inner, CallPattern)
                    and _pattern_op(inner) == "divide"
                    and inner.args is not None
                    and _is_op_call(expr, "divide")
                    and any(_is_op_call(a, "multiply") for a in args)
                ):
                    mul = CallPattern(pattern.op, [inner.args[0], pargs[(arg_id + 1) % 2]])
                    div = CallPattern(inner.op, [mul, inner.args[1]])
                    return self.visit(div, expr)
        return False

    def _dominator(self, pattern: DominatorPattern, expr: Node) -> bool:
        if self.graph is None or node_key(expr) not in self.graph.index:
            return False
        if not self.visit(pattern.child, expr):
            return False
        matches_path = self._matches_path(pattern, expr)
        self.memoize = True
        return matches_path and self._dominates_parent(pattern, expr)

    def _matches_path(self, pattern: DominatorPattern, expr: Node) -> bool:
        """Every input of `expr` is the parent or a path node whose inputs are so too."""
        assert self.graph is not None
        graph = self.graph
        callee = call_callee(expr) if is_call(expr) else None
        counted = 0
        for index in graph.inputs[graph.node_index(expr)]:
            node = graph.nodes[index]
            if callee is not None and (same_node(node, callee) or isinstance(node, Constant | Var)):
                continue
            counted += 1
            self.memoize = True
            if not self.visit(pattern.parent, node):
                self.memoize = False
                if not self.visit(pattern.path, node):
                    return False
                if not self._matches_path(pattern, node):
                    return False
        return counted > 0

    def _dominates_parent(self, pattern: DominatorPattern, expr: Node) -> bool:
        assert self.graph is not None
        for index in self.graph.dominated(self.graph.node_index(expr)):
            if self.visit(pattern.parent, self.graph.nodes[index]):
                return True
        return False


def _pattern_op(pattern: CallPattern) -> str | None:
    return pattern.op.op_name if isinstance(pattern.op, OpPattern) else None


def _is_op_call(node: Node, name: str) -> bool:
    return is_call(node) and isinstance(op := call_callee(node), Op) and op.name == name
