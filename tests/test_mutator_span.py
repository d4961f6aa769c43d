"""`ExprMutator` keeps the span of what it rebuilds (TVM: `Call(new_op, new_args, call.attrs,
call.type_args, call.span)`, `Tuple(fields, tup.span)`, `TupleGetItem(..., span=op.span)`),
so a module located with `relay.Span`s keeps its locations through a Python mutator pass."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import FileLineColLoc

from xrelay import IRModule, relay, transform
from xrelay.relay.expr_functor import ExprMutator


def at(name: str) -> relay.Span:
    return relay.Span(relay.SourceName(name), 1, 1, 2, 2)


def located(expr: Any, name: str) -> Any:
    """`expr` (a call of a relay op) rebuilt with a span, as TVM users write it."""
    return relay.Call(expr.op, expr.args, expr.attrs, expr.type_args, at(name))


def locations(mod: IRModule) -> dict[str, str]:
    """Each op's name -> its location's file name, for ops that have a file location."""
    return {
        op.name: op.location.filename.data
        for op in mod.module.walk()
        if isinstance(op.location, FileLineColLoc)
    }


def spanned_module() -> IRModule:
    """main(x, y) = relu(add(x, y)) and (that, exp(x)).1, every node located."""
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))
    added = located(relay.add(x, y), "add")
    relu = located(relay.nn.relu(added), "relu")
    pair = relay.Tuple([relu, located(relay.exp(x), "exp")], at("tuple"))
    item = relay.TupleGetItem(pair, 1, span=at("item"))
    out = located(relay.multiply(relu, item), "multiply")
    return IRModule.from_expr(relay.Function([x, y], out))


class AddToSub(ExprMutator):
    """Replaces `add` with a new `subtract` (no span): everything that reads it is rebuilt."""

    def visit_call(self, call: Any) -> Any:
        new = super().visit_call(call)
        if isinstance(new, relay.Call) and new.op.name == "add":
            return relay.subtract(*new.args)
        return new


NAMES = {
    "relay.add": "add",
    "relay.nn.relu": "relu",
    "relay.exp": "exp",
    "relay.tuple": "tuple",
    "relay.tuple_get_item": "item",
    "relay.multiply": "multiply",
}


def test_a_mutator_pass_keeps_every_rebuilt_nodes_location() -> None:
    mod = spanned_module()
    assert locations(mod) == NAMES

    @transform.function_pass(opt_level=0)
    def add_to_sub(func: Any, mod: IRModule, ctx: Any) -> Any:
        return AddToSub().visit(func)

    out = add_to_sub(mod)
    expected = {k: v for k, v in NAMES.items() if k != "relay.add"}
    assert locations(out) == expected  # the new subtract has none
    assert locations(mod) == NAMES  # the input module is left as it was


def test_rebuilt_expressions_carry_the_span_objects() -> None:
    main = spanned_module()["main"]
    rebuilt = AddToSub().visit(main)
    assert rebuilt is not main
    body = rebuilt.body
    assert body is not main.body
    assert str(body.span) == "multiply:1:2"
    relu, item = body.args
    assert str(relu.span) == "relu:1:2"
    assert relu.args[0].op.name == "subtract"
    assert relu.args[0].span is None
    assert isinstance(item, relay.TupleGetItem)
    assert str(item.span) == "item:1:2"
    assert isinstance(item.tuple_value, relay.Tuple)
    assert str(item.tuple_value.span) == "tuple:1:2"
    assert str(item.tuple_value.fields[1].span) == "exp:1:2"


def test_calls_of_functions_and_globals_keep_their_span() -> None:
    x = relay.var("x", shape=(3,))
    p = relay.var("p", shape=(3,))
    inner = relay.Function([p], relay.exp(p))
    fn_call = relay.Call(inner, [x], None, None, at("fncall"))
    assert str(fn_call.span) == "fncall:1:2"
    helper = IRModule.from_expr(relay.Function([p], relay.nn.relu(p)))
    gv = helper.get_global_var("main")
    g_call = relay.Call(gv, [fn_call], span=at("gcall"))
    assert str(g_call.span) == "gcall:1:2"
    mod = IRModule({"helper": helper["main"]})
    gv = mod.get_global_var("helper")
    mod["main"] = relay.Function([x], relay.Call(gv, [fn_call + x], span=at("gcall")))
    calls = {
        op.callee.root_reference.data: op.location.filename.data
        for op in mod.module.walk()
        if op.name == "func.call" and isinstance(op.location, FileLineColLoc)
    }
    assert set(calls.values()) == {"fncall", "gcall"}
    assert calls["helper"] == "gcall"
    main = mod["main"]
    rebuilt = AddToSub().visit(main)
    assert rebuilt.body is not main.body
    assert rebuilt.body.args[0].op.name == "subtract"
    assert str(rebuilt.body.span) == "gcall:1:2"


def test_an_if_keeps_its_span_through_a_mutator() -> None:
    c = relay.var("c", shape=(), dtype="bool")
    x, y = relay.var("x", shape=(3,)), relay.var("y", shape=(3,))
    choice = relay.If(c, relay.add(x, y), relay.exp(x), at("if"))
    mod = IRModule.from_expr(relay.Function([c, x, y], relay.nn.relu(choice)))
    assert locations(mod)["relay.if"] == "if"
    main = mod["main"]
    assert isinstance(main.body.args[0], relay.If)
    assert str(main.body.args[0].span) == "if:1:2"
    rebuilt = AddToSub().visit(main)
    branch = rebuilt.body.args[0]
    assert isinstance(branch, relay.If)
    assert branch is not main.body.args[0]
    assert branch.true_branch.op.name == "subtract"
    assert str(branch.span) == "if:1:2"
    assert locations(IRModule.from_expr(rebuilt))["relay.if"] == "if"
