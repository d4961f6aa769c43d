"""`pattern.partition`: matches outlined into `PartitionedFromPattern` functions, inputs in
pattern order, constants embedded, overlapping and escaping matches left alone."""

from __future__ import annotations

import numpy as np
from xrelay.dialects.builder.expr import FunctionCall

import xrelay
from xrelay import relay
from xrelay.relay.dataflow_pattern import dominates, is_constant, is_op, wildcard


def conv_relu() -> tuple[relay.Var, relay.Var, relay.Expr, relay.Expr]:
    x = relay.var("x", shape=(1, 3, 6, 6))
    w = relay.var("w", shape=(4, 3, 3, 3))
    conv = relay.nn.conv2d(x, w, padding=(1, 1))
    return x, w, conv, relay.nn.relu(conv)


def test_partition_outlines_a_match() -> None:
    x, w, _, relu = conv_relu()
    pattern = is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard()))
    out = pattern.partition(relu, attrs={"Composite": "conv_relu"})
    assert isinstance(out, FunctionCall)
    assert out.args == [x, w]
    fn = out.op
    assert fn.attrs == {"PartitionedFromPattern": "nn.conv2d_nn.relu_", "Composite": "conv_relu"}
    assert [p.name_hint for p in fn.params] == ["FunctionVar_0_0", "FunctionVar_0_1"]
    assert isinstance(fn.body, relay.Call)
    assert fn.body.op.name == "nn.relu"
    # the outlined graph computes what the original did
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1, 3, 6, 6)).astype("float32")
    b = rng.standard_normal((4, 3, 3, 3)).astype("float32")
    before = xrelay.evaluate(
        xrelay.IRModule.from_expr(
            relay.Function([x, w], relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1))))
        ),
        a,
        b,
    )
    after = xrelay.evaluate(xrelay.IRModule.from_expr(relay.Function([x, w], out)), a, b)
    np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-6)


def test_check_and_escaping_inner_nodes() -> None:
    _, _, conv, relu = conv_relu()
    pattern = is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard()))
    assert pattern.partition(relu, check=lambda pre: False) is relu
    # conv is also used outside the match, by a node relu does not post-dominate
    escaping = relu + conv
    out = pattern.partition(escaping)
    xrelay.ir.assert_structural_equal(out, escaping)


def test_constants_are_embedded_and_groups_do_not_overlap() -> None:
    x = relay.var("x", shape=(2, 2))
    c = relay.const(np.ones((2, 2), "float32"))
    expr = relay.nn.relu(x + c)
    pattern = is_op("nn.relu")(is_op("add")(wildcard(), is_constant()))
    out = pattern.partition(expr)
    assert isinstance(out, FunctionCall)
    assert out.args == [x]  # the constant stays inside
    # two chained adds, pattern add(add(_, _), _): only one group, not two overlapping
    y = relay.var("y", shape=(2, 2))
    chain = (x + y) + y
    twice = is_op("add")(is_op("add")(wildcard(), wildcard()), wildcard())
    out = twice.partition(chain + y)
    assert isinstance(out, FunctionCall)
    inner = out.args[0]
    assert isinstance(inner, relay.Call)
    assert inner.op.name == "add"


def test_dominator_partition_takes_the_parent_in() -> None:
    _, _, conv, _ = conv_relu()
    elementwise = wildcard().has_attr({"TOpPattern": 0})(wildcard())
    diamond = dominates(
        is_op("nn.conv2d")(wildcard(), wildcard()),
        elementwise,
        is_op("add")(wildcard(), wildcard()),
    )
    out = diamond.partition(relay.nn.relu(conv) + relay.sigmoid(conv))
    assert isinstance(out, FunctionCall)
    fn = out.op
    assert fn.attrs["PartitionedFromPattern"] == "nn.conv2d_nn.relu_sigmoid_add_"
    assert len(out.args) == 2  # the convolution's inputs
