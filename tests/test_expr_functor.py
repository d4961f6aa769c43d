"""TVM's ExprVisitor / ExprMutator / ExprFunctor over builder expressions (issue 18)."""

from __future__ import annotations

import pytest
from xrelay.dialects.builder.expr import Expr

from xrelay import IRModule, relay


class CountCalls(relay.ExprVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def visit_call(self, call: relay.Call) -> None:  # type: ignore[override]
        self.names.append(call.op.name)
        super().visit_call(call)


def test_visitor_visits_shared_nodes_once_in_tvm_order() -> None:
    x = relay.var("x", shape=(2,))
    e = relay.exp(x)
    body = relay.add(e, relay.Tuple([e, relay.log(x)])[0])
    counter = CountCalls()
    counter.visit(relay.Function([x], body))
    assert counter.names == ["add", "exp", "log"]  # exp once, tuple and getitem not calls
    assert len([k for k in counter.memo_map if isinstance(k, Expr)]) == 7


class ReluToSigmoid(relay.ExprMutator):
    def visit_call(self, call: relay.Call) -> Expr:  # type: ignore[override]
        new = super().visit_call(call)
        if isinstance(new, relay.Call) and new.op.name == "nn.relu":
            return relay.sigmoid(new.args[0])
        return new


def test_mutator_rebuilds_only_what_changed() -> None:
    x = relay.var("x", shape=(2,))
    r = relay.nn.relu(x)
    fn = relay.Function([x], relay.add(r, r))
    out = ReluToSigmoid().visit(fn)
    text = str(IRModule.from_expr(out))
    assert "relay.sigmoid" in text
    assert "relay.nn.relu" not in text
    assert text.count("relay.sigmoid") == 1  # the shared relu stays shared
    same = relay.Function([x], relay.exp(x))
    assert ReluToSigmoid().visit(same) is same


def test_mutator_keeps_if_tuples_and_getitems() -> None:
    x = relay.var("x", shape=(2,))
    c = relay.var("c", shape=(), dtype="bool")
    t = relay.Tuple([relay.nn.relu(x), x])
    body = relay.If(c, relay.TupleGetItem(t, 0), x)
    out = ReluToSigmoid().visit(relay.Function([c, x], body))
    text = str(IRModule.from_expr(out))
    assert "relay.if" in text
    assert "relay.sigmoid" in text


def test_functor_without_a_method_raises() -> None:
    class OnlyVars(relay.ExprFunctor):
        def visit_var(self, var: relay.Var) -> str:
            return var.name_hint or ""

    x = relay.var("x", shape=(2,))
    assert OnlyVars().visit(x) == "x"
    with pytest.raises(NotImplementedError, match="visit_call"):
        OnlyVars().visit(relay.exp(x))
