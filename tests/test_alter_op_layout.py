"""AlterOpLayout: hooks registered by op name replace ops (TVM's FTVMAlterOpLayout).

TVM's basic case (`test_alter_op`: the conv's weight doubled by the hook) and
`test_alter_return_none` are ported; the rest checks what the hook sees, layout
hooks whose transform pairs cancel, the errors, and the registry (levels, the
temporary hook of TVM's `TempOpAttr`). Graphs are compared with modules built
with the builder; numerics with the original module, or with the expected one
where the hook changes what is computed on purpose.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from testlib.numerics import assert_same_numerics, run_and_check
from xdsl.ir import Operation
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.base import get_str
from xrelay.passes.alter_op_layout import (
    AlterOpLayout,
    get_alter_op_layout,
    register_alter_op_layout,
    temp_alter_op_layout,
    unregister_alter_op_layout,
)

from xrelay import IRModule, parse, relay, transform


def module(params: list[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(params, body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def alter(mod: IRModule) -> IRModule:
    with transform.PassContext(opt_level=3):
        out = transform.Sequential([AlterOpLayout()])(mod.clone())
    out.module.verify()
    return out


@pytest.fixture(autouse=True)
def no_hooks() -> Iterator[None]:
    """Each test starts and ends with no hook on the ops it uses."""
    names = ("nn.conv2d", "nn.relu", "nn.global_max_pool2d", "reshape", "exp")
    for name in names:
        unregister_alter_op_layout(name)
    yield
    for name in names:
        unregister_alter_op_layout(name)


def conv_relu(weight_times_two: bool = False) -> IRModule:
    x = relay.var("x", shape=(1, 8, 6, 6))
    weight = relay.var("weight", shape=(8, 8, 3, 3))
    w: relay.Expr = (
        relay.multiply(weight, relay.const(2.0, "float32")) if weight_times_two else weight
    )
    y = relay.nn.conv2d(x, w, channels=8, kernel_size=(3, 3), padding=(1, 1))
    return module([x, weight], relay.nn.relu(y))


def double_weight(op: Operation, inputs: list[relay.Expr]) -> relay.Expr:
    """TVM's `alter_conv2d` of test_alter_op: the same conv on `weight * 2.0`."""
    data, weight = inputs
    weight = relay.multiply(weight, relay.const(2.0, "float32"))
    return relay.Call(type(op), [data, weight], op.properties)


# --------------------------------------------------------------------------- #
# TVM's cases
# --------------------------------------------------------------------------- #


def test_alter_op() -> None:
    """The conv is replaced by what the hook returns: `conv(data, weight * 2.0)`."""
    with temp_alter_op_layout("nn.conv2d", double_weight):
        out = alter(conv_relu())
    assert str(out) == str(conv_relu(weight_times_two=True))
    assert_same_numerics(conv_relu(weight_times_two=True), out)


def test_alter_return_none() -> None:
    """A hook returning None keeps the op; it was called."""
    called: list[str] = []

    def keep(op: Operation, inputs: list[relay.Expr]) -> None:
        called.append(op.name)

    x = relay.var("x", shape=(1, 8, 6, 6))
    before = module([x], relay.nn.global_max_pool2d(x))
    with temp_alter_op_layout("nn.global_max_pool2d", keep):
        out = alter(before)
    assert str(out) == str(before)
    assert called == ["relay.nn.global_max_pool2d"]


# --------------------------------------------------------------------------- #
# The hook and what the pass does with it
# --------------------------------------------------------------------------- #


def test_no_hook_is_a_no_op() -> None:
    before = conv_relu()
    out = run_and_check(before, AlterOpLayout())
    assert str(out) == str(before)


def test_hook_sees_the_op_and_typed_inputs() -> None:
    seen: list[tuple[str, str, list[str], str]] = []

    def record(op: Operation, inputs: list[relay.Expr]) -> None:
        types = [str(i.checked_type) for i in inputs]
        seen.append(
            (op.name, get_str(op.properties, "data_layout"), types, str(op.results[0].type))
        )

    with temp_alter_op_layout("relay.nn.conv2d", record):
        alter(conv_relu())
    assert seen == [
        (
            "relay.nn.conv2d",
            "NCHW",
            ["tensor<1x8x6x6xf32>", "tensor<8x8x3x3xf32>"],
            "tensor<1x8x6x6xf32>",
        )
    ]


