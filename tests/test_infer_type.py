"""InferType: every type re-derived from the function parameters down, callees first.

TVM's B.8 catalog has no InferType case; these are the use cases of issue 4:
`?` result dims that verify become static; a Python user retypes a parameter
and the new shapes flow through conv2d/pools/dense, the signature and the
callers; an incompatible parameter is a located error naming the op and the
operand types; well-typed IR is left unchanged (checked with
`testing.immutable_module`). The errors that can be written as text are also
in `tests/filecheck/passes/infer_type_invalid.mlir`.
"""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import assert_same_numerics, run_and_check
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Attribute
from xdsl.rewriter import Rewriter
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.passes import lookup_pass
from xrelay.passes.infer_type import InferType, InferTypePass, join_types
from xrelay.passes.pass_manager import ImmutableModuleError, PassError

import xrelay
from xrelay import IRModule, relay, transform

RNG = np.random.default_rng(7)
CONV_W = RNG.standard_normal((4, 3, 3, 3)).astype("float32")
DENSE_W = RNG.standard_normal((10, 4)).astype("float32")


def network(x: relay.Expr) -> relay.Expr:
    """conv2d -> relu -> max_pool2d -> avg_pool2d -> global_avg_pool2d -> flatten -> dense."""
    y = relay.nn.relu(relay.nn.conv2d(x, relay.const(CONV_W), padding=(1, 1)))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    y = relay.nn.avg_pool2d(y, pool_size=(3, 3), padding=(1, 1))
    y = relay.nn.global_avg_pool2d(y)
    return relay.nn.dense(relay.nn.batch_flatten(y), relay.const(DENSE_W))


def net_module(shape: tuple[int, ...]) -> IRModule:
    x = relay.var("x", shape=shape)
    return IRModule.from_expr(relay.Function([x], network(x)))


def two_function_module(shape: tuple[int, ...]) -> IRModule:
    """`@net` is the network; `@main` calls it and applies softmax."""
    mod = IRModule()
    a = relay.var("a", shape=shape)
    mod["net"] = relay.Function([a], network(a))
    x = relay.var("x", shape=shape)
    mod["main"] = relay.Function([x], relay.nn.softmax(mod.get_global_var("net")(x)))
    return mod


def function(mod: IRModule, name: str) -> func.FuncOp:
    (op,) = [f for f in mod.module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == name]
    return op


def retype_param(mod: IRModule, name: str, index: int, new_type: Attribute) -> None:
    """What a Python user does: change a block argument's type with xDSL's Rewriter."""
    Rewriter.replace_value_with_new_type(function(mod, name).body.block.args[index], new_type)


def infer(mod: IRModule) -> IRModule:
    with transform.PassContext(opt_level=0):
        return transform.Sequential([InferType()])(mod)


def assert_unchanged(mod: IRModule) -> None:
    """InferType changes nothing: the pass manager's immutability check does not fire."""
    with transform.PassContext(config={"testing.immutable_module": True}):
        InferType()(mod)


def test_registered_with_tvm_name_and_level() -> None:
    entry = lookup_pass("InferType")
    assert entry is not None
    assert entry.flag == "infer-type"
    assert entry.factory() is InferTypePass
    assert InferType().info.opt_level == 0


def test_dynamic_result_dims_become_static() -> None:
    text = """
    func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x?xf32> {
      %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]}
             : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32>
      %1 = relay.nn.relu %0 : tensor<?x4x?x?xf32>
      %2 = relay.nn.max_pool2d %1 {pool_size = [2, 2], strides = [2, 2]}
             : (tensor<?x4x?x?xf32>) -> tensor<?x?x?x?xf32>
      %3 = relay.nn.batch_flatten %2 : (tensor<?x?x?x?xf32>) -> tensor<?x?xf32>
      func.return %3 : tensor<?x?xf32>
    }
    """
    before = xrelay.parse(text)
    after = run_and_check(before, InferType())
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.var("w", shape=(4, 3, 3, 3))
    y = relay.nn.max_pool2d(
        relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1))), pool_size=(2, 2), strides=(2, 2)
    )
    expected = IRModule.from_expr(relay.Function([x, w], relay.nn.batch_flatten(y)))
    assert str(after) == str(expected)
    assert "?" not in str(after)
    assert_unchanged(after)  # idempotent


def test_well_typed_module_is_unchanged() -> None:
    mod = two_function_module((1, 3, 8, 8))
    text = str(mod)
    assert_unchanged(mod)
    assert str(mod) == text
    # The control: a module with a `?` that refines does change.
    loose = xrelay.parse(
        "func.func @main(%x: tensor<2xf32>) -> tensor<?xf32> {\n"
        "  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>\n"
        "  func.return %0 : tensor<?xf32>\n}\n"
    )
    with pytest.raises(PassError) as info:
        assert_unchanged(loose)
    assert isinstance(info.value.cause, ImmutableModuleError)


