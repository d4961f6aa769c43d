"""InferType for expressions with untyped variables: solve every unknown type, or say which
variable stays unknown and which op uses it.

An expression whose operands are all typed is typed when it is built
(`expr.py`), as before. One that reads an untyped variable
(`relay.var("w")`) waits, with an `IncompleteType`, until it becomes IR;
then `solve` runs TVM's scheme to a fixed point: forward, each op's own type
inference once its operands are known; backward, each op's relation
(`relations.py`) filling in operands it can deduce from what is known (a
conv2d's weight from the data and `channels`/`kernel_size`, a bias from the
data, an elementwise partner from the other operand). Every expression that
waited is then inferred forward once more, so the op's own checks run on the
solved types and a type a relation guessed must equal the one inferred.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import FunctionType, TensorType, i1
from xdsl.ir import Attribute
from xrelay.dialects.builder.expr import (
    Call,
    Expr,
    FunctionCall,
    GlobalCall,
    If,
    Var,
    infer_call_type,
)
from xrelay.dialects.builder.expr import postorder as expr_postorder
from xrelay.dialects.builder.incomplete import is_complete
from xrelay.dialects.builder.relations import RESULT, WEAK_RELATIONS, relation_of
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.dialects.relay.types import types_compatible


def _children(node: Expr) -> list[Expr]:
    children = list(node.children())
    if isinstance(node, If):
        children += [node.true_branch, node.false_branch]
    elif isinstance(node, FunctionCall):
        children += [node.callee.body, *node.callee.params]
    return children


def postorder(roots: Sequence[Expr]) -> list[Expr]:
    """Every expression `roots` reach (callee bodies too), each after the ones it reads."""
    return expr_postorder(roots, _children)


def _op_name(node: Expr) -> str:
    if isinstance(node, Call):
        return f"'{node.op_class.name}'"
    if isinstance(node, GlobalCall):
        return f"the call of @{node.callee.name_hint}"
    if isinstance(node, FunctionCall):
        return "a function call"
    return "'relay.if'"


class _Solver:
    def __init__(self, order: list[Expr], globals_: Mapping[str, FunctionType]):
        self.order = order
        self.globals = globals_
        self.waiting = [n for n in order if not is_complete(n.checked_type)]
        self.done: set[int] = set()
        """Waiting expressions inferred forward (their operands all known)."""
        self.solved_by: dict[int, Expr] = {}
        """The op whose relation solved a variable's type, by the variable's id."""

    def assign(self, node: Expr, ty: Attribute, by: Expr | None = None) -> bool:
        if is_complete(node.checked_type) or not is_complete(ty):
            return False
        node.set_checked_type(ty)
        if by is not None and isinstance(node, Var):
            self.solved_by[id(node)] = by
        return True

    def infer(self, node: Call) -> Attribute:
        try:
            return infer_call_type(node.op_class, [a.checked_type for a in node.args], node.props)
        except RelayTypeError as error:
            solved = [
                f"'{a.name_hint}' has type {a.checked_type} from its use by "
                f"{_op_name(self.solved_by[id(a)])}"
                for a in node.args
                if isinstance(a, Var) and id(a) in self.solved_by
            ]
            if not solved:
                raise
            raise RelayTypeError(f"{error.args[0]} (solved: {'; '.join(solved)})") from None

    def forward(self, node: Expr) -> bool:
        if id(node) in self.done or not all(is_complete(c.checked_type) for c in _children(node)):
            return False
        if isinstance(node, Call):
            ty = self.infer(node)
        elif isinstance(node, If):
            node.check_types()
            ty = node.true_branch.checked_type
        elif isinstance(node, GlobalCall):
            fn_type = self.global_type(node)
            if fn_type is None:
                return False
            node.resolve(fn_type)
            self.done.add(id(node))
            return True
        elif isinstance(node, FunctionCall):
            node.callee.solve_types()  # everything it reads is known: only checks remain
            params = [p.checked_type for p in node.callee.params]
            for index, (arg, param) in enumerate(zip(node.args, params, strict=True)):
                if not types_compatible(arg.checked_type, param):
                    raise RelayTypeError(
                        f"argument #{index} of a function call has type {arg.checked_type}, "
                        f"the parameter {param}"
                    )
            ty = node.callee.ret_type
        else:
            return False
        guessed = node.checked_type
        if is_complete(guessed) and not types_compatible(ty, guessed):
            raise RelayTypeError(f"{_op_name(node)} has type {ty}, but its use needs {guessed}")
        node.set_checked_type(ty)
        self.done.add(id(node))
        return True

    def backward(self, node: Expr, weak: bool = False) -> bool:
        """Solve `node`'s operands from what is known; `weak`: only by the guesses
        (`WEAK_RELATIONS`), which run when nothing else makes progress."""
        progress = False
        if isinstance(node, Call):
            relation = relation_of(node.op_class)
            if relation is None or (relation in WEAK_RELATIONS) != weak:
                return False
            known = [a.checked_type if is_complete(a.checked_type) else None for a in node.args]
            result = node.checked_type if is_complete(node.checked_type) else None
            if all(k is not None for k in known) and result is not None:
                return False
            props = node.op_class.default_properties() | node.props
            for index, ty in relation(node.op_class, known, result, props).items():
                target = node if index == RESULT else node.args[index]
                progress |= self.assign(target, ty, node)
        elif weak:
            return False
        elif isinstance(node, GlobalCall) and (fn_type := self.global_type(node)) is not None:
            params = fn_type.inputs.data
            for arg, ty in zip(node.args, params, strict=False):
                progress |= self.assign(arg, ty, node)
        elif isinstance(node, FunctionCall):
            for arg, param in zip(node.args, node.callee.params, strict=True):
                progress |= self.assign(param, arg.checked_type, node)
                progress |= self.assign(arg, param.checked_type, node)
            progress |= self.assign(node.callee.body, node.checked_type, node)
        elif isinstance(node, If):
            progress |= self.assign(node.cond, TensorType(i1, []))
            if is_complete(node.checked_type):
                progress |= self.assign(node.true_branch, node.checked_type)
                progress |= self.assign(node.false_branch, node.checked_type)
            for branch, other in (
                (node.true_branch, node.false_branch),
                (node.false_branch, node.true_branch),
            ):
                if is_complete(other.checked_type):
                    progress |= self.assign(branch, other.checked_type)
        return progress

    def global_type(self, node: GlobalCall) -> FunctionType | None:
        """The callee's type: its GlobalVar's, or the module's function of that name."""
        return node.callee.type_annot or self.globals.get(node.callee.name_hint)

    def run(self, partial: bool) -> None:
        waiting = [n for n in self.waiting if not isinstance(n, Var)]
        progress = True
        while progress:
            progress = False
            for node in waiting:
                progress |= self.forward(node)
            for node in reversed(self.order):
                progress |= self.backward(node)
            if not progress:
                # A guess (an elementwise partner's type) only when nothing else is left,
                # one at a time: an operand an op will infer forward is not guessed.
                progress = any(self.backward(node, weak=True) for node in reversed(self.order))
        if not partial:
            self.report()

    def report(self) -> None:
        users: dict[int, list[Expr]] = {}
        for node in self.order:
            for child in _children(node):
                users.setdefault(id(child), []).append(node)
        for node in self.waiting:
            if isinstance(node, Var) and not is_complete(node.checked_type):
                used = users.get(id(node), [])
                by = f"; it is used by {_op_name(used[0])}" if used else ", and it is never used"
                raise RelayTypeError(
                    f"the type of variable '{node.name_hint}' cannot be solved{by} "
                    "(give the variable a type or shape, or the op the attributes that fix "
                    "its operand types)"
                )
        for node in self.waiting:
            if isinstance(node, GlobalCall) and self.global_type(node) is None:
                raise RelayTypeError(
                    f"the type of @{node.callee.name_hint} is unknown: the module has no such "
                    "function yet (add it first), or give its GlobalVar a FuncType"
                )
            if not isinstance(node, Var) and id(node) not in self.done:
                raise RelayTypeError(f"the type of {_op_name(node)} cannot be solved")


def solve(
    roots: Sequence[Expr],
    expected: Sequence[tuple[Expr, Attribute]] = (),
    partial: bool = False,
    globals_: Mapping[str, FunctionType] | None = None,
) -> None:
    """Give every expression `roots` reach its type (in place), `expected` types first (a
    function's declared result); a RelayTypeError names a variable that stays unknown, or
    the op whose check fails on the solved types. Typed expressions cost one walk.

    `partial`: what cannot be solved keeps its `IncompleteType`, no error (for matching
    patterns, which need no types, on TVM's untyped test expressions)."""
    order = postorder(roots)
    if all(is_complete(n.checked_type) for n in order):
        return
    solver = _Solver(order, globals_ or {})
    for node, ty in expected:
        solver.assign(node, ty)
    solver.run(partial)
