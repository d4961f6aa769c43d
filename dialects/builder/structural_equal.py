"""TVM's `structural_equal` / `assert_structural_equal` over builder expressions and modules.

As TVM's: graph-aware (a call, tuple or `if` shared on one side must be shared alike on the
other; constants compare by value wherever they are)
and alpha-equivalent (function parameters correspond by position, their names do not
matter); free variables must be the same objects unless `map_free_vars=True` maps them in
order of first use. Calls compare their op, properties (a property left at its default
equals the default written out), attributes and types; constants their dtype, shape and
bytes; functions their attributes and parameter types. Modules compare function by function,
by name. Types, attributes, numbers, strings and lists compare as values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
from xdsl.ir import Attribute, IRNode, SSAValue
from xrelay.dialects.builder.expr import (
    Call,
    Constant,
    Expr,
    Function,
    FunctionCall,
    GlobalCall,
    If,
    OpaqueCall,
    Var,
    python_to_attr,
)
from xrelay.dialects.ir_module import IRModule


class Mismatch(Exception):
    """Where two structures first differ."""


def _attrs(values: Mapping[str, object]) -> dict[str, Attribute]:
    return {k: python_to_attr(v) for k, v in values.items()}


def _props(call: Call) -> dict[str, Attribute]:
    return call.op_class.default_properties() | call.props


class _Comparer:
    def __init__(self, map_free_vars: bool):
        self.map_free_vars = map_free_vars
        self.forward: dict[int, Expr] = {}
        self.backward: dict[int, Expr] = {}
        self.keep: list[Expr] = []  # keeps compared nodes alive so ids stay unique

    def bind(self, lhs: Expr, rhs: Expr) -> bool:
        """Record lhs <-> rhs; False if already recorded (consistently), Mismatch if not."""
        seen_l, seen_r = self.forward.get(id(lhs)), self.backward.get(id(rhs))
        if seen_l is not None or seen_r is not None:
            if seen_l is rhs and seen_r is lhs:
                return False
            raise Mismatch(
                f"sharing differs: {_show(lhs)} is matched with {_show(seen_l or rhs)} "
                f"elsewhere, here with {_show(rhs)}"
            )
        self.forward[id(lhs)] = rhs
        self.backward[id(rhs)] = lhs
        self.keep += [lhs, rhs]
        return True

    def compare(self, lhs: Expr, rhs: Expr) -> None:
        stack = [(lhs, rhs)]
        while stack:
            left, right = stack.pop()
            if isinstance(left, Constant) and isinstance(right, Constant):
                self.local(left, right)  # as in TVM, constants are values, not graph nodes
                continue
            if not self.bind(left, right):
                continue
            for pair in reversed(self.local(left, right)):
                stack.append(pair)

    def local(self, lhs: Expr, rhs: Expr) -> list[tuple[Expr, Expr]]:
        """Compare what belongs to the node itself; the pairs of parts still to compare."""
        if type(lhs) is not type(rhs):
            raise Mismatch(f"{_show(lhs)} vs {_show(rhs)}")
        if not isinstance(lhs, Function) and lhs.checked_type != rhs.checked_type:
            raise Mismatch(f"types differ: {lhs.checked_type} vs {rhs.checked_type} ({_show(lhs)})")
        if isinstance(lhs, Var):
            if not self.map_free_vars and lhs is not rhs:
                raise Mismatch(f"free variables differ: {_show(lhs)} vs {_show(rhs)}")
            return []
        if isinstance(lhs, Constant):
            assert isinstance(rhs, Constant)
            a, b = lhs.data, rhs.data
            if a.dtype != b.dtype or a.shape != b.shape or a.tobytes() != b.tobytes():
                raise Mismatch(f"constants differ: {np.array2string(a)} vs {np.array2string(b)}")
            return []
        if isinstance(lhs, Function):
            assert isinstance(rhs, Function)
            return self.function(lhs, rhs)
        if isinstance(lhs, If):
            assert isinstance(rhs, If)
            return list(zip(_if_parts(lhs), _if_parts(rhs), strict=True))
        if isinstance(lhs, FunctionCall):
            assert isinstance(rhs, FunctionCall)
            if len(lhs.args) != len(rhs.args):
                raise Mismatch(f"argument counts differ: {len(lhs.args)} vs {len(rhs.args)}")
            return [(lhs.callee, rhs.callee), *zip(lhs.args, rhs.args, strict=True)]
        self.callee(lhs, rhs)
        args_l, args_r = list(lhs.children()), list(rhs.children())
        if len(args_l) != len(args_r):
            raise Mismatch(f"argument counts differ: {len(args_l)} vs {len(args_r)}")
        return list(zip(args_l, args_r, strict=True))

    def callee(self, lhs: Expr, rhs: Expr) -> None:
        """Compare what a call calls: an op and its attributes, a function, a template."""
        if isinstance(lhs, Call):
            assert isinstance(rhs, Call)
            if lhs.op_class is not rhs.op_class:
                raise Mismatch(f"ops differ: {lhs.op.name} vs {rhs.op.name}")
            if _props(lhs) != _props(rhs) or lhs.attrs != rhs.attrs:
                raise Mismatch(f"attributes of {lhs.op.name} differ: {lhs.props} vs {rhs.props}")
        elif isinstance(lhs, GlobalCall):
            assert isinstance(rhs, GlobalCall)
            a, b = lhs.callee.name_hint, rhs.callee.name_hint
            if a != b:
                raise Mismatch(f"callees differ: @{a} vs @{b}")
        elif isinstance(lhs, OpaqueCall):
            assert isinstance(rhs, OpaqueCall)
            # The operands are compared as the call's arguments: map them onto each other.
            pairs = zip(lhs.template.operands, rhs.template.operands, strict=False)
            context: dict[IRNode | SSAValue, IRNode | SSAValue] = dict(pairs)
            parent_l, parent_r = lhs.template.parent, rhs.template.parent
            if parent_l is not None and parent_r is not None:  # xDSL compares the parents too
                context[parent_l] = parent_r
            if not lhs.template.is_structurally_equivalent(rhs.template, context):
                raise Mismatch(f"{lhs.template.name} ops differ")
        else:
            raise Mismatch(f"cannot compare {type(lhs).__name__}")

    def function(self, lhs: Function, rhs: Function) -> list[tuple[Expr, Expr]]:
        if len(lhs.params) != len(rhs.params):
            raise Mismatch(f"parameter counts differ: {len(lhs.params)} vs {len(rhs.params)}")
        if _attrs(lhs.attrs) != _attrs(rhs.attrs):
            raise Mismatch(f"function attributes differ: {lhs.attrs} vs {rhs.attrs}")
        for a, b in zip(lhs.params, rhs.params, strict=True):
            if a.checked_type != b.checked_type:
                raise Mismatch(f"parameter types differ: {_show(a)} vs {_show(b)}")
            self.bind(a, b)
        return [(lhs.body, rhs.body)]


def _if_parts(node: If) -> list[Expr]:
    return [node.cond, node.true_branch, node.false_branch]


def _show(expr: Expr | None) -> str:
    if isinstance(expr, Var):
        return f"%{expr.name_hint}: {expr.checked_type}"
    if isinstance(expr, Call):
        return f"{expr.op.name} : {expr.checked_type}"
    return type(expr).__name__


def _compare(lhs: Any, rhs: Any, map_free_vars: bool) -> None:
    if isinstance(lhs, IRModule) or isinstance(rhs, IRModule):
        if not (isinstance(lhs, IRModule) and isinstance(rhs, IRModule)):
            raise Mismatch(f"{type(lhs).__name__} vs {type(rhs).__name__}")
        names_l, names_r = sorted(lhs), sorted(rhs)
        if names_l != names_r:
            raise Mismatch(f"module functions differ: {names_l} vs {names_r}")
        for name in names_l:
            try:
                _Comparer(map_free_vars).compare(lhs[name], rhs[name])
            except Mismatch as exc:
                raise Mismatch(f"in @{name}: {exc}") from None
    elif isinstance(lhs, Expr) or isinstance(rhs, Expr):
        if not (isinstance(lhs, Expr) and isinstance(rhs, Expr)):
            raise Mismatch(f"{type(lhs).__name__} vs {type(rhs).__name__}")
        _Comparer(map_free_vars).compare(lhs, rhs)
    elif isinstance(lhs, list | tuple) and isinstance(rhs, list | tuple):
        seq_l = cast(Sequence[Any], lhs)
        seq_r = cast(Sequence[Any], rhs)
        if len(seq_l) != len(seq_r):
            raise Mismatch(f"lengths differ: {len(seq_l)} vs {len(seq_r)}")
        for a, b in zip(seq_l, seq_r, strict=True):
            _compare(a, b, map_free_vars)
    elif lhs != rhs:
        raise Mismatch(f"{lhs!r} vs {rhs!r}")


def structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False) -> bool:
    """TVM's `tvm.ir.structural_equal` (see the module docstring)."""
    try:
        _compare(lhs, rhs, map_free_vars)
    except Mismatch:
        return False
    return True


def assert_structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False) -> None:
    """TVM's `tvm.ir.assert_structural_equal`: a ValueError saying where the two differ."""
    try:
        _compare(lhs, rhs, map_free_vars)
    except Mismatch as exc:
        raise ValueError(
            f"StructuralEqual check failed: {exc}\nlhs:\n{_text(lhs)}\nrhs:\n{_text(rhs)}"
        ) from None


def _text(value: Any) -> str:
    try:
        if isinstance(value, Expr):
            return str(IRModule.from_expr(value))
        return str(value)
    except Exception as exc:  # printing is best effort: the mismatch is the message
        return f"<cannot print: {exc}>"
