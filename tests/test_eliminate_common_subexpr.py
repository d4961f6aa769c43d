"""EliminateCommonSubexpr: TVM's test_pass_eliminate_common_subexpr.py ported, plus negatives.

Each case checks the rewritten IR against a module built with the builder, and
the numerics before and after on seeded random inputs.
"""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xdsl.utils.arg_spec import parse_spec
from xrelay.passes.eliminate_common_subexpr import (
    EliminateCommonSubexpr,
    EliminateCommonSubexprPass,
)
from xrelay.tools.specs import SpecError, instantiate, option_infos

from xrelay import IRModule, relay, transform


def module(params: list[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(params, body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def relu_plus_one_twice() -> IRModule:
    """TVM's before(): `relu(x) + 1.0` twice, each with its own relu and constant."""
    x = relay.var("x", shape=(1, 16))
    y1 = relay.nn.relu(x)
    y2 = relay.nn.relu(x)
    y1 = relay.add(y1, relay.const(1.0, "float32"))
    y2 = relay.add(y2, relay.const(1.0, "float32"))
    return module([x], relay.add(y1, y2))


def test_simple() -> None:
    before = relu_plus_one_twice()
    assert count(before, "relay.nn.relu") == 2
    assert count(before, "relay.constant") == 2
    out = run_and_check(before, EliminateCommonSubexpr())

    x = relay.var("x", shape=(1, 16))
    y = relay.nn.relu(x)
    y = relay.add(y, relay.const(1.0, "float32"))
    expected = module([x], relay.add(y, y))
    assert str(out) == str(expected)


def test_callback() -> None:
    """fskip on add: the adds stay duplicated, the relus (and the constants) merge."""
    skipped: list[str] = []

    def fskip(expr: relay.Call) -> bool:
        # TVM's callback: a relay.Call with TVM's op name, its attributes and type
        assert isinstance(expr, relay.Call)
        if expr.op.name == "add":
            assert str(expr.checked_type) == "tensor<1x16xf32>"
            skipped.append(expr.op.name)
            return True
        return False

    out = run_and_check(relu_plus_one_twice(), EliminateCommonSubexpr(fskip))
    assert skipped == ["add"] * 3

    x = relay.var("x", shape=(1, 16))
    y = relay.nn.relu(x)
    one = relay.const(1.0, "float32")
    y1 = relay.add(y, one)
    y2 = relay.add(y, one)
    expected = module([x], relay.add(y1, y2))
    assert str(out) == str(expected)


def test_tuple_get_time() -> None:
    """`BN[0]` twice is one tuple_get_item."""

    def params() -> list[relay.Var]:
        x = relay.var("x", shape=(1, 16, 1, 1))
        return [x, *(relay.var(n, shape=(16,)) for n in ("var", "mean", "beta", "gamma"))]

    x, var, mean, beta, gamma = params()
    # |var|: random inputs may be negative, and sqrt of a negative is NaN on both sides.
    bn = relay.nn.batch_norm(x, gamma, beta, mean, relay.abs(var), epsilon=1e-5)
    before = module([x, var, mean, beta, gamma], bn[0] + bn[0])
    assert count(before, "relay.tuple_get_item") == 2
    out = run_and_check(before, EliminateCommonSubexpr())

    x, var, mean, beta, gamma = params()
    bn = relay.nn.batch_norm(x, gamma, beta, mean, relay.abs(var), epsilon=1e-5)
    t1 = bn[0]
    expected = module([x, var, mean, beta, gamma], t1 + t1)
    assert str(out) == str(expected)


def test_tuple_arg() -> None:
    """concatenate over fields that become the same values merges too."""
    x = relay.var("x", shape=(1, 16))
    y1 = relay.nn.relu(x)
    y2 = relay.nn.relu(x)
    y1 = relay.add(y1, relay.const(1.0, "float32"))
    y2 = relay.add(y2, relay.const(1.0, "float32"))
    c0 = relay.const(np.ones((1, 16)), "float32")
    y1 = relay.concatenate([y1, c0], axis=0)
    y2 = relay.concatenate([y2, c0], axis=0)
    out = run_and_check(module([x], relay.add(y1, y2)), EliminateCommonSubexpr())

    x = relay.var("x", shape=(1, 16))
    y = relay.nn.relu(x)
    y = relay.add(y, relay.const(1.0, "float32"))
    c0 = relay.const(np.ones((1, 16)), "float32")
    y = relay.concatenate([y, c0], axis=0)
    assert str(out) == str(module([x], relay.add(y, y)))


def test_tuple_with_equal_fields() -> None:
    """Two relay.Tuple over the same fields are one tuple; their items merge."""
    a = relay.var("a", shape=(4,))
    b = relay.var("b", shape=(4,))
    before = module([a, b], relay.Tuple([a, b])[1] * relay.Tuple([a, b])[1])
    out = run_and_check(before, EliminateCommonSubexpr())

    a = relay.var("a", shape=(4,))
    b = relay.var("b", shape=(4,))
    item = relay.Tuple([a, b])[1]
    assert str(out) == str(module([a, b], item * item))


def test_equal_tensor_constants() -> None:
    """Equal constants of any shape merge (TVM: scalars only); a different value does not."""
    x = relay.var("x", shape=(2, 3))
    data = np.arange(6, dtype="float32").reshape(2, 3)
    y = relay.multiply(x, relay.const(data)) + relay.multiply(x, relay.const(data.copy()))
    before = module([x], y + relay.const(data + 1))
    out = run_and_check(before, EliminateCommonSubexpr())
    assert count(out, "relay.constant") == 2
    assert count(out, "relay.multiply") == 1


def test_keep_different_attributes() -> None:
    x = relay.var("x", shape=(4,))
    before = module([x], relay.clip(x, 0.0, 1.0) + relay.clip(x, 0.0, 2.0))
    out = run_and_check(before, EliminateCommonSubexpr())
    assert str(out) == str(before)


def test_keep_different_operand_order() -> None:
    a = relay.var("a", shape=(4,))
    b = relay.var("b", shape=(4,))
    before = module([a, b], relay.subtract(a, b) * relay.subtract(b, a))
    out = run_and_check(before, EliminateCommonSubexpr())
    assert str(out) == str(before)


def test_keep_ops_in_different_branches() -> None:
    """exp(x) in each branch of an if, and once after it: none may reuse another."""
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(4,))
    branchy = relay.If(c, relay.exp(x), relay.exp(x) * 2.0)
    before = module([c, x], branchy + relay.exp(x))
    assert count(before, "relay.exp") == 3
    out = run_and_check(before, EliminateCommonSubexpr())
    assert str(out) == str(before)


def test_branch_reuses_value_before_if() -> None:
    """An op inside a branch reuses the equal op computed before the if (dominance)."""
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(4,))
    e = relay.exp(x)
    before = module([c, x], relay.add(e, relay.If(c, relay.exp(x) * 2.0, x)))
    assert count(before, "relay.exp") == 2
    out = run_and_check(before, EliminateCommonSubexpr())
    assert count(out, "relay.exp") == 1

    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(4,))
    e = relay.exp(x)
    assert str(out) == str(module([c, x], relay.add(e, relay.If(c, e * 2.0, x))))


