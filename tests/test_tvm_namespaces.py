"""TVM's namespaces and helpers in xrelay (issue 18): relay.op, relay.analysis, relay.expr, ..."""

from __future__ import annotations

import numpy as np
import pytest
from xrelay.passes.pass_manager import PassError

import xrelay
from xrelay import IRModule, relay, transform


def test_relay_op_namespaces_are_the_builders() -> None:
    assert relay.op.nn.conv2d is relay.nn.conv2d
    assert relay.op.add is relay.add
    assert relay.op.tensor.add is relay.add
    assert relay.op.transform.reshape is relay.reshape
    assert relay.op.annotation.compiler_begin is relay.annotation.compiler_begin


def test_call_op_is_tvms_handle() -> None:
    x = relay.var("x", shape=(2,))
    call = relay.add(x, x)
    assert call.op.name == "add"
    assert call.op == relay.op.op.get("add")
    assert call.op != relay.op.get("subtract")
    assert relay.nn.relu(x).op.name == "nn.relu"
    with pytest.raises(ValueError, match=r"'nn\.nothing' is not a relay op"):
        relay.op.get("nn.nothing")
    # a Call may be built from the handle, as TVM code does
    again = relay.Call(relay.op.get("multiply"), [x, x])
    assert again.op.name == "multiply"
    assert str(again.checked_type) == "tensor<2xf32>"
    assert again.type_args == []


def test_analysis_vars() -> None:
    x, y, z = (relay.var(n, shape=(2,)) for n in "xyz")
    inner = relay.Function([y], relay.add(y, z))
    expr = relay.Tuple([relay.add(x, z), inner])
    assert relay.analysis.free_vars(expr) == [x, z]
    assert relay.analysis.bound_vars(expr) == [y]
    assert relay.analysis.all_vars(expr) == [x, z, y]
    assert relay.analysis.free_type_vars(expr) == []
    seen: list[str] = []
    relay.analysis.post_order_visit(
        relay.add(x, relay.exp(x)), lambda e: seen.append(type(e).__name__)
    )
    assert seen == ["Var", "Call", "Call"]  # x once (shared), parts before the call


def test_expr_namespace() -> None:
    assert relay.expr.Call is relay.Call
    assert relay.expr.TupleGetItem is relay.TupleGetItem
    assert relay.expr.const(1.0).data.dtype == np.float32
    assert relay.expr.var("v", shape=(1,)).name_hint == "v"


def test_var_constructor_and_tuple_unpacking() -> None:
    assert str(relay.Var("a").checked_type) == "?"  # untyped, solved by InferType
    typed = relay.Var("b", relay.TensorType((1, 2), "int8"))
    assert str(typed.checked_type) == "tensor<1x2xi8>"
    x = relay.var("x", shape=(1, 3, 4, 4))
    g = relay.var("g", shape=(3,))
    out, _mean, var = relay.nn.batch_norm(x, g, g, g, g)
    assert str(out.checked_type) == "tensor<1x3x4x4xf32>"
    assert str(var.checked_type) == "tensor<3xf32>"
    with pytest.raises(TypeError, match="cannot unpack"):
        _a, _b = x  # a tensor is not a tuple


def test_annotation_compiler_begin_end() -> None:
    x = relay.var("x", shape=(2,))
    y = relay.annotation.compiler_end(
        relay.exp(relay.annotation.compiler_begin(x, "accel")), "accel"
    )
    text = str(IRModule.from_expr(relay.Function([x], y)))
    assert 'relay.compiler_begin %x {compiler = "accel"}' in text
    assert "relay.compiler_end" in text


def test_run_opt_pass_and_infer_type() -> None:
    x = relay.var("x", shape=(2,))
    body = relay.add(relay.exp(x), relay.exp(x))
    fn = relay.Function([x], body)
    out = relay.testing.run_opt_pass(fn, transform.EliminateCommonSubexpr())
    assert isinstance(out, relay.Function)
    assert str(IRModule.from_expr(out)).count("relay.exp") == 1
    assert str(IRModule.from_expr(fn)).count("relay.exp") == 2  # the input is unchanged
    typed = relay.testing.run_infer_type(body)
    assert not isinstance(typed, relay.Function)
    assert str(typed.checked_type) == "tensor<2xf32>"


