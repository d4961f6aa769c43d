"""The Relay-style Python builder, IRModule and the text round trip."""

from __future__ import annotations

import numpy as np
import pytest
from xrelay.dialects.diagnostics import DiagnosticError

import xrelay
from xrelay import IRModule, relay


def test_issue_example_round_trip_and_evaluate() -> None:
    x = relay.var("x", shape=(1, 3, 8, 8), dtype="float32")
    w = relay.const(np.random.default_rng(0).random((4, 3, 3, 3)).astype("float32"))
    conv = relay.nn.conv2d(x, w, padding=(1, 1))
    y = relay.nn.relu(relay.nn.bias_add(conv, relay.const(np.ones(4, "float32"))))
    mod = IRModule.from_expr(relay.Function([x], y))
    text = str(mod)
    assert str(xrelay.parse(text)) == text
    out = xrelay.evaluate(mod, np.ones((1, 3, 8, 8), "float32"))
    assert out.shape == (1, 4, 8, 8)
    assert out.dtype == np.float32
    assert (out >= 0).all()


def test_var_forms() -> None:
    assert str(relay.var("a", shape=(2, 3)).checked_type) == "tensor<2x3xf32>"
    assert str(relay.var("b", relay.TensorType((4,), "int8")).checked_type) == "tensor<4xi8>"
    assert str(relay.var("c", "float16").checked_type) == "tensor<f16>"
    assert str(relay.var("d", shape=(relay.Any(), 3)).checked_type) == "tensor<?x3xf32>"
    assert str(relay.var("e", shape=(None, 3)).checked_type) == "tensor<?x3xf32>"
    tt = relay.TupleType([relay.TensorType((2,)), relay.TensorType((3,), "int32")])
    assert str(relay.var("t", tt).checked_type) == "tuple<tensor<2xf32>, tensor<3xi32>>"


def test_const_dtype_defaults_follow_tvm() -> None:
    assert str(relay.const(1.0).checked_type) == "tensor<f32>"
    assert str(relay.const(1).checked_type) == "tensor<i32>"
    assert str(relay.const(True).checked_type) == "tensor<i1>"
    assert str(relay.const(np.zeros(3, np.float64)).checked_type) == "tensor<3xf32>"
    assert str(relay.const(np.zeros(3, np.int64)).checked_type) == "tensor<3xi32>"
    assert str(relay.const([1, 2], dtype="int64").checked_type) == "tensor<2xi64>"
    assert str(relay.const(np.zeros(2, np.float16)).checked_type) == "tensor<2xf16>"


def test_shape_error_is_raised_eagerly_naming_op_and_shapes() -> None:
    a = relay.var("a", shape=(2, 3))
    b = relay.var("b", shape=(4, 3))
    with pytest.raises(relay.RelayTypeError, match=r"'relay.add'.*\(2, 3\) and \(4, 3\)"):
        relay.add(a, b)
    with pytest.raises(relay.RelayTypeError, match="element types differ"):
        relay.add(a, relay.var("c", shape=(2, 3), dtype="int32"))
    with pytest.raises(relay.RelayTypeError, match="floating-point"):
        relay.exp(relay.var("i", shape=(2,), dtype="int32"))


def test_broadcasting_and_dynamic_types() -> None:
    a = relay.var("a", shape=(relay.Any(), 1, 3))
    b = relay.var("b", shape=(4, 1))
    assert str(relay.add(a, b).checked_type) == "tensor<?x4x3xf32>"
    assert str(relay.less(a, b).checked_type) == "tensor<?x4x3xi1>"


def test_operators_on_expressions() -> None:
    x = relay.var("x", shape=(3,))
    y = (x + 1.0) * 2.0 - x / 4.0
    mod = IRModule.from_expr(relay.Function([x], -y))
    data = np.array([1.0, 2.0, 3.0], "float32")
    np.testing.assert_allclose(xrelay.evaluate(mod, data), -((data + 1) * 2 - data / 4), rtol=1e-6)