def layout_hook(op: Operation, inputs: list[relay.Expr]) -> relay.Expr | None:
    """Run an NCHW/OIHW 3x3 conv as NHWC/HWIO between transforms (a backend's choice)."""
    if get_str(op.properties, "data_layout") != "NCHW":
        return None
    data = relay.layout_transform(inputs[0], "NCHW", "NHWC")
    weight = relay.layout_transform(inputs[1], "OIHW", "HWIO")
    conv = relay.nn.conv2d(data, weight, padding=(1, 1), data_layout="NHWC", kernel_layout="HWIO")
    return relay.layout_transform(conv, "NHWC", "NCHW")


def test_layout_hooks_cancel_transform_pairs_between_replacements() -> None:
    """Two altered convs in a row: the transform back and forth between them cancels."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    w1, w2 = relay.var("w1", shape=(4, 4, 3, 3)), relay.var("w2", shape=(4, 4, 3, 3))
    y = relay.nn.conv2d(relay.nn.conv2d(x, w1, padding=(1, 1)), w2, padding=(1, 1))
    before = module([x, w1, w2], y)
    with temp_alter_op_layout("nn.conv2d", layout_hook):
        out = run_and_check(before, AlterOpLayout())

    xt = relay.layout_transform(x, "NCHW", "NHWC")
    w1t, w2t = (
        relay.layout_transform(w1, "OIHW", "HWIO"),
        relay.layout_transform(w2, "OIHW", "HWIO"),
    )
    y = relay.nn.conv2d(xt, w1t, padding=(1, 1), data_layout="NHWC", kernel_layout="HWIO")
    y = relay.nn.conv2d(y, w2t, padding=(1, 1), data_layout="NHWC", kernel_layout="HWIO")
    expected = module([x, w1, w2], relay.layout_transform(y, "NHWC", "NCHW"))
    assert str(out) == str(expected)


def test_replacement_undoes_a_transform_of_the_graph() -> None:
    """A conv fed by `layout_transform(x, NHWC, NCHW)` and altered to NHWC reads x itself."""
    x = relay.var("x", shape=(1, 6, 6, 4))
    w = relay.var("w", shape=(4, 4, 3, 3))
    before = module(
        [x, w], relay.nn.conv2d(relay.layout_transform(x, "NHWC", "NCHW"), w, padding=1)
    )
    with temp_alter_op_layout("nn.conv2d", layout_hook):
        out = run_and_check(before, AlterOpLayout())
    wt = relay.layout_transform(w, "OIHW", "HWIO")
    y = relay.nn.conv2d(x, wt, padding=(1, 1), data_layout="NHWC", kernel_layout="HWIO")
    assert str(out) == str(module([x, w], relay.layout_transform(y, "NHWC", "NCHW")))


def test_hook_may_return_an_input() -> None:
    """An identity reshape is replaced by its operand."""

    def drop_identity(op: Operation, inputs: list[relay.Expr]) -> relay.Expr | None:
        return inputs[0] if inputs[0].checked_type == op.results[0].type else None

    x = relay.var("x", shape=(2, 3))
    before = module([x], relay.exp(relay.reshape(relay.reshape(x, (3, 2)), (3, 2))))
    with temp_alter_op_layout("reshape", drop_identity):
        out = run_and_check(before, AlterOpLayout())
    assert str(out) == str(module([x], relay.exp(relay.reshape(x, (3, 2)))))


def test_ops_created_by_a_hook_are_not_altered_again() -> None:
    """A hook returning its own op kind runs once per original op (no endless rewriting)."""
    calls: list[int] = []

    def same_op(op: Operation, inputs: list[relay.Expr]) -> relay.Expr:
        calls.append(1)
        return relay.Call(type(op), inputs, op.properties)

    x = relay.var("x", shape=(4,))
    before = module([x], relay.exp(relay.exp(x)))
    with temp_alter_op_layout("exp", same_op):
        out = run_and_check(before, AlterOpLayout())
    assert len(calls) == 2
    assert str(out) == str(before)


def test_ops_in_branches_are_altered_composite_bodies_are_not() -> None:
    text = """
