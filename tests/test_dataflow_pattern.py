"""The dataflow pattern language (TVM's `relay.dataflow_pattern`) on xrelay's SSA graph.

Ports of TVM's `tests/python/relay/test_dataflow_pattern.py` (node and matcher
tests), written with the builder; TVM's untyped `relay.var("x")` become typed
vars, since xrelay infers types as expressions are built. Then the cases of the
brief: attributes with their defaults, types, reused wildcards, matches on
parsed IR values, what a match extracts for MergeComposite, and bad patterns.

Function, `if` and dominator patterns, op handles and op attributes, `rewrite`
and `pattern.partition` are tested in `test_dataflow_pattern_expr.py`,
`test_dataflow_pattern_rewrite.py` and `test_dataflow_pattern_partition.py` (and
TVM's own file in `tvm_compat/`).
"""

# ruff: noqa: F403, F405
from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir import OpResult, SSAValue
from xrelay.passes.byoc_registry import ExprView
from xrelay.passes.dataflow_pattern import *
from xrelay.passes.dataflow_pattern import as_value

import xrelay
from xrelay import relay

# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def var(name: str, shape: tuple[int, ...] = (4, 4), dtype: str = "float32") -> relay.Var:
    return relay.var(name, shape=shape, dtype=dtype)


def conv_inputs() -> tuple[relay.Var, relay.Var, relay.Var]:
    """Data, weight and bias of a 3x3 conv2d with 4 output channels."""
    return var("x", (1, 3, 8, 8)), var("w", (4, 3, 3, 3)), var("b", (4,))


def ir_values(text: str) -> dict[str, SSAValue]:
    """The values of `main` in parsed text, by SSA name (parameters and results)."""
    mod = xrelay.parse(text)
    out: dict[str, SSAValue] = {}
    for op in mod.module.walk():
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if arg.name_hint:
                        out[arg.name_hint] = arg
        for result in op.results:
            if result.name_hint:
                out[result.name_hint] = result
    return out


def names(values: list[SSAValue]) -> list[str | None]:
    return [v.name_hint for v in values]


# --------------------------------------------------------------------------- #
# Node tests (TVM)
# --------------------------------------------------------------------------- #


def test_expr_pattern() -> None:
    x = var("x", (4, 1))
    ep = is_expr(x)
    assert isinstance(ep, ExprPattern)
    assert ep.expr is x


def test_var_pattern() -> None:
    v = is_var("x")
    assert isinstance(v, VarPattern)
    assert v.name == "x"
    assert is_var().name == ""


def test_constant_pattern() -> None:
    assert isinstance(is_constant(), ConstantPattern)


def test_wildcard_pattern() -> None:
    assert isinstance(wildcard(), WildcardPattern)


def test_call_pattern() -> None:
    wc1, wc2 = wildcard(), wildcard()
    c = is_op("add")(wc1, wc2)
    assert isinstance(c, CallPattern)
    assert c.args is not None
    assert c.args == [wc1, wc2]
    assert isinstance(c.op, OpPattern)
    assert c.op.op_name == "add"


def test_call_pattern_with_any_args() -> None:
    assert is_op("add")(None).args is None
    assert wildcard()(None).args is None
    assert is_op("add")().args == []


def test_call_pattern_operators() -> None:
    a, b = wildcard(), wildcard()
    for pattern, name in (
        (a + b, "add"),
        (a - b, "subtract"),
        (a * b, "multiply"),
        (a / b, "divide"),
    ):
        assert isinstance(pattern, CallPattern)
        assert isinstance(pattern.op, OpPattern)
        assert pattern.op.op_name == name
        assert pattern.args == [a, b]


def test_tuple_pattern() -> None:
    wc1, wc2 = wildcard(), wildcard()
    t = is_tuple([wc1, wc2])
    assert isinstance(t, TuplePattern)
    assert t.fields == [wc1, wc2]
    assert is_tuple(None).fields is None


def test_tuple_get_item_pattern() -> None:
    t = is_tuple([wildcard(), wildcard()])
    tgi = is_tuple_get_item(t, 1)
    assert isinstance(tgi, TupleGetItemPattern)
    assert tgi.tuple is t
    assert tgi.index == 1
    assert is_tuple_get_item(t).index is None