def test_retyped_parameter_propagates_through_the_network() -> None:
    mod = net_module((1, 3, 8, 8))
    retype_param(mod, "main", 0, relay.TensorType((2, 3, 16, 16)))
    after = infer(mod)
    after.module.verify()
    expected = net_module((2, 3, 16, 16))
    assert str(after) == str(expected)
    main = function(after, "main")
    assert str(main.function_type) == "(tensor<2x3x16x16xf32>) -> tensor<2x10xf32>"
    assert_same_numerics(expected, after)


def test_retyped_parameters_propagate_to_signature_and_callers() -> None:
    mod = two_function_module((1, 3, 8, 8))
    retype_param(mod, "net", 0, relay.TensorType((2, 3, 16, 16)))
    retype_param(mod, "main", 0, relay.TensorType((2, 3, 16, 16)))
    after = infer(mod)
    after.module.verify()
    expected = two_function_module((2, 3, 16, 16))
    assert str(after) == str(expected)
    call = next(op for op in function(after, "main").walk() if isinstance(op, func.CallOp))
    assert str(call.results[0].type) == "tensor<2x10xf32>"
    assert_same_numerics(expected, after)


def test_dynamic_batch_parameter_makes_the_batch_dynamic() -> None:
    mod = net_module((1, 3, 8, 8))
    retype_param(mod, "main", 0, relay.TensorType((None, 3, 8, 8)))
    after = infer(mod)
    after.module.verify()
    assert str(function(after, "main").function_type) == "(tensor<?x3x8x8xf32>) -> tensor<?x10xf32>"
    assert_same_numerics(net_module((1, 3, 8, 8)), after)


def test_incompatible_parameter_is_a_located_error_on_the_op() -> None:
    mod = net_module((1, 3, 8, 8))
    retype_param(mod, "main", 0, relay.TensorType((1, 5, 8, 8)))
    before = str(mod)
    with pytest.raises(DiagnosticError) as info:
        InferTypePass().apply(Context(), mod.clone().module)
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.message.startswith("'relay.nn.conv2d' op weight input channels 3")
    assert diagnostic.message.endswith("operand types: (tensor<1x5x8x8xf32>, tensor<4x3x3x3xf32>)")
    # Under the pass manager: a PassError whose cause is that diagnostic; the module is rolled back.
    with pytest.raises(PassError) as failure:
        infer(mod)
    assert isinstance(failure.value.cause, DiagnosticError)
    assert str(mod) == before


def test_error_location_is_the_op_in_the_source() -> None:
    text = (
        "func.func @main(%x: tensor<4xf32>, %z: tensor<5xf32>) -> tensor<5xf32> {\n"
        "  %0 = relay.exp %x : (tensor<4xf32>) -> tensor<?xf32>\n"
        "  %1 = relay.add %0, %z : (tensor<?xf32>, tensor<5xf32>) -> tensor<5xf32>\n"
        "  func.return %1 : tensor<5xf32>\n}\n"
    )
    mod = xrelay.parse(text, "model.mlir")
    with pytest.raises(DiagnosticError) as info:
        InferTypePass().apply(Context(), mod.module)
    assert str(info.value) == (
        "model.mlir:3:8: error: 'relay.add' op operand shapes (4) and (5) do not broadcast; "
        "operand types: (tensor<4xf32>, tensor<5xf32>)"
    )


def test_if_condition_retyped_to_a_non_scalar_is_an_error() -> None:
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,))
    mod = IRModule.from_expr(relay.Function([c, x], relay.If(c, relay.exp(x), x)))
    retype_param(mod, "main", 0, relay.TensorType((2,), "bool"))
    with pytest.raises(DiagnosticError, match="condition must be a scalar boolean tensor<i1>"):
        InferTypePass().apply(Context(), mod.module)


def test_if_and_tuples_follow_a_retyped_parameter() -> None:
    def build(n: int) -> IRModule:
        c = relay.var("c", shape=(), dtype="bool")
        x = relay.var("x", shape=(n,))
        t = relay.Tuple([relay.exp(x), x])
        body = relay.If(c, relay.add(t[0], t[1]), relay.negative(x))
        return IRModule.from_expr(relay.Function([c, x], relay.concatenate([body, x], axis=0)))

    mod = build(2)
    retype_param(mod, "main", 1, relay.TensorType((3,)))
    after = infer(mod)
    after.module.verify()
    assert str(after) == str(build(3))
    assert_same_numerics(build(3), after)


def test_partitioned_functions_are_typed_too() -> None:
    text = (
        'func.func @f(%a: tensor<3xf32>) -> tensor<?xf32> attributes {Compiler = "accel"} {\n'
        "  %0 = relay.nn.relu %a : (tensor<3xf32>) -> tensor<?xf32>\n"
        "  func.return %0 : tensor<?xf32>\n}\n"
        "func.func @main(%x: tensor<3xf32>) -> tensor<?xf32> {\n"
        "  %0 = func.call @f(%x) : (tensor<3xf32>) -> tensor<?xf32>\n"
        "  func.return %0 : tensor<?xf32>\n}\n"
    )
    after = run_and_check(xrelay.parse(text), InferType())
    assert str(function(after, "f").function_type) == "(tensor<3xf32>) -> tensor<3xf32>"
    assert str(function(after, "main").function_type) == "(tensor<3xf32>) -> tensor<3xf32>"


