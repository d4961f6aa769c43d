"""DeadCodeElimination: TVM's test_pass_dead_code_elimination.py cases ported, plus effects,
nested regions, private functions and the cases that must stay.

TVM writes its cases in the text format, with `let`s; here a let is an SSA
value, and an unused one is an op whose result nothing reads, so the inputs
are xrelay text and the expected modules are built with the builder (which
emits only what the result reads). Numerics are checked before and after.
"""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xrelay.dialects.parser import make_context, parse_module
from xrelay.dialects.relay.elementwise import AddOp, ExpOp, NegativeOp
from xrelay.dialects.relay.structure import IfOp, YieldOp
from xrelay.passes.dead_code_elimination import DeadCodeElimination, DeadCodeEliminationPass

import xrelay
from xrelay import IRModule, relay, transform


def parse(text: str) -> IRModule:
    return xrelay.parse(text)


def parse_unregistered(text: str) -> IRModule:
    return IRModule(module=parse_module(text, ctx=make_context(allow_unregistered=True)))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def names(mod: IRModule) -> list[str]:
    return [op.sym_name.data for op in mod.module.ops if isinstance(op, func.FuncOp)]


def strip_names(mod: IRModule) -> str:
    clone = mod.clone()
    for op in clone.module.walk():
        for result in op.results:
            result.name_hint = None
    return str(clone)


def dce(mod: IRModule, **options: bool) -> IRModule:
    return run_and_check(mod, DeadCodeElimination(**options))


# --------------------------------------------------------------------------- #
# TVM's cases
# --------------------------------------------------------------------------- #


def test_let() -> None:
    """`let %x = 1; %z` -> `%z`."""
    before = parse("""
    func.func @main(%z: tensor<f32>) -> tensor<f32> {
      %x = relay.constant dense<1.0> : tensor<f32>
      func.return %z : tensor<f32>
    }
    """)
    z = relay.var("z", shape=())
    assert str(dce(before)) == str(IRModule.from_expr(relay.Function([z], z)))


def test_used_let() -> None:
    """Unused lets are dropped and used ones kept: `let a = 1; let b = 2; a + z` keeps only a."""
    before = parse("""
    func.func @main(%z: tensor<f32>) -> tensor<f32> {
      %a = relay.constant dense<1.0> : tensor<f32>
      %b = relay.constant dense<2.0> : tensor<f32>
      %c = relay.add %a, %z : tensor<f32>
      func.return %c : tensor<f32>
    }
    """)
    z = relay.var("z", shape=())
    expected = IRModule.from_expr(relay.Function([z], relay.add(relay.const(1.0), z)))
    assert strip_names(dce(before)) == str(expected)


def test_inline_let_in_expression() -> None:
    """`(let %a = 1; 3) + 2` -> `3 + 2`."""
    before = parse("""
    func.func @main() -> tensor<f32> {
      %a = relay.constant dense<1.0> : tensor<f32>
      %three = relay.constant dense<3.0> : tensor<f32>
      %two = relay.constant dense<2.0> : tensor<f32>
      %s = relay.add %three, %two : tensor<f32>
      func.return %s : tensor<f32>
    }
    """)
    expected = IRModule.from_expr(relay.Function([], relay.add(relay.const(3.0), relay.const(2.0))))
    assert strip_names(dce(before)) == str(expected)


RECURSIVE = """
func.func private @count(%n: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %one = relay.constant dense<1> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<i32> {
    relay.yield %n : tensor<i32>
  } else {
    %m = relay.subtract %n, %one : tensor<i32>
    %c = func.call @count(%m) : (tensor<i32>) -> tensor<i32>
    relay.yield %c : tensor<i32>
  }
  func.return %r : tensor<i32>
}
"""


def test_recursion_used() -> None:
    """A recursive function (TVM: a recursive closure) that main uses is kept."""
    before = parse(
        RECURSIVE
        + """
    func.func @main(%n: tensor<i32>) -> tensor<i32> {
      %c = func.call @count(%n) : (tensor<i32>) -> tensor<i32>
      func.return %c : tensor<i32>
    }
    """
    )
    out = dce(before.clone())
    assert str(out) == str(before)


def test_recursion_dead() -> None:
    """An unused call of a pure recursive function goes, and then the function."""
    before = parse(
        RECURSIVE
        + """
    func.func @main(%n: tensor<i32>) -> tensor<i32> {
      %c = func.call @count(%n) : (tensor<i32>) -> tensor<i32>
      func.return %n : tensor<i32>
    }
    """
    )
    out = dce(before)
    assert names(out) == ["main"]
    n = relay.var("n", shape=(), dtype="int32")
    assert str(out) == str(IRModule.from_expr(relay.Function([n], n)))