def test_alt_pattern() -> None:
    is_add_or_sub = is_op("add") | is_op("subtract")
    assert isinstance(is_add_or_sub, AltPattern)


def test_type_pattern() -> None:
    ttype = relay.TensorType((10, 10), "float32")
    ty_pat = has_type(ttype)
    assert isinstance(ty_pat, TypePattern)
    assert ty_pat.type == ttype


def test_data_type_pattern() -> None:
    pattern = has_dtype("float16")
    assert isinstance(pattern, DataTypePattern)
    assert pattern.dtype == "float16"


def test_shape_pattern() -> None:
    pattern = has_shape([10, 10])
    assert isinstance(pattern, ShapePattern)
    assert pattern.shape == (10, 10)


def test_attr_pattern() -> None:
    op = is_op("nn.conv2d").has_attr({"data_layout": "NCHW"})
    assert isinstance(op, AttrPattern)
    assert op.attrs["data_layout"] == "NCHW"


def test_is_op_accepts_the_relay_prefix() -> None:
    x, y = var("x"), var("y")
    assert is_op("relay.add").op_name == "add"
    assert is_op("relay.add")(wildcard(), wildcard()).match(x + y)


# --------------------------------------------------------------------------- #
# Matcher tests (TVM)
# --------------------------------------------------------------------------- #


def test_match_op() -> None:
    x, y = var("x"), var("y")
    assert is_op("add").match(x + y)
    assert is_op("add")(None).match(x + y)
    assert not is_op("add").match(x - y)
    assert not is_op("add").match(x)


def test_match_op_or() -> None:
    x, y = var("x"), var("y")
    is_add_or_sub = is_op("add") | is_op("subtract")
    assert is_add_or_sub.match(x + y)
    assert is_add_or_sub.match(x - y)
    assert not is_add_or_sub.match(x * y)
    # An alternation of ops as the callee of a call pattern.
    call = is_add_or_sub(is_var("x"), is_var("y"))
    assert call.match(x + y)
    assert call.match(x - y)
    assert not call.match(x * y)
    assert not call.match(y - x)  # subtract is not commutative


def test_match_call_commutative() -> None:
    x, y = var("x"), var("y")
    add_pattern = is_op("add")(is_var("x"), is_var("y"))
    assert add_pattern.match(x + y)
    assert add_pattern.match(y + x)
    mul_pattern = is_op("multiply")(is_var("x"), is_var("y"))
    assert mul_pattern.match(x * y)
    assert mul_pattern.match(y * x)


def test_no_match_call_commutative() -> None:
    x, y = var("x"), var("y")
    sub_pattern = is_op("subtract")(is_var("x"), is_var("y"))
    assert sub_pattern.match(x - y)
    assert not sub_pattern.match(y - x)
    div_pattern = is_op("divide")(is_var("x"), is_var("y"))
    assert div_pattern.match(x / y)
    assert not div_pattern.match(y / x)


def test_match_call() -> None:
    x, y = var("x"), var("y")
    assert is_op("add")(wildcard(), wildcard()).match(x + y)
    # A wildcard callee with any number of operands matches any call.
    call_pattern = wildcard()(None)
    assert call_pattern.match(relay.nn.relu(x))
    assert call_pattern.match(relay.add(x, y))
    assert call_pattern.match(relay.concatenate([x, y, x], axis=0))


def test_wildcard_callee_matches_calls_only() -> None:
    """Vars, constants, tuples and tuple-get-items are no calls (TVM's node kinds)."""
    x, y = var("x"), var("y")
    call_pattern = wildcard()(None)
    assert not call_pattern.match(x)
    assert not call_pattern.match(relay.const(np.ones((4, 4), "float32")))
    assert not call_pattern.match(relay.Tuple([x, y]))
    assert not call_pattern.match(relay.Tuple([x, y])[0])
    # With operands: the arity must agree.
    unary = wildcard()(wildcard())
    assert unary.match(relay.nn.relu(x))
    assert unary.match(relay.exp(x))
    assert not unary.match(x + y)
    assert wildcard()(is_var("x"), is_var("y")).match(relay.maximum(x, y))


