"""TVM's `ExprFunctor`, `ExprVisitor` and `ExprMutator` over the builder's expressions.

`visit(expr)` dispatches on the expression's kind to TVM's method names (`visit_function`,
`visit_call`, `visit_var`, `visit_constant`, `visit_tuple`, `visit_tuple_getitem`, `visit_if`,
`visit_global_var`, `visit_op`) and memoizes the result per expression in `memo_map`, as
TVM does, so a shared subexpression is visited once. A call's `op` is the relay op class
(visited with `visit_op`) or, for a call of a module function, its `GlobalVar`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

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
from xrelay.dialects.builder.op_handle import Op

_E = TypeVar("_E", bound=Expr)


class ExprFunctor:
    """Dispatch on the kind of expression, memoized; subclasses define the `visit_*`."""

    def __init__(self) -> None:
        self.memo_map: dict[object, Any] = {}

    def visit(self, expr: object) -> Any:
        """The result of the `visit_*` for `expr`'s kind, once per expression."""
        if expr in self.memo_map:
            return self.memo_map[expr]
        result = self._dispatch(expr)
        self.memo_map[expr] = result
        return result

    def _dispatch(self, expr: object) -> Any:
        if isinstance(expr, Function):
            return self.visit_function(expr)
        if isinstance(expr, Var):
            return self.visit_var(expr)
        if isinstance(expr, Constant):
            return self.visit_constant(expr)
        if isinstance(expr, Tuple):
            return self.visit_tuple(expr)
        if isinstance(expr, TupleGetItem):
            return self.visit_tuple_getitem(expr)
        if isinstance(expr, If):
            return self.visit_if(expr)
        if isinstance(expr, Call | GlobalCall | OpaqueCall | FunctionCall):
            return self.visit_call(expr)
        if isinstance(expr, GlobalVar):
            return self.visit_global_var(expr)
        if isinstance(expr, Op | type):
            return self.visit_op(expr)
        raise TypeError(f"{type(self).__name__} cannot visit {type(expr).__name__}")

    def visit_function(self, fn: Function) -> Any:
        raise NotImplementedError("visit_function")

    def visit_var(self, var: Var) -> Any:
        raise NotImplementedError("visit_var")

    def visit_constant(self, const: Constant) -> Any:
        raise NotImplementedError("visit_constant")

    def visit_tuple(self, tup: Tuple) -> Any:
        raise NotImplementedError("visit_tuple")

    def visit_tuple_getitem(self, t: TupleGetItem) -> Any:
        raise NotImplementedError("visit_tuple_getitem")

    def visit_if(self, ite: If) -> Any:
        raise NotImplementedError("visit_if")

    def visit_call(self, call: Call | GlobalCall | OpaqueCall | FunctionCall) -> Any:
        raise NotImplementedError("visit_call")

    def visit_global_var(self, gv: GlobalVar) -> Any:
        raise NotImplementedError("visit_global_var")

    def visit_op(self, op: Op | type) -> Any:
        raise NotImplementedError("visit_op")


def call_op(call: Call | GlobalCall | OpaqueCall | FunctionCall) -> object:
    """What TVM calls `call.op`: the op handle, the GlobalVar, or the template's class."""
    if isinstance(call, GlobalCall):
        return call.callee
    if isinstance(call, OpaqueCall):
        return type(call.template)
    if isinstance(call, FunctionCall):
        return call.callee
    return call.op


class ExprVisitor(ExprFunctor):
    """Visits every subexpression once (TVM's `ExprVisitor`); override a `visit_*` to act."""

    def visit_function(self, fn: Function) -> None:
        for param in fn.params:
            self.visit(param)
        self.visit(fn.body)

    def visit_var(self, var: Var) -> None:
        pass

    def visit_constant(self, const: Constant) -> None:
        pass

    def visit_tuple(self, tup: Tuple) -> None:
        for field in tup.fields:
            self.visit(field)

    def visit_tuple_getitem(self, t: TupleGetItem) -> None:
        self.visit(t.tuple_value)

    def visit_if(self, ite: If) -> None:
        self.visit(ite.cond)
        self.visit(ite.true_branch)
        self.visit(ite.false_branch)

    def visit_call(self, call: Call | GlobalCall | OpaqueCall | FunctionCall) -> None:
        self.visit(call_op(call))
        for arg in call.args:
            self.visit(arg)

    def visit_global_var(self, gv: GlobalVar) -> None:
        pass

    def visit_op(self, op: Op | type) -> None:
        pass


class ExprMutator(ExprFunctor):
    """Rebuilds an expression from its visited parts (TVM's `ExprMutator`).

    An expression whose parts all come back unchanged is returned as it is, so sharing
    survives; a rebuilt call keeps its op, properties, attributes and span (as TVM's keeps a
    call's, tuple's and projection's span; an `if` keeps its span here too) and infers its
    type.
    """

    def visit_function(self, fn: Function) -> Expr:
        params = [self.visit(p) for p in fn.params]
        body = self.visit(fn.body)
        if body is fn.body and all(n is o for n, o in zip(params, fn.params, strict=True)):
            return fn
        out = Function(params, body, attrs=fn.attrs)
        out.multi_result = fn.multi_result
        return out

    def visit_var(self, var: Var) -> Expr:
        return var

    def visit_constant(self, const: Constant) -> Expr:
        return const

    def visit_tuple(self, tup: Tuple) -> Expr:
        fields = [self.visit(f) for f in tup.fields]
        if all(n is o for n, o in zip(fields, tup.fields, strict=True)):
            return tup
        return Tuple(fields, tup.span)

    def visit_tuple_getitem(self, t: TupleGetItem) -> Expr:
        value = self.visit(t.tuple_value)
        return t if value is t.tuple_value else TupleGetItem(value, t.index, span=t.span)

    def visit_if(self, ite: If) -> Expr:
        cond, then, other = (self.visit(e) for e in (ite.cond, ite.true_branch, ite.false_branch))
        if cond is ite.cond and then is ite.true_branch and other is ite.false_branch:
            return ite
        return If(cond, then, other, ite.span)

    def visit_call(self, call: Call | GlobalCall | OpaqueCall | FunctionCall) -> Expr:
        op = self.visit(call_op(call))
        args = [self.visit(a) for a in call.args]
        if isinstance(call, FunctionCall):
            if op is call.callee and all(n is o for n, o in zip(args, call.args, strict=True)):
                return call
            callee = op if isinstance(op, Function) else call.callee
            return _with_span(FunctionCall(callee, args), call)
        if all(n is o for n, o in zip(args, call.args, strict=True)):
            return call
        if isinstance(call, GlobalCall):
            return _with_span(GlobalCall(call.callee, args, call.ret_types), call)
        if isinstance(call, OpaqueCall):
            return _with_span(OpaqueCall(call.template, args), call)
        return Call(call.op_class, args, call.props, call.attrs, span=call.span)

    def visit_global_var(self, gv: GlobalVar) -> GlobalVar:
        return gv

    def visit_op(self, op: Op | type) -> Op | type:
        return op


def _with_span(new: _E, old: Expr) -> _E:
    """`new` located where `old` was."""
    new.span = old.span
    return new


class _Substitute(ExprMutator):
    def __init__(self, mapping: Mapping[int, Expr]):
        super().__init__()
        self.mapping = mapping

    def visit_var(self, var: Var) -> Expr:
        return self.mapping.get(id(var), var)


def substitute_vars(expr: Expr, mapping: Mapping[int, Expr]) -> Expr:
    """`expr` with each variable whose `id` is in `mapping` replaced; shared parts stay shared."""
    return _Substitute(mapping).visit(expr) if mapping else expr
