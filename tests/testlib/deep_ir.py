"""Modules deeper or longer than text would give: nested `relay.if`s, tuples, long chains.

Built with xDSL ops or the builder (the parser rejects text this deep).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, f32, i1
from xdsl.ir import Attribute, Block, Region
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.relay.elementwise import NegativeOp
from xrelay.dialects.relay.structure import IfOp, YieldOp

from xrelay import relay

VECTOR = TensorType(f32, [2])
BOOL = TensorType(i1, [])


def _main(block: Block, inputs: list[Attribute], outputs: list[Attribute]) -> IRModule:
    function = func.FuncOp("main", (inputs, outputs))
    function.body.detach_block(function.body.block)
    function.body.add_block(block)
    return IRModule(module=ModuleOp([function]))


def nested_ifs(depth: int) -> IRModule:
    """`main(%c, %x)`: `depth` `relay.if %c` nested in then-branches, the innermost
    negates `%x`; every else-branch yields `%x`. With `%c` true: `-x`."""
    block = Block(arg_types=[BOOL, VECTOR])
    cond, x = block.args
    inner = Block()
    negative = NegativeOp.build(operands=[x], result_types=[VECTOR])
    inner.add_ops([negative, YieldOp(negative.results[0])])
    for _ in range(depth):
        op = IfOp(cond, VECTOR, Region(inner), Region(Block([YieldOp(x)])))
        inner = Block([op, YieldOp(op.results[0])])
    op = inner.first_op
    assert isinstance(op, IfOp)
    op.detach()
    block.add_ops([op, func.ReturnOp(op.results[0])])
    return _main(block, [BOOL, VECTOR], [VECTOR])


def negation_chain(length: int) -> IRModule:
    """`main(%x)`: `length` `relay.negative` ops in a row (`x` for even lengths)."""
    x = relay.var("x", shape=(2,), dtype="float32")
    expr: relay.Expr = x
    for _ in range(length):
        expr = relay.negative(expr)
    return IRModule.from_expr(relay.Function([x], expr))


def nested_tuples(depth: int) -> IRModule:
    """`main(%x)`: `x` wrapped in `depth` one-field tuples, then unwrapped again."""
    x = relay.var("x", shape=(2,), dtype="float32")
    expr: relay.Expr = x
    for _ in range(depth):
        expr = relay.Tuple([expr])
    for _ in range(depth):
        expr = relay.TupleGetItem(expr, 0)
    return IRModule.from_expr(relay.Function([x], expr))


def builder_ifs(depth: int) -> IRModule:
    """`main(%c, %x)` from the builder: `depth` nested `relay.If(c, ... + 1, x)`, so with
    `%c` true: `x + depth`."""
    cond = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,), dtype="float32")
    expr: relay.Expr = x
    for _ in range(depth):
        expr = relay.If(cond, expr + relay.const(np.float32(1)), x)
    return IRModule.from_expr(relay.Function([cond, x], expr))