def test_from_expr_collects_free_vars_in_order() -> None:
    a = relay.var("a", shape=(2,))
    b = relay.var("b", shape=(2,))
    mod = IRModule.from_expr(relay.subtract(b, a))
    assert [p.name_hint for p in mod["main"].params] == ["b", "a"]


def test_free_variable_is_an_error() -> None:
    a = relay.var("a", shape=(2,))
    b = relay.var("b", shape=(2,))
    with pytest.raises(ValueError, match="free variable '%b'"):
        IRModule.from_expr(relay.Function([a], relay.add(a, b)))


def test_tuples_and_indexing() -> None:
    a = relay.var("a", shape=(2,))
    t = relay.Tuple([a, relay.exp(a)])
    assert str(t.checked_type) == "tuple<tensor<2xf32>, tensor<2xf32>>"
    mod = IRModule.from_expr(relay.Function([a], relay.Tuple([t[1], relay.TupleGetItem(t, 0)])))
    data = np.array([0.0, 1.0], "float32")
    first, second = xrelay.evaluate(mod, data)
    np.testing.assert_allclose(first, np.exp(data), rtol=1e-6)
    np.testing.assert_array_equal(second, data)
    with pytest.raises(relay.RelayTypeError, match="index 2 is out of range"):
        relay.TupleGetItem(t, 2)
    with pytest.raises(TypeError, match="cannot index"):
        a[0]


def test_if_builds_regions_and_evaluates_one_branch() -> None:
    x = relay.var("x", shape=(2,))
    c = relay.var("c", "bool")
    shared = relay.exp(x)
    body = relay.If(c, relay.add(shared, x), relay.negative(shared))
    mod = IRModule.from_expr(relay.Function([c, x], relay.multiply(body, shared)))
    text = str(mod)
    assert "relay.if %c : tensor<i1> -> tensor<2xf32>" in text
    assert str(xrelay.parse(text)) == text
    data = np.array([0.5, -1.0], "float32")
    on = xrelay.evaluate(mod, np.array(True), data)
    off = xrelay.evaluate(mod, np.array(False), data)
    np.testing.assert_allclose(on, (np.exp(data) + data) * np.exp(data), rtol=1e-6)
    np.testing.assert_allclose(off, -np.exp(data) * np.exp(data), rtol=1e-6)
    with pytest.raises(relay.RelayTypeError, match="branches have different types"):
        relay.If(c, x, relay.var("z", shape=(3,)))
    with pytest.raises(relay.RelayTypeError, match="condition must be tensor<i1>"):
        relay.If(x, x, x)


def test_global_functions_calls_and_recursion() -> None:
    # fact(n) = n <= 1 ? 1 : n * fact(n - 1), on a scalar int32
    n = relay.var("n", "int32")
    fact = relay.GlobalVar(
        "fact", relay.FuncType([relay.TensorType((), "int32")], relay.TensorType((), "int32"))
    )
    one = relay.const(1, "int32")
    body = relay.If(relay.less_equal(n, one), one, relay.multiply(n, fact(relay.subtract(n, one))))
    mod = IRModule({fact: relay.Function([n], body)})
    m = relay.var("m", "int32")
    mod["main"] = relay.Function([m], relay.add(mod.get_global_var("fact")(m), one))
    text = str(mod)
    assert "func.call @fact" in text
    assert str(xrelay.parse(text)) == text
    assert int(xrelay.evaluate(mod, np.array(5, np.int32))) == 121
    assert sorted(mod.functions) == ["fact", "main"]


def test_call_of_untyped_global_var_is_typed_by_the_module() -> None:
    """As in TVM: the call waits until its caller joins a module that has @g."""
    x = relay.var("x", shape=(1,))
    call = relay.GlobalVar("g")(x)
    with pytest.raises(relay.RelayTypeError, match="type of @g is unknown: the module has no"):
        IRModule.from_expr(relay.Function([x], call))
    a = relay.var("a", shape=(1,))
    mod = IRModule({"g": relay.Function([a], relay.exp(a)), "main": relay.Function([x], call)})
    assert "func.call @g(%x) : (tensor<1xf32>) -> tensor<1xf32>" in str(mod)


