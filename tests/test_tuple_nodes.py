"""Tuples and projections read back from a module are TVM's `relay.Tuple` / `relay.TupleGetItem`
nodes (not plain calls): their attributes, visitor dispatch, equality and round trip."""

from __future__ import annotations

from typing import Any

from xrelay.dialects.builder.expr import Call
from xrelay.dialects.builder.span import SourceName, Span

from xrelay import IRModule, relay
from xrelay.ir import structural_equal
from xrelay.relay.dataflow_pattern import is_op, is_tuple, is_tuple_get_item, wildcard
from xrelay.relay.expr_functor import ExprMutator, ExprVisitor


def _module() -> IRModule:
    """main(x, y) = (t, t.1) with t = (x + y, x * y)."""
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))
    t = relay.Tuple([x + y, x * y])
    return IRModule.from_expr(relay.Function([x, y], relay.Tuple([t, relay.TupleGetItem(t, 1)])))


def test_read_back_nodes_are_tvm_tuple_and_tuple_get_item() -> None:
    main = _module()["main"]
    body = main.body
    assert isinstance(body, relay.Tuple)
    assert not main.multi_result  # one tuple-typed result, not two results
    inner, item = body.fields
    assert isinstance(inner, relay.Tuple)
    assert isinstance(item, relay.TupleGetItem)
    assert item.index == 1
    assert isinstance(item.index, int)
    assert item.tuple_value is inner  # the shared tuple stays one node
    add, mul = inner.fields
    assert type(add) is Call
    assert add.op.name == "add"
    assert type(mul) is Call
    assert mul.op.name == "multiply"
    assert [f.checked_type for f in inner.fields] == [main.params[0].checked_type] * 2
    assert item.checked_type == main.params[0].checked_type
    assert body.checked_type == main.ret_type


def test_indexing_a_read_back_tuple_value_gives_tuple_get_item() -> None:
    x = relay.var("x", shape=(1, 4))
    pair = relay.nn.batch_norm(x, *(relay.var(n, shape=(4,)) for n in "gbmv"))
    mod = IRModule.from_expr(pair[0])
    out = mod["main"].body
    assert isinstance(out, relay.TupleGetItem)
    assert out.index == 0
    assert type(out.tuple_value) is Call
    assert out.tuple_value.op.name == "nn.batch_norm"


def test_visitor_dispatches_to_visit_tuple_and_visit_tuple_getitem() -> None:
    seen: list[str] = []

    class Recorder(ExprVisitor):
        def visit_tuple(self, tup: Any) -> None:
            seen.append(f"tuple/{len(tup.fields)}")
            super().visit_tuple(tup)

        def visit_tuple_getitem(self, t: Any) -> None:
            seen.append(f"item/{t.index}")
            super().visit_tuple_getitem(t)

        def visit_call(self, call: Any) -> None:
            seen.append(f"call/{call.op.name}")
            super().visit_call(call)

    Recorder().visit(_module()["main"])
    assert seen == ["tuple/2", "tuple/2", "call/add", "call/multiply", "item/1"]


def test_mutator_rebuilds_tuple_nodes_from_a_read_back_module() -> None:
    class MulToSub(ExprMutator):
        def visit_call(self, call: Any) -> Any:
            new = super().visit_call(call)
            if isinstance(new, Call) and new.op.name == "multiply":
                return relay.subtract(*new.args)
            return new

    main = _module()["main"]
    out = MulToSub().visit(main)
    body = out.body
    assert isinstance(body, relay.Tuple)
    assert body is not main.body
    inner, item = body.fields
    assert isinstance(inner, relay.Tuple)
    assert isinstance(item, relay.TupleGetItem)
    assert item.tuple_value is inner
    assert item.index == 1
    assert inner.fields[1].op.name == "subtract"
    # A mutator that changes nothing returns the very nodes it was given.
    assert ExprMutator().visit(main) is main


def test_equality_is_identity_and_structural_equal_compares_shape() -> None:
    first, second = _module()["main"], _module()["main"]
    a, b = first.body, second.body
    assert a == a
    assert a != b
    assert len({a, b, a}) == 2  # hashable, by node
    memo = {a: "first"}
    assert memo[a] == "first"
    assert b not in memo
    assert structural_equal(first, second)
    assert structural_equal(a, b, map_free_vars=True)
    x, y = first.params
    other = relay.Function([x, y], relay.Tuple([relay.Tuple([x + y, x * y]), x * y]))
    assert not structural_equal(first, other)  # t.1 is not a fresh multiply


def test_round_trip_through_from_expr() -> None:
    main = _module()["main"]
    again = IRModule.from_expr(main)
    assert str(again) == str(_module())
    body = again["main"].body
    assert isinstance(body, relay.Tuple)
    assert isinstance(body.fields[1], relay.TupleGetItem)
    # A body read back and re-wrapped in a new function is still a tuple of the same shape.
    rewrapped = IRModule.from_expr(relay.Function(main.params, main.body))
    assert structural_equal(rewrapped["main"], main)


def test_spans_and_attributes_come_back_on_tuple_nodes() -> None:
    x = relay.var("x", shape=(2,))
    span = Span(SourceName("TupleSrc"), 3, 3, 7, 7)
    t = relay.Tuple([x, x], span)
    item = relay.TupleGetItem(t, 0, span=Span(SourceName("ItemSrc"), 4, 4, 1, 1))
    item.attrs["note"] = relay.const(1.0).dense_attr()
    main = IRModule.from_expr(relay.Function([x], item))["main"]
    read = main.body
    assert isinstance(read, relay.TupleGetItem)
    assert isinstance(read.tuple_value, relay.Tuple)
    assert str(read.span) == "ItemSrc:4:1"
    assert str(read.tuple_value.span) == "TupleSrc:3:7"
    assert "note" in read.attrs


def test_patterns_match_read_back_tuple_nodes() -> None:
    body = _module()["main"].body
    add = is_op("add")(wildcard(), wildcard())
    assert is_tuple([is_tuple([add, wildcard()]), is_tuple_get_item(wildcard(), 1)]).match(body)
    assert not is_tuple_get_item(wildcard(), 0).match(body.fields[1])
    assert not add.match(body)