def test_create_executor_runs_the_interpreter() -> None:
    x = relay.var("x", shape=(3,))
    y = relay.var("y", shape=(3,))
    fn = relay.Function([x, y], relay.subtract(x, y))
    a, b = np.arange(3, dtype="float32"), np.ones(3, "float32")
    run = relay.create_executor("graph", device=xrelay.cpu(0), target="c").evaluate(fn)
    np.testing.assert_array_equal(run(a, b), a - b)
    np.testing.assert_array_equal(run(a, y=b), a - b)
    mod = IRModule.from_expr(fn)
    out = relay.create_executor(mod=mod, params={"y": b}).evaluate()(a)
    np.testing.assert_array_equal(out, a - b)
    with pytest.raises(ValueError, match="'aot' is not supported"):
        relay.create_executor("aot", mod=mod)
    # "vm" runs the interpreter too (it runs dynamic shapes); inputs take the param dtype.
    out = relay.create_executor("vm", mod=mod).evaluate()(a, np.ones(3, "float64"))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, a - b)
    with pytest.raises(ValueError, match="free variables: x"):
        relay.create_executor().evaluate(relay.exp(x))
    # As in TVM: a closed expression is evaluated at once; "llvm"/"c" name the CPU.
    two = relay.add(relay.const(1.0), relay.const(1.0))
    dev = xrelay.device("c", 0)
    assert dev == xrelay.cpu(0)
    np.testing.assert_array_equal(relay.create_executor(device=dev).evaluate(two), 2.0)


def test_relay_build_with_params() -> None:
    x = relay.var("x", shape=(4,))
    w = relay.var("w", shape=(4,))
    mod = IRModule.from_expr(relay.Function([x, w], relay.multiply(x, w)))
    before = str(mod)
    lib = relay.build(mod, "c", params={"w": np.full(4, 2.0, "float32")})
    np.testing.assert_array_equal(lib(np.arange(4, dtype="float32")), [0.0, 2.0, 4.0, 6.0])
    assert str(mod) == before


def test_bind_params_by_name_takes_a_function() -> None:
    x = relay.var("x", shape=(2,))
    w = relay.var("w", shape=(2,))
    fn = relay.Function([x, w], relay.add(x, w))
    bound = relay.build_module.bind_params_by_name(fn, {"w": np.ones(2, "float32"), "nope": 1})
    assert [p.name_hint for p in bound.params] == ["x"]
    assert [p.name_hint for p in fn.params] == ["x", "w"]  # unchanged
    out = xrelay.evaluate(IRModule.from_expr(bound), np.zeros(2, "float32"))
    np.testing.assert_array_equal(out, [1.0, 1.0])
    mod = IRModule.from_expr(fn)
    relay.build_module.bind_params_by_name(mod, {"w": np.ones(2, "float32")})  # xrelay's form
    assert [p.name_hint for p in mod["main"].params] == ["x"]


def test_tir_scalars_as_attribute_values() -> None:
    x = relay.var("x", shape=(2,))
    fn = relay.Function([x], relay.exp(x)).with_attr("Primitive", xrelay.tir.IntImm("int32", 1))
    fn = fn.with_attr("Size", xrelay.tir.IntImm("int64", 7))
    text = str(IRModule.from_expr(fn))
    assert "Primitive = 1 : i32" in text
    assert "Size = 7 : i64" in text
    assert xrelay.tir.const(3).dtype == "int32"
    assert xrelay.tir.const(1.5).dtype == "float32"
    data = relay.var("d", shape=(1, 2, 5, 5))
    weight = relay.var("k", shape=(4, 2, 3, 3))
    conv = relay.nn.conv2d(data, weight, channels=xrelay.tir.const(4), kernel_size=(3, 3))
    assert str(conv.checked_type) == "tensor<1x4x3x3xf32>"