def test_no_match_call() -> None:
    x, y = var("x"), var("y")
    assert not is_op("add")(wildcard(), wildcard()).match(x - y)
    assert not is_op("add")(wildcard()).match(x + y)  # arity


def test_match_option() -> None:
    x, w, b = conv_inputs()
    pattern = is_op("nn.relu")(
        is_op("nn.conv2d")(wildcard(), wildcard()).optional(
            lambda x: is_op("nn.bias_add")(x, wildcard())
        )
    )
    conv2d = relay.nn.conv2d(x, w)
    assert pattern.match(relay.nn.relu(conv2d))
    assert pattern.match(relay.nn.relu(relay.nn.bias_add(conv2d, b)))

    pattern = is_op("nn.conv2d")(wildcard(), wildcard())
    pattern = pattern.optional(is_op("nn.relu")).optional(is_op("tanh"))
    relu = relay.nn.relu(conv2d)
    tanh = relay.tanh(conv2d)
    assert pattern.match(conv2d)
    assert pattern.match(relu)
    assert pattern.match(tanh)
    assert pattern.match(relay.tanh(relu))
    assert not pattern.match(relay.nn.relu(tanh))


def test_no_match_option() -> None:
    x, w, b = conv_inputs()
    pattern = is_op("nn.relu")(
        is_op("nn.conv2d")(wildcard(), wildcard()).optional(
            lambda x: is_op("nn.bias_add")(x, wildcard())
        )
    )
    assert not pattern.match(relay.tanh(relay.nn.conv2d(x, w)))
    d, k = var("d", (2, 3)), var("k", (4, 3))
    assert not pattern.match(relay.tanh(relay.nn.dense(d, k)))
    assert not pattern.match(relay.nn.relu(relay.nn.bias_add(relay.nn.dense(d, k), b)))
    other = var("other", (1, 4, 6, 6))
    assert not pattern.match(relay.nn.relu(relay.nn.conv2d(x, w) + other))


def test_match_const() -> None:
    pattern = is_op("nn.bias_add")(is_op("nn.conv2d")(wildcard(), is_constant()), wildcard())
    x, w, b = conv_inputs()
    assert not pattern.match(relay.nn.bias_add(relay.nn.conv2d(x, w), b))
    weight = relay.const(np.ones((4, 3, 3, 3), "float32"))
    assert pattern.match(relay.nn.bias_add(relay.nn.conv2d(x, weight), b))


def test_match_tuple() -> None:
    x, y = var("x"), var("y")
    z = x + y
    tuple_pattern = is_tuple((is_var("x"), wildcard(), is_op("add")))
    assert tuple_pattern.match(relay.Tuple([x, y, z]))
    assert is_tuple_get_item(tuple_pattern, 1).match(relay.Tuple([x, y, z])[1])

    any_index = is_tuple_get_item(tuple_pattern)
    for index in range(3):
        assert any_index.match(relay.Tuple([x, y, z])[index])

    # A tuple with any fields. (TVM's concatenate takes a tuple; xrelay's takes the
    # fields as operands, so "any fields" there is a call with any operands.)
    for fields in ([x], [x, y], [x, y, z]):
        assert is_tuple(None).match(relay.Tuple(fields))
        assert is_tuple_get_item(is_tuple(None), 0).match(relay.Tuple(fields)[0])
        assert is_op("concatenate")(None).match(relay.concatenate(fields, axis=0))


def test_no_match_tuple() -> None:
    x, y = var("x"), var("y")
    z = x + y
    tuple_pattern = is_tuple((is_var("x"), wildcard(), is_op("add"), wildcard()))
    assert not tuple_pattern.match(relay.Tuple([x, y, z]))
    tuple_pattern = is_tuple((is_var("x"), wildcard(), is_op("add")))
    assert not is_tuple_get_item(tuple_pattern, 1).match(relay.Tuple([x, y, z])[2])
    assert not tuple_pattern.match(relay.Tuple([y, x, z]))  # field order matters
    assert not is_tuple(None).match(x)