@pytest.mark.parametrize("inline_once", [False, True])
def test_inline_once_changes_nothing_in_ssa(inline_once: bool) -> None:
    """TVM's inline_once inlines single-use lets; an SSA value already is inline."""
    x = relay.var("x", shape=(4,))
    y = relay.exp(x)
    before = IRModule.from_expr(relay.Function([x], relay.add(y, x)))
    out = dce(before.clone(), inline_once=inline_once)
    assert str(out) == str(before)


def test_impure_ops_are_never_removed() -> None:
    """TVM keeps impure calls (memory.alloc_storage, ref writes); xrelay keeps ops without a
    memory-effect trait: the BYOC annotations and unregistered ops."""
    before = parse_unregistered("""
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = relay.abs %x : tensor<4xf32>
      %0 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
      %1 = "test.effect"(%x) : (tensor<4xf32>) -> tensor<4xf32>
      %dead = relay.exp %x : tensor<4xf32>
      func.return %x : tensor<4xf32>
    }
    """)
    out = DeadCodeElimination()(before)
    assert count(out, "relay.exp") == 0
    assert count(out, "relay.abs") == 1
    assert count(out, "relay.compiler_begin") == 1
    assert str(out).count('"test.effect"') == 1


def test_ignore_impurity_removes_unused_impure_ops() -> None:
    before = parse("""
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = relay.abs %x : tensor<4xf32>
      %0 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
      func.return %x : tensor<4xf32>
    }
    """)
    assert count(dce(before.clone()), "relay.compiler_begin") == 1
    out = dce(before, ignore_impurity=True)
    x = relay.var("x", shape=(4,))
    assert str(out) == str(IRModule.from_expr(relay.Function([x], x)))


# --------------------------------------------------------------------------- #
# Transitive and nested
# --------------------------------------------------------------------------- #


def test_dead_chain_goes_at_once() -> None:
    before = parse("""
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %live = relay.nn.relu %x : tensor<4xf32>
      %0 = relay.exp %x : tensor<4xf32>
      %1 = relay.add %0, %live : tensor<4xf32>
      %2 = relay.tuple %1, %0 : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
      %3 = relay.tuple_get_item %2 {index = 0} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
      func.return %live : tensor<4xf32>
    }
    """)
    out = dce(before)
    x = relay.var("x", shape=(4,))
    assert strip_names(out) == str(IRModule.from_expr(relay.Function([x], relay.nn.relu(x))))


def test_nested_regions() -> None:
    """Dead ops in a live branch go; an unused if goes whole, with what only it read."""
    before = parse("""
    func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
      %only_dead_if = relay.abs %x : tensor<4xf32>
      %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
        %unused = relay.negative %x : tensor<4xf32>
        %e = relay.exp %x : tensor<4xf32>
        relay.yield %e : tensor<4xf32>
      } else {
        relay.yield %x : tensor<4xf32>
      }
      %dead_if = relay.if %c : tensor<i1> -> tensor<4xf32> {
        %n = relay.negative %only_dead_if : tensor<4xf32>
        relay.yield %n : tensor<4xf32>
      } else {
        relay.yield %only_dead_if : tensor<4xf32>
      }
      func.return %r : tensor<4xf32>
    }
    """)
    out = dce(before)
    x = relay.var("x", shape=(4,))
    c = relay.var("c", shape=(), dtype="bool")
    expected = IRModule.from_expr(relay.Function([x, c], relay.If(c, relay.exp(x), x)))
    assert strip_names(out) == str(expected)


def test_if_with_an_impure_branch_stays() -> None:
    before = parse("""
    func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
      %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
        %a = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
        relay.yield %a : tensor<4xf32>
      } else {
        relay.yield %x : tensor<4xf32>
      }
      func.return %x : tensor<4xf32>
    }
    """)
    out = dce(before.clone())
    assert str(out) == str(before)


# --------------------------------------------------------------------------- #
# Functions
# --------------------------------------------------------------------------- #

