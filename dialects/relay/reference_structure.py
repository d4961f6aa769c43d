"""Reference semantics of the structural relay ops (constant, tuple, if, annotations)."""

from __future__ import annotations

from xrelay.dialects.interpreter import Entered, Evaluator, Value, enters_region, reference
from xrelay.dialects.relay import structure as s
from xrelay.dialects.relay.types import dense_to_numpy


@reference(s.ConstantOp)
def _constant(ev: Evaluator, op: s.ConstantOp, args: list[Value]) -> Value:
    return dense_to_numpy(op.value)


@reference(s.TupleOp)
def _tuple(ev: Evaluator, op: s.TupleOp, args: list[Value]) -> Value:
    return tuple(args)


@reference(s.TupleGetItemOp)
def _tuple_get_item(ev: Evaluator, op: s.TupleGetItemOp, args: list[Value]) -> Value:
    return args[0][op.index.value.data]


@enters_region(s.IfOp)
def _if(ev: Evaluator, op: s.IfOp, args: list[Value]) -> Entered:
    return Entered(op.then_region if bool(args[0]) else op.else_region, shares_scope=True)


@reference(s.CompilerBeginOp, s.CompilerEndOp)
def _annotation(ev: Evaluator, op: s.CompilerBeginOp | s.CompilerEndOp, args: list[Value]) -> Value:
    return args[0]


@enters_region(s.CompositeOp)
def _composite(ev: Evaluator, op: s.CompositeOp, args: list[Value]) -> Entered:
    return Entered(op.body, args)