def test_match_type() -> None:
    x = var("x", (10, 10), "float32")
    assert has_type(relay.TensorType((10, 10), "float32")).match(x)


def test_no_match_type() -> None:
    x = var("x", (10, 10), "int32")
    assert not has_type(relay.TensorType((10, 10), "float32")).match(x)


def test_match_dtype() -> None:
    x = var("x", (10, 10), "float32")
    assert has_dtype("float32").match(x)


def test_no_match_dtype() -> None:
    x = var("x", (10, 10), "int32")
    assert not has_dtype("float32").match(x)


def test_match_shape() -> None:
    x = var("x", (10, 10), "float32")
    assert has_shape((10, 10)).match(x)


def test_no_match_shape() -> None:
    x = var("x", (10, 10), "int32")
    assert not has_shape((10, 5)).match(x)


def test_type_patterns_on_tuples_and_calls() -> None:
    """has_shape/has_dtype need a tensor; has_type also compares tuple types."""
    x, y = var("x"), var("y")
    pair = relay.Tuple([x, y])
    assert not has_shape((4, 4)).match(pair)
    assert not has_dtype("float32").match(pair)
    assert has_type(pair.checked_type).match(pair)
    assert is_op("add")(wildcard(), wildcard()).has_shape((4, 4)).has_dtype("float32").match(x + y)
    assert not is_op("add")(wildcard(), wildcard()).has_dtype("float16").match(x + y)


def test_match_call_attr() -> None:
    x, w, _ = conv_inputs()
    # A string attribute at its default value: TVM shows defaults, so does xrelay.
    is_conv2d = is_op("nn.conv2d")(wildcard(), wildcard()).has_attr({"data_layout": "NCHW"})
    assert is_conv2d.match(relay.nn.conv2d(x, w))
    # Array attributes, as lists or tuples.
    conv = relay.nn.conv2d(x, w, padding=(1, 1), strides=(2, 2))
    assert is_op("nn.conv2d")(wildcard(), wildcard()).has_attr({"strides": [2, 2]}).match(conv)
    assert (
        is_op("nn.conv2d")(wildcard(), wildcard()).has_attr({"padding": (1, 1, 1, 1)}).match(conv)
    )
    assert (
        is_op("nn.conv2d")(wildcard(), wildcard())
        .has_attr({"strides": (2, 2), "padding": [1, 1, 1, 1], "groups": 1})
        .match(conv)
    )
    # Empty attrs match any call.
    assert wildcard()(wildcard(), wildcard()).has_attr({}).match(conv)


def test_no_match_call_attr() -> None:
    x, w, _ = conv_inputs()
    conv = relay.nn.conv2d(x, w)
    is_conv2d = is_op("nn.conv2d")(wildcard(), wildcard())
    assert not is_conv2d.has_attr({"data_layout": "NHWC"}).match(conv)
    assert not is_conv2d.has_attr({"RandomAttr": "NCHW"}).match(conv)  # missing key
    assert not is_conv2d.has_attr({"strides": [2, 2]}).match(conv)  # default (1, 1)
    assert not is_conv2d.has_attr({"padding": [1, 1]}).match(
        relay.nn.conv2d(x, w, padding=(1, 1))  # stored as 4 values, as in TVM
    )
    # A var has no attributes.
    assert not has_attr({"data_layout": "NCHW"}).match(x)


def test_match_call_attr_dtype() -> None:
    x = var("x", (2, 2), "int32")
    is_cast = is_op("cast")(wildcard()).has_attr({"dtype": "float32"})
    assert is_cast.match(relay.cast(x, "float32"))
    assert not is_cast.match(relay.cast(x, "float16"))


def test_attrs_on_the_callee() -> None:
    """`is_op(...).has_attr(...)` as the callee of a call pattern."""
    x, w, _ = conv_inputs()
    nhwc = is_op("nn.conv2d").has_attr({"data_layout": "NHWC"})(wildcard(), wildcard())
    nchw = is_op("nn.conv2d").has_attr({"data_layout": "NCHW"})(wildcard(), wildcard())
    conv = relay.nn.conv2d(x, w)
    assert nchw.match(conv)
    assert not nhwc.match(conv)


