"""Inline (TVM's InlineGlobals): calls of functions marked `Inline` become their bodies.

Ports of TVM's `tests/python/relay/test_pass_inline.py`, with the expected
module built with the builder and the numerics checked before and after
(`run_and_check`). Where xrelay differs on purpose (see `passes/inline.py`):
recursion among inlinable functions is an error, not silently kept; a
partitioned function (`Compiler`) marked `Inline` stays a global function
and a call (TVM inlines it as a closure, which xrelay cannot express).
TVM's cases that pass functions as values (`test_globalvar_as_call_arg`,
`test_inline_globalvar_without_args`) have no counterpart: xrelay has no
first-class functions.
"""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xdsl.context import Context
from xdsl.dialects import func
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.passes import lookup_pass
from xrelay.passes.inline import Inline, InlinePass
from xrelay.passes.pass_manager import PassError

import xrelay
from xrelay import IRModule, relay, transform

SHAPE = (3, 5)


def v(name: str) -> relay.Var:
    return relay.var(name, shape=SHAPE)


def names(mod: IRModule) -> list[str]:
    return [op.sym_name.data for op in mod.module.ops if isinstance(op, func.FuncOp)]


def calls(mod: IRModule) -> list[str]:
    return [
        op.callee.root_reference.data for op in mod.module.walk() if isinstance(op, func.CallOp)
    ]


def add_g11(mod: IRModule, **attrs: object) -> None:
    """`g11(x11) = x11`, with attributes."""
    x11 = v("x11")
    mod["g11"] = relay.Function([x11], x11, attrs=attrs)


def add_g1(mod: IRModule, inline: bool, body_call: bool = True) -> None:
    """`g1(x1, y1) = x1 + y1 + g11(x1)` (or `x1 + y1 + x1`, g11 inlined by hand)."""
    x1, y1 = v("x1"), v("y1")
    last = mod.get_global_var("g11")(x1) if body_call else x1
    fn = relay.Function([x1, y1], x1 + y1 + last)
    mod["g1"] = fn.with_attr("Inline", 1) if inline else fn


def add_g2(mod: IRModule) -> None:
    """`g2(x2, y2) = x2 - y2`."""
    x2, y2 = v("x2"), v("y2")
    mod["g2"] = relay.Function([x2, y2], x2 - y2)


def add_main(mod: IRModule, g1_body: bool = False, g11_call: bool = False) -> None:
    """`main(p0..p3) = g1(p0, p1) * g2(p2, p3)`, or with g1's body in place of its call."""
    p0, p1, p2, p3 = v("p0"), v("p1"), v("p2"), v("p3")
    if g1_body:
        first = p0 + p1 + (mod.get_global_var("g11")(p0) if g11_call else p0)
    else:
        first = mod.get_global_var("g1")(p0, p1)
    mod["main"] = relay.Function([p0, p1, p2, p3], first * mod.get_global_var("g2")(p2, p3))


def inline(mod: IRModule) -> IRModule:
    return run_and_check(mod, Inline(), opt_level=1)


def test_registered_with_tvm_name_and_level() -> None:
    entry = lookup_pass("Inline")
    assert entry is not None
    assert entry.flag == "inline"
    assert entry.factory() is InlinePass
    assert Inline().info.opt_level == 1


def test_call_chain_inline_leaf() -> None:
    """main -> g1 -> g11 (Inline), main -> g2: only g11 is inlined, into g1; g11 goes."""
    mod = IRModule()
    add_g11(mod, Inline=1)
    add_g1(mod, inline=False)
    add_g2(mod)
    add_main(mod)
    after = inline(mod)

    expected = IRModule()
    add_g11(expected)  # only to type the GlobalVar while building g1's expected body
    add_g1(expected, inline=False, body_call=False)
    add_g2(expected)
    add_main(expected)
    expected.module.body.block.erase_op(expected.module.body.block.first_op)  # drop g11
    assert names(after) == ["g1", "g2", "main"]
    assert str(after) == str(expected)


def test_call_chain_inline_multiple_levels() -> None:
    """main -> g1 (Inline) -> g11 (Inline): both are inlined into main and removed."""
    mod = IRModule()
    add_g11(mod, Inline=1)
    add_g1(mod, inline=True)
    add_g2(mod)
    add_main(mod)
    after = inline(mod)

    expected = IRModule()
    add_g2(expected)
    add_main(expected, g1_body=True)
    assert names(after) == ["g2", "main"]
    assert str(after) == str(expected)


def test_call_chain_inline_multiple_levels_extern_compiler() -> None:
    """g11 is partitioned (`Compiler`, `Inline = 1`): it stays a function and a call; g1 goes."""
    mod = IRModule()
    add_g11(mod, Inline=1, Compiler="a")
    add_g1(mod, inline=True)
    add_g2(mod)
    add_main(mod)
    after = inline(mod)

    expected = IRModule()
    add_g11(expected, Inline=1, Compiler="a")
    add_g2(expected)
    add_main(expected, g1_body=True, g11_call=True)
    assert names(after) == ["g11", "g2", "main"]
    assert str(after) == str(expected)


