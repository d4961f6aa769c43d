"""Functions as callees (`relay.Call(fn, args)` in TVM): a `Composite` function becomes a
`relay.composite` region, any other a private function and a `func.call`, what MergeComposite
and FuseOps produce, so TVM's expected graphs can be written the way TVM writes them."""

from __future__ import annotations

import numpy as np
import pytest
from xrelay.dialects.builder.expr import FunctionCall
from xrelay.dialects.relay.base import RelayTypeError

from xrelay import IRModule, evaluate, relay, transform


def test_composite_callee_is_a_composite_region_with_untyped_params_solved() -> None:
    a, b = relay.var("a"), relay.var("b")
    body = relay.nn.relu(relay.add(a, b))
    comp = relay.Function([a, b], body).with_attr("Composite", "add_relu")
    comp = comp.with_attr("PartitionedFromPattern", "add_nn.relu_")
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))
    text = str(IRModule.from_expr(relay.Function([x, y], FunctionCall(comp, [x, y]))))
    assert 'relay.composite "add_relu" (%x, %y) {PartitionedFromPattern = "add_nn.relu_"}' in text
    assert "^bb0(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>):" in text
    assert "relay.yield %2 : tensor<2x3xf32>" in text


def test_primitive_callee_is_what_fuse_ops_makes() -> None:
    def typed() -> tuple[relay.Var, relay.Var]:
        return relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))

    x, y = typed()
    before = IRModule.from_expr(relay.Function([x, y], relay.exp(relay.multiply(x, y))))
    with transform.PassContext(opt_level=2):
        fused = transform.FuseOps(fuse_opt_level=2)(before)
    p0, p1 = relay.var("p0"), relay.var("p1")
    prim = relay.Function([p0, p1], relay.exp(relay.multiply(p0, p1))).with_attr("Primitive", 1)
    x, y = typed()
    expected = IRModule.from_expr(relay.Function([x, y], FunctionCall(prim, [x, y])))
    assert str(fused) == str(expected)


def test_one_private_function_per_callee_and_fresh_names() -> None:
    p = relay.var("p")
    prim = relay.Function([p], relay.exp(p)).with_attr("Primitive", 1)
    q = relay.var("q")
    other = relay.Function([q], relay.exp(q)).with_attr("Primitive", 1)
    x = relay.var("x", shape=(4,))
    out = FunctionCall(other, [FunctionCall(prim, [FunctionCall(prim, [x])])])
    text = str(IRModule.from_expr(relay.Function([x], out)))
    assert text.count("func.func private @fused_exp(") == 1
    assert text.count("func.func private @fused_exp_1(") == 1
    assert text.count("func.call @fused_exp(") == 2
    r = relay.var("r", shape=(4,))  # a callee with no attributes: lifted as `lifted`
    lifted = relay.Function([r], relay.negative(r))
    text = str(IRModule.from_expr(relay.Function([x], FunctionCall(lifted, [x]))))
    assert "func.func private @lifted(%r: tensor<4xf32>)" in text


def test_function_calls_compute_what_the_inlined_graph_computes() -> None:
    rng = np.random.default_rng(1)
    xv, yv = rng.standard_normal((2, 3), np.float32), rng.standard_normal((2, 3), np.float32)
    a, b = relay.var("a"), relay.var("b")
    comp = relay.Function([a, b], relay.nn.relu(relay.add(a, b))).with_attr("Composite", "ar")
    p = relay.var("p")
    prim = relay.Function([p], relay.exp(relay.negative(p))).with_attr("Primitive", 1)
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))
    called = FunctionCall(prim, [FunctionCall(comp, [x, y])])
    got = evaluate(IRModule.from_expr(relay.Function([x, y], called)), xv, yv)
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))
    inline = relay.exp(relay.negative(relay.nn.relu(relay.add(x, y))))
    want = evaluate(IRModule.from_expr(relay.Function([x, y], inline)), xv, yv)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_arity_and_type_errors() -> None:
    p = relay.var("p", shape=(3,))
    fn = relay.Function([p], relay.exp(p))
    with pytest.raises(RelayTypeError, match="1 parameters called with 2 arguments"):
        FunctionCall(fn, [p, p])
    x = relay.var("x", shape=(4,))
    with pytest.raises(RelayTypeError, match="argument #0 of a function call has type"):
        FunctionCall(fn, [x])
    q = relay.var("q")
    untyped = relay.Function([q], relay.exp(q))
    z = relay.var("z")
    with pytest.raises(RelayTypeError, match="variable 'z' cannot be solved; it is used by a fun"):
        IRModule.from_expr(relay.Function([z], FunctionCall(untyped, [z])))


def _fused_concat_take(link_params: bool) -> IRModule:
    x = relay.var("x", shape=(10, 1))
    out = relay.take(relay.concatenate([x, x], axis=-1), relay.const([0], dtype="int64"))
    mod = IRModule.from_expr(relay.Function([x], out))
    config = {"relay.FuseOps.link_params": link_params}
    with transform.PassContext(opt_level=2, config=config):
        return transform.FuseOps()(transform.InferType()(mod))


def test_a_fused_module_reads_back_with_its_primitive_functions_as_values() -> None:
    mod = _fused_concat_take(link_params=False)
    main = mod["main"]
    call = main.body
    assert isinstance(call, FunctionCall)
    assert call.callee.attrs["Primitive"] == 1
    assert [p.name_hint for p in call.callee.params] == ["p0", "p1"]
    # Written back, the function is the same module (the callee lifted under its name).
    again = IRModule.from_expr(main)
    assert str(again) == str(mod)
    x = np.arange(10, dtype=np.float32).reshape(10, 1)
    np.testing.assert_array_equal(evaluate(again, x), [0.0])


def test_link_params_defines_constants_inside_the_fused_function() -> None:
    text = str(_fused_concat_take(link_params=True))
    caller, fused = text.split("func.func private")
    assert "relay.constant" not in caller
    assert "relay.constant dense<0> : tensor<1xi64>" in fused
    assert "func.call @fused_concatenate_take(%x) :" in caller
    unlinked = str(_fused_concat_take(link_params=False))
    assert "func.call @fused_concatenate_take(%x, %0) :" in unlinked