def test_match_diamond() -> None:
    is_conv2d = is_op("nn.conv2d")(wildcard(), wildcard())
    path1 = is_op("nn.relu")(is_conv2d)
    path2 = is_op("nn.leaky_relu")(is_conv2d)
    diamond = is_op("add")(path1, path2)

    x, w, _ = conv_inputs()
    conv2d = relay.nn.conv2d(x, w)
    relu = relay.nn.relu(conv2d)
    leaky_relu = relay.nn.leaky_relu(conv2d, alpha=0)
    assert diamond.match(relu + leaky_relu)
    assert diamond.match(leaky_relu + relu)  # add is commutative
    assert not diamond.match(leaky_relu)
    assert not diamond.match(relu)


def test_match_fake_diamond() -> None:
    """The reused conv2d pattern must bind one conv2d: two different ones do not match."""
    is_conv2d = is_op("nn.conv2d")(wildcard(), wildcard())
    diamond = is_op("add")(is_op("nn.relu")(is_conv2d), is_op("nn.leaky_relu")(is_conv2d))
    x1, w1, _ = conv_inputs()
    x2, w2 = var("x2", (1, 3, 8, 8)), var("w2", (4, 3, 3, 3))
    relu = relay.nn.relu(relay.nn.conv2d(x1, w1))
    leaky_relu = relay.nn.leaky_relu(relay.nn.conv2d(x2, w2), alpha=0)
    assert not diamond.match(relu + leaky_relu)


def test_not_fuse_multi_diamond() -> None:
    is_conv2d = is_op("nn.conv2d")(wildcard(), wildcard())
    diamond = is_op("add")(is_op("nn.relu")(is_conv2d), is_op("nn.leaky_relu")(is_conv2d))
    x, w, _ = conv_inputs()
    conv2d = relay.nn.conv2d(x, w)
    out = relay.nn.relu(conv2d) + relay.nn.leaky_relu(conv2d, alpha=0)
    assert not diamond.match(out + conv2d)


# --------------------------------------------------------------------------- #
# Reused patterns bind one value
# --------------------------------------------------------------------------- #


def test_reused_wildcards_bind_the_same_value() -> None:
    x, y, z = var("x"), var("y"), var("z")
    a, b = wildcard(), wildcard()
    pattern = (a + b) * (a - b)
    assert pattern.match((x + y) * (x - y))
    assert not pattern.match((x + y) * (x - z))
    assert not pattern.match((x + y) * (y - x))
    # multiply is commutative: its operands are tried swapped when the order fails.
    assert pattern.match((x - y) * (x + y))
    # The matcher is greedy, as TVM's: `y + x` matches first with a = y, b = x and
    # is not retried swapped when `x - y` then fails to match `a - b`.
    assert not pattern.match((y + x) * (x - y))


def test_reused_call_pattern() -> None:
    """TVM's add_add_add pattern: `x` and the inner add each used twice."""
    a, b = wildcard(), wildcard()
    inner = is_op("add")(a, b)
    pattern = is_op("add")(is_op("add")(a, inner), inner)
    x, y = var("x"), var("y")
    s = x + y
    assert pattern.match((x + s) + s)
    assert not pattern.match((x + s) + (x + y))  # two different inner adds


def test_a_failed_alternative_binds_nothing() -> None:
    """The left side binds `a` before it fails; the right side is matched afresh."""
    a = wildcard()
    left = is_op("add")(a, is_op("exp")(a))
    right = is_op("add")(a, wildcard())
    x, y = var("x"), var("y")
    assert (left | right).match(x + relay.exp(y))
    state = (left | right).match_state(as_value(x + relay.exp(y)))
    assert state is not None
    assert [v.name_hint for v in state.inputs] == ["x", None]


# --------------------------------------------------------------------------- #
# Matching IR values
# --------------------------------------------------------------------------- #

PARSED = """
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %c = relay.constant dense<1.0> : tensor<4xf32>
  %conv = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %bias = relay.nn.bias_add %conv, %b : (tensor<1x4x6x6xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %relu = relay.nn.relu %bias : tensor<1x4x6x6xf32>
  %cb = relay.nn.bias_add %relu, %c : (tensor<1x4x6x6xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  func.return %cb : tensor<1x4x6x6xf32>
}
"""


