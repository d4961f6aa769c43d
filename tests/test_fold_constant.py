"""FoldConstant: TVM's test_pass_fold_constant.py cases ported, plus dtypes, the size bound,
tuples, fused functions and the ops that must stay.

Each case compares the rewritten graph with one built with the builder (both
re-emitted in the builder's order, so only the graph counts, as with TVM's
structural equality, and checked to hold no op besides it) and the numerics
before and after on seeded random inputs.
"""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import run_and_check
from testlib.pass_helpers import assert_graph_equal
from xrelay.dialects.parser import make_context, parse_module
from xrelay.passes.fold_constant import (
    DEFAULT_MAX_ELEMENTS,
    MAX_ELEMENTS_KEY,
    FoldConstant,
    FoldConstantPass,
)

import xrelay
from xrelay import IRModule, relay, transform

C_DATA = np.array([1, 2, 3], dtype="float32")


def module(params: list[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(params, body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def fold(mod: IRModule) -> IRModule:
    return run_and_check(mod, FoldConstant())


# --------------------------------------------------------------------------- #
# TVM's cases
# --------------------------------------------------------------------------- #


def test_fold_const() -> None:
    """`x + (c+c)*2 + c` -> `x + const([4,8,12]) + c` (TVM runs it under a cuda target:
    folding evaluates on the host either way)."""
    t = relay.TensorType([1, 2, 3], "float32")

    def before() -> IRModule:
        c = relay.const(C_DATA)
        x = relay.var("x", t)
        y = relay.add(c, c)
        y = relay.multiply(y, relay.const(2, "float32"))
        y = relay.add(x, y)
        return module([x], relay.add(y, c))

    def expected() -> IRModule:
        x = relay.var("x", t)
        c_folded = (C_DATA + C_DATA) * 2
        y = relay.add(x, relay.const(c_folded))
        return module([x], relay.add(y, relay.const(C_DATA)))

    out = fold(before())
    assert_graph_equal(out, expected())
    assert count(out, "relay.constant") == 2


def test_fold_tuple() -> None:
    """`(x, c).1 + c` folds; `(x, c).0` is `x`."""
    t = relay.TensorType([1, 2, 3], "float32")

    def before() -> IRModule:
        c = relay.const(C_DATA)
        x = relay.var("x", t)
        y = relay.Tuple([x, c])
        z = relay.add(y[1], c)
        return module([x], relay.add(z, y[0]))

    def expected() -> IRModule:
        x = relay.var("x", t)
        return module([x], relay.add(relay.const(C_DATA + C_DATA), x))

    out = fold(before())
    assert_graph_equal(out, expected())
    assert count(out, "relay.tuple") == 0


def test_fold_concat() -> None:
    c_data = np.array([[1, 2, 3]], dtype="float32")
    a, b = relay.const(c_data), relay.const(c_data)
    before = module([], relay.concatenate((a, b), axis=0))
    expected = module([], relay.const(np.concatenate((c_data, c_data), axis=0)))
    assert_graph_equal(fold(before), expected)


@pytest.mark.parametrize("cond", [True, False])
def test_fold_if(cond: bool) -> None:
    """A constant condition picks its branch, which then folds."""
    x_data = np.array([[1, 2, 3]], dtype="float32")
    a = relay.const(np.array(cond))
    x, y = relay.const(x_data), relay.const(x_data)
    before = module([], relay.If(a, x + y, x - y))
    y_data = x_data + x_data if cond else x_data - x_data
    assert_graph_equal(fold(before), module([], relay.const(y_data)))


def test_fold_if_keeps_the_taken_branch_when_it_reads_parameters() -> None:
    p = relay.var("p", shape=(4,))
    cond = relay.less(relay.const(1, "int32"), relay.const(2, "int32"))
    before = module([p], relay.If(cond, relay.exp(p), relay.nn.relu(p)))
    out = fold(before)
    p2 = relay.var("p", shape=(4,))
    assert_graph_equal(out, module([p2], relay.exp(p2)))
    assert count(out, "relay.nn.relu") == 0


def test_fold_dropout() -> None:
    """A constant graph with dropout is not folded (dropout is non-computational)."""
    data = relay.const(np.arange(10).astype(np.float32))
    dropout = relay.nn.dropout(data)
    before = module([], dropout + relay.const(1.0))
    out = fold(before.clone())
    assert str(out) == str(before)


# --------------------------------------------------------------------------- #
# Beyond TVM's file: shapes, dtypes, tuples, what stays
# --------------------------------------------------------------------------- #


def test_fold_shape_changing_ops() -> None:
    data = np.arange(6, dtype="float32").reshape(2, 3)
    y = relay.transpose(relay.const(data))
    y = relay.reshape(y, (-1,))
    y = relay.reshape(y, (3, 2))
    x = relay.var("x", shape=(3, 2))
    out = fold(module([x], relay.add(x, y)))
    x2 = relay.var("x", shape=(3, 2))
    assert_graph_equal(out, module([x2], relay.add(x2, relay.const(data.T.copy()))))


@pytest.mark.parametrize("dtype", ["int32", "int64", "int8", "uint8"])
def test_fold_integer_dtypes(dtype: str) -> None:
    a = np.array([7, 9, 100], dtype=dtype)
    b = np.array([2, 4, 3], dtype=dtype)
    y = relay.add(relay.divide(relay.const(a, dtype), relay.const(b, dtype)), relay.const(b, dtype))
    x = relay.var("x", shape=(3,), dtype=dtype)
    out = fold(module([x], relay.multiply(x, y)))
    folded = (a // b + b).astype(dtype)
    x2 = relay.var("x", shape=(3,), dtype=dtype)
    assert_graph_equal(out, module([x2], relay.multiply(x2, relay.const(folded, dtype))))


def test_fold_integer_division_truncates_like_tvm() -> None:
    y = relay.divide(relay.const(np.array([7, -7], "int32")), relay.const(np.array(2, "int32")))
    out = fold(module([], y))
    assert_graph_equal(out, module([], relay.const(np.array([3, -3], "int32"))))


def test_fold_bool() -> None:
    a = relay.const(np.array([1, 5, 3], "int32"))
    b = relay.const(np.array([2, 5, 1], "int32"))
    x = relay.var("x", shape=(3,), dtype="bool")
    out = fold(module([x], relay.equal(relay.less_equal(a, b), x)))
    x2 = relay.var("x", shape=(3,), dtype="bool")
    expected = relay.equal(relay.const(np.array([True, True, False])), x2)
    assert_graph_equal(out, module([x2], expected))
    assert "dense<[true, true, false]> : tensor<3xi1>" in str(out)


def test_fold_cast() -> None:
    y = relay.cast(relay.const(np.array([1.5, -2.5], "float32")), "int8")
    x = relay.var("x", shape=(2,), dtype="int8")
    out = fold(module([x], relay.add(x, y)))
    x2 = relay.var("x", shape=(2,), dtype="int8")
    assert_graph_equal(out, module([x2], relay.add(x2, relay.const(np.array([1, -2], "int8")))))


def test_fold_tuple_result_becomes_a_tuple_of_constants() -> None:
    c = relay.const(np.arange(4, dtype="float32"))
    parts = relay.split(c, 2)
    x = relay.var("x", shape=(2,))
    out = fold(module([x], relay.Tuple([relay.add(x, parts[1]), parts.astuple()])))
    assert count(out, "relay.split") == 0
    x2 = relay.var("x", shape=(2,))
    lo = relay.const(np.array([0, 1], "float32"))
    hi = relay.const(np.array([2, 3], "float32"))
    assert_graph_equal(out, module([x2], relay.Tuple([relay.add(x2, hi), relay.Tuple([lo, hi])])))


def test_ops_with_no_operands_stay() -> None:
    """TVM: `ones(4, 5)` is not folded (a constant would only grow the module)."""
    before = module([], relay.add(relay.zeros((4, 5), "float32"), relay.const(1.0)))
    out = fold(before.clone())
    assert str(out) == str(before)


def test_ops_on_parameters_and_calls_stay() -> None:
    x = relay.var("x", shape=(2,))
    c = relay.const(np.array([1, 2], "float32"))
    before = module([x], relay.add(relay.exp(x), c))
    out = fold(before.clone())
    assert str(out) == str(before)


def test_interpreter_failure_keeps_the_op() -> None:
    data = relay.const(np.array([1, 2], "float32"))
    indices = relay.const(np.array([5], "int32"))
    before = module([], relay.take(data, indices, axis=0, mode="fast"))
    with transform.PassContext(opt_level=3):
        out = FoldConstant()(before.clone())
    assert str(out) == str(before)


def test_primitive_function_is_left_alone() -> None:
    c = relay.const(np.array([1, 2], "float32"))
    fused = relay.Function([], relay.Tuple([relay.add(c, c)])[0]).with_attr("Primitive", 1)
    before = IRModule({"fused": fused})
    out = FoldConstant()(before.clone())
    assert str(out) == str(before)
    assert count(out, "relay.add") == 1
    # Without the attribute the same function folds to one constant.
    plain = FoldConstant()(IRModule({"plain": relay.Function([], relay.add(c, c))}))
    assert count(plain, "relay.add") == 0


def test_partitioned_function_is_skipped() -> None:
    c = relay.const(np.array([1, 2], "float32"))
    ext = relay.Function([], relay.add(c, c)).with_attr("Compiler", "accel")
    before = IRModule({"ext": ext})
    assert str(FoldConstant()(before.clone())) == str(before)


def test_ops_in_branches_of_a_live_if_fold() -> None:
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,))
    one = relay.const(np.array([1, 1], "float32"))
    out = fold(module([c, x], relay.If(c, relay.add(one, one), x)))
    c2 = relay.var("c", shape=(), dtype="bool")
    x2 = relay.var("x", shape=(2,))
    expected = relay.If(c2, relay.const(np.array([2, 2], "float32")), x2)
    assert_graph_equal(out, module([c2, x2], expected))


# --------------------------------------------------------------------------- #
# The size bound
# --------------------------------------------------------------------------- #


def broadcast_module() -> IRModule:
    """A 3-element add, then a broadcast of it to 2x3 (6 elements)."""
    rows = relay.const(np.ones((2, 3), "float32"))
    s = relay.add(relay.const(C_DATA), relay.const(1.0))
    return module([], relay.add(rows, s))


def test_max_elements_is_a_registered_config_option() -> None:
    option = transform.PassContext.list_configs()[MAX_ELEMENTS_KEY]
    assert option["type"] == "IntImm"
    assert option["default"] == DEFAULT_MAX_ELEMENTS == 1 << 24


@pytest.mark.parametrize(
    ("bound", "adds_left"), [(None, 0), (6, 0), (5, 1), (2, 2), (0, 2), (-1, 0)]
)
def test_max_elements_bounds_the_folded_result(bound: int | None, adds_left: int) -> None:
    config = {} if bound is None else {MAX_ELEMENTS_KEY: bound}
    before = broadcast_module()
    with transform.PassContext(opt_level=3, config=config):
        out = transform.Sequential([FoldConstant()])(before.clone())
    assert count(out, "relay.add") == adds_left
    assert np.array_equal(xrelay.evaluate(out), xrelay.evaluate(before))


def test_max_elements_must_be_an_int() -> None:
    with pytest.raises(AttributeError, match=MAX_ELEMENTS_KEY.replace(".", r"\.")):
        transform.PassContext(config={MAX_ELEMENTS_KEY: "big"})


# --------------------------------------------------------------------------- #
# The pass itself
# --------------------------------------------------------------------------- #


def test_pass_info_and_names() -> None:
    p = FoldConstant()
    assert p.info.name == "FoldConstant"
    assert p.info.opt_level == 2
    assert p.info.required == ()
    assert p.kind == "function"
    assert FoldConstantPass.name == "fold-constant"
    assert transform.get_pass("fold-constant").info.name == "FoldConstant"
    assert transform.get_pass("FoldConstant").info.opt_level == 2
    assert FoldConstant(fold_qnn=True).pipeline_spec() == "fold-constant{fold_qnn=true}"


def test_gated_by_opt_level_in_a_sequential() -> None:
    before = broadcast_module()
    with transform.PassContext(opt_level=1):
        out = transform.Sequential([FoldConstant()])(before.clone())
    assert str(out) == str(before)
    with transform.PassContext(opt_level=2):
        out = transform.Sequential([FoldConstant()])(before.clone())
    assert count(out, "relay.add") == 0


def test_text_with_unregistered_ops_is_kept() -> None:
    text = """
    func.func @main() -> tensor<2xf32> {
      %c = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %u = "test.op"(%c) : (tensor<2xf32>) -> tensor<2xf32>
      %a = relay.add %u, %c : tensor<2xf32>
      %b = relay.add %c, %c : tensor<2xf32>
      %r = relay.add %a, %b : tensor<2xf32>
      func.return %r : tensor<2xf32>
    }
    """
    mod = IRModule(module=parse_module(text, ctx=make_context(allow_unregistered=True)))
    out = FoldConstant()(mod)
    assert str(out).count('"test.op"') == 1
    assert count(out, "relay.add") == 2  # only %b folds
    assert "dense<[2.000000e+00, 4.000000e+00]>" in str(out)


def test_a_long_constant_chain_folds_in_linear_time() -> None:
    """5,000 dependent ops on constants fold to one constant (a quadratic pass would crawl)."""
    y = relay.const(np.zeros(4, "float32"))
    one = relay.const(np.ones(4, "float32"))
    for _ in range(5000):
        y = relay.add(y, one)
    x = relay.var("x", shape=(4,))
    out = FoldConstant()(module([x], relay.multiply(x, y)))
    assert count(out, "relay.add") == 0
    assert count(out, "relay.constant") == 1
    assert "dense<5.000000e+03>" in str(out)


def test_only_a_nonzero_primitive_marks_a_fused_function() -> None:
    """TVM's `HasNonzeroAttr(kPrimitive)`: `Primitive = 0` folds like any function."""
    c = relay.const(np.array([1, 2], "float32"))
    mod = IRModule({"f": relay.Function([], relay.add(c, c)).with_attr("Primitive", 0)})
    assert count(FoldConstant()(mod), "relay.add") == 0