def test_entry_with_inline() -> None:
    """Functions marked Inline that nobody calls are entry points: all stay as they are."""
    mod = IRModule()
    x, y = v("x"), v("y")
    mod["g1"] = relay.Function([x, y], x + y).with_attr("Inline", 1)
    a, b = v("a"), v("b")
    mod["g2"] = relay.Function([a, b], a - b).with_attr("Inline", 1)
    before = str(mod)
    with transform.PassContext(config={"testing.immutable_module": True}):
        after = Inline()(mod)
    assert str(after) == before


def sum_up_module(inline_attr: bool) -> IRModule:
    """TVM's recursive `sum_up(i) = i == 0 ? i : i + sum_up(i - 1)`, called by main."""
    scalar = relay.TensorType((), "int32")
    sum_up = relay.GlobalVar("sum_up", relay.FuncType([scalar], scalar))
    i = relay.var("i", shape=(), dtype="int32")
    zero, one = relay.const(0, dtype="int32"), relay.const(1, dtype="int32")
    body = relay.If(relay.equal(i, zero), i, relay.add(i, sum_up(relay.subtract(i, one))))
    fn = relay.Function([i], body)
    mod = IRModule({sum_up: fn.with_attr("Inline", 1) if inline_attr else fn})
    j = relay.var("j", shape=(), dtype="int32")
    mod["main"] = relay.Function([j], mod.get_global_var("sum_up")(j))
    return mod


def test_recursive_called_is_an_error_naming_the_cycle() -> None:
    """TVM keeps a recursive `Inline` function silently; xrelay reports the cycle."""
    mod = sum_up_module(inline_attr=True)
    before = str(mod)
    with pytest.raises(DiagnosticError) as info:
        InlinePass().apply(Context(), mod.clone().module)
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.message == (
        "'func.func' op cannot be inlined: recursion among functions marked Inline: "
        "@sum_up -> @sum_up"
    )
    with pytest.raises(PassError) as failure:
        Inline()(mod)
    assert isinstance(failure.value.cause, DiagnosticError)
    assert str(mod) == before  # rolled back


def test_recursive_without_inline_is_kept() -> None:
    mod = sum_up_module(inline_attr=False)
    after = inline(mod)
    assert str(after) == str(sum_up_module(inline_attr=False))
    assert int(xrelay.evaluate(after, np.array(4, "int32"))) == 10


def test_cycle_through_a_plain_function_is_inlined() -> None:
    """f (Inline) -> g (plain) -> f: f's body is copied into g and main; f goes; g recurses."""
    text = """
    func.func @f(%x: tensor<i32>) -> tensor<i32> attributes {Inline = 1 : i32} {
      %z = relay.constant dense<0> : tensor<i32>
      %c = relay.equal %x, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %0 = relay.if %c : tensor<i1> -> tensor<i32> {
        relay.yield %x : tensor<i32>
      } else {
        %r = func.call @g(%x) : (tensor<i32>) -> tensor<i32>
        relay.yield %r : tensor<i32>
      }
      func.return %0 : tensor<i32>
    }
    func.func @g(%x: tensor<i32>) -> tensor<i32> {
      %one = relay.constant dense<1> : tensor<i32>
      %0 = relay.subtract %x, %one : tensor<i32>
      %1 = func.call @f(%0) : (tensor<i32>) -> tensor<i32>
      %2 = relay.add %1, %x : tensor<i32>
      func.return %2 : tensor<i32>
    }
    func.func @main(%x: tensor<i32>) -> tensor<i32> {
      %0 = func.call @f(%x) : (tensor<i32>) -> tensor<i32>
      func.return %0 : tensor<i32>
    }
    """
    mod = xrelay.parse(text)
    after = inline(mod)
    assert names(after) == ["g", "main"]
    assert calls(after) == ["g", "g"]
    assert int(xrelay.evaluate(after, np.array(4, "int32"))) == 10


def test_multiple_results_and_call_sites() -> None:
    """A two-result function called twice: two copies; the results replace the calls' results."""
    mod = IRModule()
    a = v("a")
    pair = relay.Function([a], relay.Tuple([relay.exp(a), a])).with_attr("Inline", 1)
    pair.multi_result = True
    mod["pair"] = pair
    x = v("x")
    first = mod.get_global_var("pair")(x)
    second = mod.get_global_var("pair")(first[0] * first[1])
    mod["main"] = relay.Function([x], second[0] + second[1])
    assert str(mod).count("func.call @pair") == 2
    after = inline(mod)

    # The builder reads a call's two results through relay.tuple + tuple_get_item.
    x = v("x")
    t1 = relay.Tuple([relay.exp(x), x])
    m = t1[0] * t1[1]
    t2 = relay.Tuple([relay.exp(m), m])
    expected = IRModule.from_expr(relay.Function([x], t2[0] + t2[1]))
    assert names(after) == ["main"]
    assert str(after) == str(expected)


def test_partitioned_function_with_inline_is_kept() -> None:
    """PartitionGraph's output: `Compiler`, `Primitive`, `Inline = 1`; nothing changes."""
    mod = IRModule()
    a = v("accel_0_i0")
    mod["tvmgen_default_accel_main_0"] = relay.Function(
        [a], relay.nn.relu(a), attrs={"Compiler": "accel", "Primitive": 1, "Inline": 1}
    )
    x = v("x")
    mod["main"] = relay.Function([x], mod.get_global_var("tvmgen_default_accel_main_0")(x))
    before = str(mod)
    after = inline(mod)
    assert str(after) == before