def test_match_on_ir_values_ops_and_views() -> None:
    v = ir_values(PARSED)
    conv_bias_relu = is_op("nn.relu")(
        is_op("nn.bias_add")(is_op("nn.conv2d")(is_var("x"), is_var("w")), is_var("b"))
    )
    relu = v["relu"]
    assert isinstance(relu, OpResult)
    assert conv_bias_relu.match(relu)
    assert conv_bias_relu.match(relu.op)
    assert conv_bias_relu.match(ExprView(relu))
    assert not conv_bias_relu.match(v["bias"])
    # is_var by name: a parameter named otherwise does not match.
    assert not is_op("nn.relu")(
        is_op("nn.bias_add")(is_op("nn.conv2d")(is_var("x"), is_var("b")), is_var("b"))
    ).match(relu)
    assert is_var("x").match(v["x"])
    assert not is_var("x").match(v["w"])
    assert is_var().match(v["w"])
    assert not is_var().match(v["conv"])
    # is_constant, is_expr on IR values.
    assert is_op("nn.bias_add")(wildcard(), is_constant()).match(v["cb"])
    assert not is_op("nn.bias_add")(wildcard(), is_constant()).match(v["bias"])
    assert is_op("nn.bias_add")(is_expr(relu), wildcard()).match(v["cb"])
    assert not is_op("nn.bias_add")(is_expr(v["conv"]), wildcard()).match(v["cb"])


def test_is_expr_of_a_constant_matches_equal_constants() -> None:
    """TVM compares an ExprPattern structurally: an equal constant matches, a var only itself."""
    x = var("x")
    zero = is_expr(relay.const(np.zeros((4, 4), "float32")))
    assert (wildcard() + zero).match(x + relay.const(np.zeros((4, 4), "float32")))
    assert not (wildcard() + zero).match(x + relay.const(np.ones((4, 4), "float32")))
    assert not (wildcard() + zero).match(x + relay.const(np.zeros((4,), "float32")))  # type
    v = ir_values(PARSED)
    assert is_expr(v["x"]).match(v["x"])
    assert not is_expr(v["x"]).match(v["w"])


def test_match_does_not_change_the_ir() -> None:
    mod = xrelay.parse(PARSED)
    before = str(mod)
    relu = next(op for op in mod.module.walk() if op.name == "relay.nn.relu")
    assert is_op("nn.relu")(wildcard()).match(relu)
    assert str(mod) == before


# --------------------------------------------------------------------------- #
# What a match extracts (MergeComposite's inputs and embedded constants)
# --------------------------------------------------------------------------- #


def test_match_state_inputs_follow_the_pattern_leaves() -> None:
    """TVM's parameter order: leaves in a post-order walk of the pattern (test_partition_batchnorm)."""
    text = """
func.func @main(%x: tensor<4x4xf32>, %var: tensor<4x4xf32>, %mean: tensor<4x4xf32>, %beta: tensor<4x4xf32>, %gamma: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %eps = relay.constant dense<1.0e-05> : tensor<f32>
  %s = relay.subtract %x, %mean : tensor<4x4xf32>
  %m = relay.multiply %gamma, %s : tensor<4x4xf32>
  %a = relay.add %var, %eps : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %q = relay.sqrt %a : tensor<4x4xf32>
  %d = relay.divide %m, %q : tensor<4x4xf32>
  %r = relay.add %d, %beta : tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
"""
    v = ir_values(text)
    gamma, x, mean, variance, beta = (wildcard() for _ in range(5))
    pattern = gamma * (x - mean) / is_op("sqrt")(variance + is_constant()) + beta
    state = pattern.match_state(v["r"])
    assert state is not None
    assert names(state.inputs) == ["gamma", "x", "mean", "var", "beta"]
    assert names(state.constants) == ["eps"]
    assert names(state.ops) == ["s", "m", "a", "q", "d", "r"]  # producers first
    # A wildcard matching the constant makes it an input instead.
    loose = gamma * (x - mean) / is_op("sqrt")(variance + wildcard()) + beta
    state = loose.match_state(v["r"])
    assert state is not None
    assert names(state.inputs) == ["gamma", "x", "mean", "var", "eps", "beta"]
    assert state.constants == []