def test_keep_annotations() -> None:
    """Ops with effects (BYOC annotations) are never merged."""
    text = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  %1 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
"""
    from xrelay import parse

    before = parse(text)
    out = run_and_check(before, EliminateCommonSubexpr())
    assert count(out, "relay.compiler_begin") == 2


def test_pass_info_and_gating() -> None:
    pass_ = EliminateCommonSubexpr()
    assert pass_.info.name == "EliminateCommonSubexpr"
    assert pass_.info.opt_level == 3
    assert transform.get_pass("eliminate-common-subexpr").info.name == "EliminateCommonSubexpr"
    mod = relu_plus_one_twice()
    with transform.PassContext(opt_level=2):
        out = transform.Sequential([EliminateCommonSubexpr()])(mod.clone())
    assert count(out, "relay.nn.relu") == 2  # opt_level 3 pass skipped at level 2
    with transform.PassContext(opt_level=3):
        out = transform.Sequential([EliminateCommonSubexpr()])(mod.clone())
    assert count(out, "relay.nn.relu") == 1


def test_fskip_is_not_a_pass_option() -> None:
    """fskip is Python-only: no CLI option, not in the spec, not in --list-passes."""
    assert option_infos(EliminateCommonSubexprPass) == []
    with_skip = EliminateCommonSubexprPass(lambda op: True)
    assert with_skip.fskip is not None
    assert str(with_skip) == "eliminate-common-subexpr"
    rebuilt = EliminateCommonSubexprPass.from_spec(parse_spec("eliminate-common-subexpr"))
    assert rebuilt.fskip is None
    with pytest.raises(SpecError, match="has no option 'fskip'"):
        instantiate(
            "pass", EliminateCommonSubexprPass, parse_spec("eliminate-common-subexpr{fskip=1}")
        )


def test_fskip_skipping_everything_changes_nothing() -> None:
    before = relu_plus_one_twice()
    out = run_and_check(before, EliminateCommonSubexpr(lambda op: True))
    assert str(out) == str(before)