def sum_up_module(dtype: str = "int32") -> IRModule:
    """TVM's recursive `sum_up(i) = i == 0 ? i : i + sum_up(i - 1)` and a `main` calling it."""
    scalar = relay.TensorType((), dtype)
    sum_up = relay.GlobalVar("sum_up", relay.FuncType([scalar], scalar))
    i = relay.var("i", shape=(), dtype=dtype)
    zero, one = relay.const(0, dtype=dtype), relay.const(1, dtype=dtype)
    body = relay.If(relay.equal(i, zero), i, relay.add(i, sum_up(relay.subtract(i, one))))
    mod = IRModule({sum_up: relay.Function([i], body)})
    j = relay.var("j", shape=(), dtype=dtype)
    mod["main"] = relay.Function([j], mod.get_global_var("sum_up")(j))
    return mod


def test_recursive_function_is_unchanged_and_runs() -> None:
    mod = sum_up_module()
    assert_unchanged(mod)
    assert int(xrelay.evaluate(mod, np.array(4, "int32"))) == 10


def test_recursive_function_disagreeing_with_its_declaration_is_an_error() -> None:
    text = (
        "func.func @rec(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {\n"
        "  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {\n"
        "    relay.yield %x : tensor<4xf32>\n"
        "  } else {\n"
        "    %r = func.call @rec(%x, %c) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>\n"
        "    relay.yield %r : tensor<4xf32>\n"
        "  }\n"
        "  %1 = relay.exp %0 : (tensor<4xf32>) -> tensor<?xf32>\n"
        "  %2 = relay.concatenate %1, %1 {axis = 0} : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>\n"
        "  func.return %2 : tensor<4xf32>\n}\n"
    )
    mod = xrelay.parse(text, "rec.mlir")
    with pytest.raises(DiagnosticError) as info:
        InferTypePass().apply(Context(), mod.module)
    assert str(info.value) == (
        "rec.mlir:1:1: error: 'func.func' op recursive function @rec is inferred to return "
        "(tensor<8xf32>) but is declared to return (tensor<4xf32>)"
    )


def test_recursive_signature_refined_until_stable() -> None:
    text = (
        "func.func @main(%n: tensor<2xf32>, %c: tensor<i1>) -> tensor<?xf32> {\n"
        "  %0 = relay.if %c : tensor<i1> -> tensor<?xf32> {\n"
        "    relay.yield %n : tensor<2xf32>\n"
        "  } else {\n"
        "    %f = relay.equal %c, %c : tensor<i1>\n"
        "    %r = func.call @main(%n, %f) : (tensor<2xf32>, tensor<i1>) -> tensor<?xf32>\n"
        "    %s = relay.add %r, %n : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>\n"
        "    relay.yield %s : tensor<?xf32>\n"
        "  }\n"
        "  func.return %0 : tensor<?xf32>\n}\n"
    )
    after = run_and_check(xrelay.parse(text), InferType())
    assert "?" not in str(after)
    assert_unchanged(after)


def test_mutual_recursion_is_reinferred_as_one_component() -> None:
    """@even and @odd call each other: their `?` results refine over two rounds, callers after."""
    text = (
        "func.func @main(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<?xf32> {\n"
        "  %0 = func.call @even(%x, %c) : (tensor<2xf32>, tensor<i1>) -> tensor<?xf32>\n"
        "  func.return %0 : tensor<?xf32>\n}\n"
        "func.func @even(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<?xf32> {\n"
        "  %0 = relay.if %c : tensor<i1> -> tensor<?xf32> {\n"
        "    relay.yield %x : tensor<2xf32>\n"
        "  } else {\n"
        "    %t = relay.equal %c, %c : tensor<i1>\n"
        "    %r = func.call @odd(%x, %t) : (tensor<2xf32>, tensor<i1>) -> tensor<?xf32>\n"
        "    relay.yield %r : tensor<?xf32>\n"
        "  }\n"
        "  func.return %0 : tensor<?xf32>\n}\n"
        "func.func @odd(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<?xf32> {\n"
        "  %0 = func.call @even(%x, %c) : (tensor<2xf32>, tensor<i1>) -> tensor<?xf32>\n"
        "  %1 = relay.add %0, %x : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>\n"
        "  func.return %1 : tensor<?xf32>\n}\n"
    )
    after = run_and_check(xrelay.parse(text), InferType())
    for name in ("main", "even", "odd"):
        assert str(function(after, name).function_type) == (
            "(tensor<2xf32>, tensor<i1>) -> tensor<2xf32>"
        )
    assert "?" not in str(after)


def test_join_types() -> None:
    t = relay.TensorType
    assert join_types(t((2, 3)), t((2, 3))) == t((2, 3))
    assert join_types(t((2, 3)), t((2, None))) == t((2, None))
    assert join_types(t((2, 3)), t((2, 4))) is None
    assert join_types(t((2,)), t((2,), "int32")) is None
    pair = relay.TupleType([t((2,)), t((None,))])
    assert join_types(relay.TupleType([t((2,)), t((3,))]), pair) == pair
    assert join_types(pair, relay.TupleType([t((2,))])) is None