func.func @main(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %1 = relay.exp %x : tensor<4xf32>
    relay.yield %1 : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  %2 = relay.composite "accel.exp" (%0) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>):
    %3 = relay.exp %i : tensor<4xf32>
    relay.yield %3 : tensor<4xf32>
  }
  func.return %2 : tensor<4xf32>
}
"""

    def exp_via_tanh(op: Operation, inputs: list[relay.Expr]) -> relay.Expr:
        return relay.tanh(inputs[0])

    with temp_alter_op_layout("exp", exp_via_tanh):
        out = alter(parse(text))
    assert count(out, "relay.tanh") == 1
    assert count(out, "relay.exp") == 1  # the one in the composite body


def test_external_functions_are_skipped() -> None:
    x = relay.var("x", shape=(4,))
    mod = module([x], relay.exp(x))
    mod["main"] = mod["main"].with_attr("Compiler", "accel")
    with temp_alter_op_layout("exp", lambda op, inputs: relay.tanh(inputs[0])):
        out = alter(mod)
    assert count(out, "relay.exp") == 1


# --------------------------------------------------------------------------- #
# Errors
# --------------------------------------------------------------------------- #


def test_wrong_result_type_is_an_error_naming_op_and_hook() -> None:
    def flatten(op: Operation, inputs: list[relay.Expr]) -> relay.Expr:
        return relay.nn.batch_flatten(relay.nn.relu(inputs[0]))

    before = conv_relu()
    mod = before.clone()
    with temp_alter_op_layout("nn.relu", flatten), pytest.raises(transform.PassError) as info:
        AlterOpLayout()(mod)
    cause = info.value.__cause__
    assert isinstance(cause, DiagnosticError)
    assert str(cause).endswith(
        "'relay.nn.relu' op alter_op_layout hook "
        "'test_wrong_result_type_is_an_error_naming_op_and_hook.<locals>.flatten' returned "
        "tensor<1x288xf32>, expected the op's type tensor<1x8x6x6xf32>"
    )
    assert str(mod) == str(before)  # transactional: left as it was


def test_hook_returning_something_else_is_a_type_error() -> None:
    x = relay.var("x", shape=(4,))
    mod = module([x], relay.exp(x))
    message = "returned float, expected a relay expression"
    with (
        temp_alter_op_layout("exp", lambda op, inputs: 1.0),
        pytest.raises(Exception, match=message),
    ):
        AlterOpLayout()(mod)


def test_hook_reading_a_foreign_variable_is_an_error() -> None:
    y = relay.var("y", shape=(4,))
    with temp_alter_op_layout("exp", lambda op, inputs: relay.add(inputs[0], y)):
        x = relay.var("x", shape=(4,))
        with pytest.raises(transform.PassError, match="free variable '%y'"):
            AlterOpLayout()(module([x], relay.exp(x)))


# --------------------------------------------------------------------------- #
# The registry
# --------------------------------------------------------------------------- #


def test_register_levels_unregister_and_temp() -> None:
    def low(op: Operation, inputs: list[relay.Expr]) -> None:
        return None

    def high(op: Operation, inputs: list[relay.Expr]) -> None:
        return None

    assert register_alter_op_layout("nn.relu", level=5)(low) is low  # the decorator form
    assert get_alter_op_layout("nn.relu") is low
    with pytest.raises(ValueError, match=r"already registered for 'nn\.relu' at level 5"):
        register_alter_op_layout("nn.relu", high, level=5)
    register_alter_op_layout("relay.nn.relu", high, level=20)  # a higher level replaces
    assert get_alter_op_layout("nn.relu") is high
    register_alter_op_layout("nn.relu", low, level=1)  # a lower one is ignored
    assert get_alter_op_layout("nn.relu") is high
    with temp_alter_op_layout("nn.relu", low):
        assert get_alter_op_layout("nn.relu") is low
    assert get_alter_op_layout("nn.relu") is high  # restored
    unregister_alter_op_layout("nn.relu")
    assert get_alter_op_layout("nn.relu") is None
    with temp_alter_op_layout("nn.relu", low):
        pass
    assert get_alter_op_layout("nn.relu") is None


def test_unknown_op_name_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"'nn\.no_such_op' is not a relay op"):
        register_alter_op_layout("nn.no_such_op", lambda op, inputs: None)


def test_pass_info_and_gating() -> None:
    pass_ = AlterOpLayout()
    assert (pass_.info.name, pass_.info.opt_level) == ("AlterOpLayout", 3)
    assert transform.get_pass("alter-op-layout").info.name == "AlterOpLayout"
    with temp_alter_op_layout("nn.conv2d", double_weight):
        with transform.PassContext(opt_level=2):
            out = transform.Sequential([pass_])(conv_relu())
        assert count(out, "relay.multiply") == 0
        with transform.PassContext(opt_level=3):
            out = transform.Sequential([pass_])(conv_relu())
        assert count(out, "relay.multiply") == 1