def test_function_attrs_and_rebuilding_from_module() -> None:
    x = relay.var("x", shape=(2,))
    f = (
        relay.Function([x], relay.nn.relu(x))
        .with_attr("Compiler", "accel")
        .with_attr("Primitive", 1)
    )
    mod = IRModule({"f": f})
    text = str(mod)
    assert 'attributes {Compiler = "accel", Primitive = 1 : i32}' in text
    g = mod["f"]
    assert g.attrs == {"Compiler": "accel", "Primitive": 1}
    assert g.op is not None
    assert g.op.sym_name.data == "f"
    # A TVM-style rewrite: reuse params and body of an existing function.
    mod["main"] = relay.Function(g.params, relay.exp(g.body))
    out = xrelay.evaluate(mod, np.array([-1.0, 2.0], "float32"))
    np.testing.assert_allclose(out, np.exp([0.0, 2.0]), rtol=1e-6)


def test_module_update_and_clone() -> None:
    x = relay.var("x", shape=(2,))
    a = IRModule({"main": relay.Function([x], relay.exp(x))})
    y = relay.var("y", shape=(2,))
    b = IRModule({"helper": relay.Function([y], relay.negative(y))})
    a.update(b)
    assert "helper" in a
    c = a.clone()
    c["helper"] = relay.Function([y], relay.abs(y))
    assert "relay.negative" in str(a)
    assert "relay.abs" in str(c)
    with pytest.raises(KeyError, match="no function 'nope'"):
        a["nope"]


def test_parse_errors_are_located() -> None:
    text = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %b = relay.bogus %a\n}\n"
    with pytest.raises(DiagnosticError) as info:
        xrelay.parse(text, "m.mlir")
    assert str(info.value).startswith("m.mlir:2:")
    assert "relay.bogus" in str(info.value)


def test_verifier_errors_are_located() -> None:
    text = (
        "func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {\n"
        "  %c = relay.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n"
        "  func.return %c : tensor<2xf32>\n"
        "}\n"
    )
    with pytest.raises(DiagnosticError) as info:
        xrelay.parse(text, "m.mlir")
    assert str(info.value) == (
        "m.mlir:2:8: error: 'relay.add' op operand shapes (2) and (3) do not broadcast"
    )


def test_wrong_result_type_is_reported() -> None:
    text = (
        "func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n"
        "  %c = relay.exp %a : (tensor<2xf32>) -> tensor<3xf32>\n"
        "  func.return %c : tensor<3xf32>\n"
        "}\n"
    )
    with pytest.raises(DiagnosticError, match=r"m.mlir:2:8: error: 'relay.exp' op inferred type"):
        xrelay.parse(text, "m.mlir")


def test_generic_form_round_trips() -> None:
    x = relay.var("x", shape=(2, 2))
    mod = IRModule.from_expr(relay.clip(relay.cast(x, "float16"), -1.0, 1.5))
    generic = mod.astext(generic=True)
    assert '"relay.clip"' in generic
    assert str(xrelay.parse(generic)) == str(mod)


def test_large_constant_round_trips_through_bytes() -> None:
    data = np.random.default_rng(1).standard_normal((64, 64, 3, 3)).astype("float32")
    x = relay.var("x", shape=(64, 64, 3, 3))
    mod = IRModule.from_expr(relay.add(x, relay.const(data)))
    again = xrelay.parse(str(mod))
    zeros = np.zeros_like(data)
    np.testing.assert_array_equal(xrelay.evaluate(again, zeros), data)


def test_lexer_errors_are_located_diagnostics() -> None:
    with pytest.raises(DiagnosticError, match=r"^z.mlir:1:1: error: "):
        xrelay.parse("\x00", "z.mlir")


def test_blank_input_is_an_empty_module() -> None:
    assert str(xrelay.parse("// only a comment\n\n")) == "builtin.module {\n}\n"


def test_module_level_errors_are_located() -> None:
    text = "func.func @f() {\n  func.return\n}\nfunc.func @f() {\n  func.return\n}\n"
    with pytest.raises(DiagnosticError, match=r'^d.mlir:1:1: error: .*Redefinition of symbol "f"'):
        xrelay.parse(text, "d.mlir")