def test_match_state_of_commuted_operands_keeps_pattern_order() -> None:
    text = """
func.func @main(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %sum = relay.add %y, %x : tensor<4x4xf32>
  func.return %sum : tensor<4x4xf32>
}
"""
    v = ir_values(text)
    state = is_op("add")(is_var("x"), is_var("y")).match_state(v["sum"])
    assert state is not None
    assert names(state.inputs) == ["x", "y"]


def test_match_state_of_fuzzy_calls_and_tuples() -> None:
    """Operands of a call or tuple matched with any operands are inputs."""
    x, y = var("x"), var("y")
    state = is_tuple_get_item(is_tuple(None), 2).match_state(as_value(relay.Tuple([x, y, x])[2]))
    assert state is not None
    assert names(state.inputs) == ["x", "y", "x"]
    assert len(state.ops) == 2
    state = is_op("concatenate")(None).match_state(as_value(relay.concatenate([y, x], axis=0)))
    assert state is not None
    assert names(state.inputs) == ["y", "x"]
    state = wildcard()(None).match_state(as_value(relay.maximum(y, x)))
    assert state is not None
    assert names(state.inputs) == ["y", "x"]


def test_match_state_is_expr_constant_is_embedded() -> None:
    x = var("x")
    one = relay.const(np.ones((4, 4), "float32"))
    state = (wildcard() + is_expr(one)).match_state(as_value(x + one))
    assert state is not None
    assert names(state.inputs) == ["x"]
    assert len(state.constants) == 1


def test_match_in_a_block_only() -> None:
    """MergeComposite matches within one block: ops of another block do not match."""
    text = """
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %e = relay.exp %x : tensor<4xf32>
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %r = relay.nn.relu %e : tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
"""
    v = ir_values(text)
    relu = v["r"]
    assert isinstance(relu, OpResult)
    pattern = is_op("nn.relu")(is_op("exp")(wildcard()))
    assert pattern.match(relu)
    assert pattern.match_state(relu, relu.op.parent_block()) is None
    assert is_op("nn.relu")(wildcard()).match_state(relu, relu.op.parent_block()) is not None


# --------------------------------------------------------------------------- #
# Bad patterns and inputs
# --------------------------------------------------------------------------- #


def test_unknown_op_name_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"unknown op 'nn.conv2dd' \(did you mean 'nn.conv2d'\?\)"):
        is_op("nn.conv2dd")
    with pytest.raises(ValueError, match="unknown op 'relu'"):
        is_op("relu")
    assert is_op("mydialect.op").op_name == "mydialect.op"  # plugin dialects are accepted


def test_call_pattern_operands_must_be_patterns() -> None:
    with pytest.raises(TypeError, match="must be a pattern, got int"):
        is_op("add")(wildcard(), 1)  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match="must be a pattern, got NoneType"):
        is_op("add")(wildcard(), None)


def test_match_of_something_else_is_an_error() -> None:
    with pytest.raises(TypeError, match="cannot match a str"):
        wildcard().match("x")
    mod = xrelay.parse(
        """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
"""
    )
    ret = next(op for op in mod.module.walk() if op.name == "func.return")
    with pytest.raises(ValueError, match=r"cannot match 'func\.return': it has 0 results"):
        wildcard().match(ret)


def test_pattern_table_entries_are_checked() -> None:
    pattern = is_op("nn.relu")(wildcard())
    entries = pattern_table_entries([("a", pattern), ["b", pattern, lambda e: False]])
    assert [(name, p) for name, p, _ in entries] == [("a", pattern), ("b", pattern)]
    assert entries[0][2](ExprView(as_value(relay.nn.relu(var("x")))))
    with pytest.raises(ValueError, match="entry 0 is not"):
        pattern_table_entries([("a",)])
    with pytest.raises(ValueError, match=r"entry 1: expected \(str, pattern\), got \(str, str\)"):
        pattern_table_entries([("a", pattern), ("b", "relu")])