FUNCTIONS = """
func.func private @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @b(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @used(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @public_unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @used(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


def test_unused_private_functions_go_to_a_fixpoint() -> None:
    """@b is only used by @a, which nothing uses: both go in one run."""
    out = dce(parse(FUNCTIONS))
    assert names(out) == ["used", "public_unused", "main"]
    assert str(DeadCodeElimination()(out.clone())) == str(out)  # a fixpoint


def test_public_functions_and_main_stay() -> None:
    before = parse("""
    func.func @lib(%x: tensor<4xf32>) -> tensor<4xf32> {
      func.return %x : tensor<4xf32>
    }
    func.func private @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = relay.exp %x : tensor<4xf32>
      func.return %0 : tensor<4xf32>
    }
    """)
    out = dce(before.clone())
    assert str(out) == str(before)


def test_call_of_an_impure_function_stays() -> None:
    before = parse_unregistered("""
    func.func private @impure(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = "test.effect"(%x) : (tensor<4xf32>) -> tensor<4xf32>
      func.return %x : tensor<4xf32>
    }
    func.func private @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = func.call @impure(%x) : (tensor<4xf32>) -> tensor<4xf32>
      func.return %x : tensor<4xf32>
    }
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = func.call @caller(%x) : (tensor<4xf32>) -> tensor<4xf32>
      func.return %x : tensor<4xf32>
    }
    """)
    out = DeadCodeElimination()(before.clone())
    assert str(out) == str(before)
    out = DeadCodeElimination(ignore_impurity=True)(before)
    assert names(out) == ["main"]


def test_builder_module_with_global_functions() -> None:
    """Builder-made functions are public: DCE keeps them and cleans their bodies only."""
    x = relay.var("x", shape=(2,))
    helper = relay.Function([x], relay.exp(x))
    mod = IRModule({"helper": helper})
    y = relay.var("y", shape=(2,))
    mod["main"] = relay.Function([y], mod.get_global_var("helper")(y))
    out = dce(mod.clone())
    assert str(out) == str(mod)


# --------------------------------------------------------------------------- #
# The pass itself
# --------------------------------------------------------------------------- #


def test_pass_info_and_names() -> None:
    p = DeadCodeElimination()
    assert p.info.name == "DeadCodeElimination"
    assert p.info.opt_level == 1
    assert p.info.required == ()
    assert p.kind == "module"
    assert DeadCodeEliminationPass.name == "dead-code-elimination"
    assert transform.get_pass("DeadCodeElimination").info.name == "DeadCodeElimination"
    assert transform.get_pass("dead-code-elimination").info.opt_level == 1
    spec = DeadCodeElimination(ignore_impurity=True).pipeline_spec()
    assert spec == "dead-code-elimination{ignore_impurity=true}"


def test_gated_by_opt_level_in_a_sequential() -> None:
    before = parse("""
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = relay.exp %x : tensor<4xf32>
      func.return %x : tensor<4xf32>
    }
    """)
    with transform.PassContext(opt_level=0):
        out = transform.Sequential([DeadCodeElimination()])(before.clone())
    assert count(out, "relay.exp") == 1
    with transform.PassContext(opt_level=1):
        out = transform.Sequential([DeadCodeElimination()])(before.clone())
    assert count(out, "relay.exp") == 0


def long_dead_module(chain: int, ifs: int) -> IRModule:
    """`main(x, c)` returning x, with a dead chain of adds and unused ifs reading it."""
    t = relay.TensorType([4], "float32")
    block = Block(arg_types=[t, relay.TensorType([], "bool")])
    x, c = block.args
    ops: list[Operation] = [ExpOp.build(operands=[x], result_types=[t])]
    for _ in range(chain - 1):
        ops.append(AddOp.build(operands=[ops[-1].results[0], x], result_types=[t]))
    for i in range(ifs):
        negative = NegativeOp.build(operands=[ops[i].results[0]], result_types=[t])
        then_block = Block([negative, YieldOp(negative.results[0])])
        ops.append(IfOp(c, t, Region(then_block), Region(Block([YieldOp(x)]))))
    block.add_ops([*ops, func.ReturnOp(x)])
    main = func.FuncOp("main", ([t, c.type], [t]), Region(block))
    return IRModule(module=ModuleOp([main]))


def test_linear_on_a_long_dead_chain() -> None:
    """A 10,000-op dead chain and 1,000 unused ifs go in one run (quadratic would crawl)."""
    mod = long_dead_module(10000, 1000)
    out = DeadCodeElimination()(mod)
    assert sum(1 for _ in out.module.walk()) == 3  # module, function, return
    data = np.ones(4, "float32")
    assert np.array_equal(xrelay.evaluate(out, data, np.array(True)), data)
