"""TVM's matcher on builder expressions: op handles, op and function attributes, function,
`if` and dominator patterns, `is_expr`, the divide/multiply reassociation."""

from __future__ import annotations

from xrelay import relay
from xrelay.relay.dataflow_pattern import (
    FunctionPattern,
    dominates,
    has_attr,
    is_expr,
    is_if,
    is_let,
    is_op,
    is_var,
    wildcard,
)


def var(name: str) -> relay.Var:
    return relay.var(name, shape=(2, 3), dtype="float32")


def test_op_handles_and_their_pattern_kind() -> None:
    add = relay.op.op.get("add")
    assert is_op("add").match(add)
    assert not is_op("add").match(relay.op.op.get("subtract"))
    assert (is_op("subtract") | is_op("add")).match(add)
    assert is_op("add").has_attr({"TOpPattern": 1}).match(add)  # kBroadcast
    assert not is_op("add").has_attr({"TOpPattern": 0}).match(add)
    assert wildcard().has_attr({"TOpPattern": 0})(None).match(relay.nn.relu(var("x")))
    assert not wildcard().has_attr({"TOpPattern": 0})(None).match(var("x") + var("y"))


def test_is_expr_keeps_the_expression() -> None:
    x = var("x")
    pattern = is_expr(x)
    assert pattern.expr is x
    assert pattern.match(x)
    assert not pattern.match(var("x"))  # another variable of the same name
    assert is_expr(relay.const(1.5)).match(relay.const(1.5))  # constants by value
    assert not is_expr(relay.const(1.5)).match(relay.const(2.5))


def test_function_pattern_and_function_attributes() -> None:
    x, y = var("x"), var("y")
    a, b = wildcard(), wildcard()
    fn = relay.Function([x, y], x + y)
    assert FunctionPattern([a, b], a + b).match(fn)
    assert not FunctionPattern([a, b], a - b).match(fn)
    assert not FunctionPattern([a], wildcard()).match(fn)
    assert FunctionPattern(None, wildcard()).match(fn)
    assert has_attr({"Composite": "add"}).match(fn.with_attr("Composite", "add"))
    assert not has_attr({"Composite": "add"}).match(fn.with_attr("Composite", "sub"))
    assert not has_attr({"Composite": "add"}).match(fn)


def test_if_pattern_and_no_let() -> None:
    x = relay.var("x", shape=(), dtype="float32")
    y = relay.var("y", shape=(), dtype="float32")
    cond = relay.less(x, y)
    px, py = is_var("x"), is_var("y")
    assert is_if(is_op("less")(px, py), px, py).match(relay.If(cond, x, y))
    assert not is_if(is_op("less")(px, py), px, py).match(relay.If(cond, y, x))
    assert not is_if(is_op("greater")(px, py), px, py).match(relay.If(cond, x, y))
    assert not is_let(wildcard(), wildcard(), wildcard()).match(x + y)


def test_dominator_through_elementwise_path() -> None:
    x, w = relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3))
    conv = relay.nn.conv2d(x, w, padding=(1, 1))
    elementwise = wildcard().has_attr({"TOpPattern": 0})(wildcard())
    diamond = dominates(
        is_op("nn.conv2d")(wildcard(), wildcard()),
        elementwise,
        is_op("add")(wildcard(), wildcard()),
    )
    # conv -> relu -> add, conv -> sigmoid -> add: every path from add back to conv is elementwise
    assert diamond.match(relay.nn.relu(conv) + relay.sigmoid(conv))
    # a softmax (not elementwise) on one path breaks it
    assert not diamond.match(relay.nn.relu(conv) + relay.nn.softmax(conv))
    # the path must lead back to the parent: a second input from elsewhere does not
    other = relay.var("o", shape=(1, 4, 8, 8))
    assert not diamond.match(relay.nn.relu(conv) + relay.nn.relu(other))


def test_divide_multiply_reassociation() -> None:
    a, b, c = var("a"), var("b"), var("c")
    pa, pb, pc = wildcard(), wildcard(), wildcard()
    pattern = (pa * pb) / pc
    assert pattern.match((a * b) / c)
    assert pattern.match(a * (b / c))  # TVM's matcher reassociates
    assert not pattern.match(a + (b / c))