def test_pass_error_is_a_runtime_error() -> None:
    @transform.function_pass(opt_level=0)
    def broken(func: relay.Function, mod: IRModule, ctx: transform.PassContext) -> relay.Function:
        raise ValueError("boom")

    x = relay.var("x", shape=(2,))
    with pytest.raises(RuntimeError, match="boom") as info:
        broken(IRModule.from_expr(relay.Function([x], x)))
    assert isinstance(info.value, PassError)


def test_module_same_as_is_identity() -> None:
    x = relay.var("x", shape=(2,))
    mod = IRModule.from_expr(relay.Function([x], relay.exp(x)))
    assert mod.same_as(mod)
    assert not mod.same_as(mod.clone())
    assert not mod.same_as(mod["main"])


def test_device_handles_and_tvm_error() -> None:
    assert xrelay.device("cpu") == xrelay.cpu(0)
    with pytest.raises(ValueError, match="xrelay runs on the CPU"):
        relay.create_executor(device=xrelay.device("cuda"))
    assert issubclass(PassError, xrelay.error.TVMError)


def test_ir_instrument_and_scalar_type() -> None:
    from xrelay.ir.instrument import PassTimingInstrument, pass_instrument

    assert PassTimingInstrument is xrelay.instrument.PassTimingInstrument
    assert pass_instrument is xrelay.instrument.pass_instrument
    assert str(relay.scalar_type("int8")) == "tensor<i8>"


def test_run_opt_pass_body_reads_the_callers_variables() -> None:
    x = relay.var("x", shape=(2,))
    out = relay.testing.run_opt_pass(relay.add(x, relay.const(0.0)), transform.InferType())
    assert relay.analysis.free_vars(out) == [x]
    xrelay.ir.assert_structural_equal(out, relay.add(x, relay.const(0.0)))


def test_a_call_rebuilt_from_call_attrs_keeps_the_op_attributes() -> None:
    # TVM's mutators write `relay.Call(call.op, args, call.attrs, call.type_args)`.
    x, w = relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3))
    conv = relay.nn.conv2d(x, w, kernel_size=(3, 3), channels=4, padding=(1, 1))
    again = relay.Call(conv.op, [x, w], conv.attrs, conv.type_args)
    assert again.props == conv.props
    assert again.checked_type == conv.checked_type  # 8x8 kept: the padding travelled
    assert list(again.attrs.padding) == [1, 1, 1, 1]


def test_call_attrs_read_as_tvm_attrs_and_stay_the_discardable_dict() -> None:
    x = relay.var("x", shape=(1, 2, 3))
    call = relay.transpose(x, axes=[0, -1, 1])
    assert call.attrs.axes == call.attrs["axes"] == (0, -1, 1)
    assert str(call.attrs.axes) == str([0, -1, 1])  # printed as TVM's Array
    assert "axes" not in call.attrs
    assert dict(call.attrs) == {}
    assert call.attrs.get("axes") is None
    with pytest.raises(KeyError):
        call.attrs["keepdims"]


def test_a_function_reads_back_with_the_vars_it_was_made_with() -> None:
    """As TVM's passes keep Var nodes: after a pass, `mod["main"]`'s parameters are the
    caller's Vars while their names and types hold, so free variables compare as the same."""
    x = relay.var("x", shape=(2, 3))
    mod = IRModule.from_expr(relay.Function([x], relay.add(relay.exp(x), relay.exp(x))))
    out = xrelay.transform.Sequential([relay.transform.EliminateCommonSubexpr()])(mod)
    assert out["main"].params[0] is x
    assert out.clone()["main"].params[0] is x
    retyped = relay.var("x", shape=(3,))
    mod["main"] = relay.Function([retyped], relay.exp(retyped))
    assert mod["main"].params[0] is retyped


def test_astype_is_a_cast() -> None:
    x = relay.var("x", shape=(2,))
    y = relay.const(np.ones(2, "float32")).astype("float16") * x.astype("float16")
    assert str(y.checked_type) == "tensor<2xf16>"
