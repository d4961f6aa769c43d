"""`deep_clone(op)` makes the copy xDSL's `op.clone()` makes, in one pass
(`dialects/deep_clone.py`): compared op by op with xDSL's copy, and checked to share
no IR with the original and to leave the original's use lists alone. `nested_ops`
lists what xDSL's walk yields."""

from __future__ import annotations

import sys

from xdsl.context import Context
from xdsl.dialects import builtin, cf, func, test
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.parser import Parser
from xrelay.dialects.deep_clone import deep_clone
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.parser import parse_module
from xrelay.dialects.walk import nested_ops

RELAY = """\
func.func private @helper(%p: tensor<2xf32>) -> tensor<2xf32> attributes {Inline = 1 : i64} {
  %0 = relay.tanh %p : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func @main(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %w = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %sum = relay.add %x, %w : tensor<2xf32>
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %1 = relay.exp %sum : tensor<2xf32>
    relay.yield %1 : tensor<2xf32>
  } else {
    %2 = func.call @helper(%x) : (tensor<2xf32>) -> tensor<2xf32>
    relay.yield %2 : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}
"""

# Successors to a later block, block arguments, and a region whose first op reads a
# value defined after it (as in a graph region; xDSL's parser takes it in any region).
GENERIC = """\
"builtin.module"() ({
  "func.func"() <{sym_name = "f", function_type = (i32) -> i32}> ({
  ^bb0(%a: i32):
    "cf.br"(%a)[^bb2] : (i32) -> ()
  ^bb1(%b: i32):
    "func.return"(%b) : (i32) -> ()
  ^bb2(%c: i32):
    %d = "test.op"(%c) {tag = 1 : i64} : (i32) -> i32
    "cf.br"(%d)[^bb1] : (i32) -> ()
  }) : () -> ()
  "test.op"() ({
    %late_user = "test.op"(%late) : (i32) -> i32
    %late = "test.op"() : () -> i32
  }) : () -> ()
}) : () -> ()
"""


def _generic_module() -> builtin.ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, cf.Cf, test.Test):
        ctx.load_dialect(dialect)
    return Parser(ctx, GENERIC).parse_module()


def _same(a: Operation, b: Operation) -> None:
    """`b` is a copy of `a` as xDSL's clone copies: op by op, value by value."""
    values: dict[SSAValue, SSAValue] = {}
    blocks: dict[Block, Block] = {}
    ops_a, ops_b = list(a.walk()), list(b.walk())
    assert len(ops_a) == len(ops_b)
    for x, y in zip(ops_a, ops_b, strict=True):
        assert x is not y
        assert type(x) is type(y)
        assert x.properties == y.properties
        assert x.properties is not y.properties
        assert x.attributes == y.attributes
        assert x.attributes is not y.attributes
        assert x.location == y.location
        for region_x, region_y in zip(x.regions, y.regions, strict=True):
            assert region_x is not region_y
            for block_x, block_y in zip(region_x.blocks, region_y.blocks, strict=True):
                blocks[block_x] = block_y
                assert len(block_x.args) == len(block_y.args)
                for arg_x, arg_y in zip(block_x.args, block_y.args, strict=True):
                    assert (arg_x.type, arg_x.name_hint, arg_x.location) == (
                        arg_y.type,
                        arg_y.name_hint,
                        arg_y.location,
                    )
                    values[arg_x] = arg_y
        for res_x, res_y in zip(x.results, y.results, strict=True):
            assert (res_x.type, res_x.name_hint) == (res_y.type, res_y.name_hint)
            values[res_x] = res_y
    for x, y in zip(ops_a, ops_b, strict=True):
        # An operand defined outside `a` is kept; one defined inside is mapped.
        assert [values.get(v, v) for v in x.operands] == list(y.operands)
        assert [blocks.get(s, s) for s in x.successors] == list(y.successors)
        copies = set(ops_b)
        assert all(use.operation in copies for v in y.results for use in v.uses)
        assert not any(use.operation in copies for v in x.results for use in v.uses)


def test_relay_module_copies_as_xdsl_clone() -> None:
    module = parse_module(RELAY, "in.mlir")
    text = IRModule(module=module).astext()
    copy = deep_clone(module)
    _same(module, copy)
    _same(module.clone(), copy)
    copy.verify()
    assert IRModule(module=copy).astext() == text
    assert IRModule(module=module).astext() == text


def test_successors_block_arguments_and_forward_references() -> None:
    module = _generic_module()
    copy = deep_clone(module)
    _same(module, copy)
    _same(module.clone(), copy)
    assert str(copy) == str(module) == str(module.clone())
    graph = next(op for op in copy.walk() if op.name == "test.op" and op.regions).regions[0].block
    first, second = graph.ops
    assert first.operands[0] is second.results[0]  # the forward reference, mapped


def test_an_inner_op_keeps_the_values_of_its_enclosing_function() -> None:
    module = parse_module(RELAY, "in.mlir")
    if_op = next(op for op in module.walk() if op.name == "relay.if")
    inside = set(if_op.walk())
    read = [v for op in inside for v in op.operands if v.owner not in inside]
    before = {value: value.uses.get_length() for value in read}
    copy = deep_clone(if_op)
    _same(if_op, copy)
    exp = next(op for op in if_op.walk() if op.name == "relay.exp")
    copied_exp = next(op for op in copy.walk() if op.name == "relay.exp")
    assert copied_exp.operands[0] is exp.operands[0]  # %sum, defined outside the relay.if
    for value, count in before.items():  # the copy's reads were added, none moved
        assert value.uses.get_length() == count + read.count(value)


def test_nested_ops_lists_what_walk_yields() -> None:
    """`nested_ops` (`dialects/walk.py`) in all four orders, from an op, a region and a block,
    over nested regions, several blocks and ops without regions."""
    for module in (parse_module(RELAY, "in.mlir"), _generic_module()):
        function = next(op for op in module.walk() if op.regions and op is not module)
        roots: list[Operation | Region | Block] = [
            module,
            function,
            function.regions[0],
            function.regions[0].blocks[0],
        ]
        for root in roots:
            for reverse in (False, True):
                for region_first in (False, True):
                    walked = list(root.walk(reverse=reverse, region_first=region_first))
                    listed = nested_ops(root, reverse=reverse, region_first=region_first)
                    assert listed == walked, (root, reverse, region_first)


def test_nested_ops_goes_deeper_than_the_recursion_limit() -> None:
    depth = 3 * sys.getrecursionlimit()
    outer = block = Block()
    for _ in range(depth):
        inner = Block()
        block.add_op(test.TestOp(regions=[Region(inner)]))
        block = inner
    for region_first in (False, True):
        listed = nested_ops(outer, reverse=True, region_first=region_first)
        assert len(listed) == depth
        assert listed[0 if not region_first else -1].parent_block() is outer
