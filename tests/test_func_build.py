"""`dialects/func_build.py` builds `func.call`, `func.return` and `func.func` as xDSL's own
builders do: same operands, result types, properties, regions, attributes and location,
the same printed form, and ops that verify in a module."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, f32, i64
from xdsl.ir import Block, Operation, Region
from xrelay.dialects.func_build import call_op, func_op, return_op
from xrelay.dialects.relay.types import tensor_type

T = tensor_type([1, 4], f32)
U = tensor_type([2], i64)


def described(op: Operation) -> tuple[object, ...]:
    return (
        type(op),
        tuple(op.operands),
        tuple(r.type for r in op.results),
        dict(op.properties),
        dict(op.attributes),
        op.location,
        len(op.regions),
        len(op.successors),
    )


def test_call_and_return_are_xdsls() -> None:
    block = Block(arg_types=[T, U, T])
    args = list(block.args)
    for returned in ([], [T], [T, U]):
        assert described(call_op("f", args, returned)) == described(
            func.CallOp("f", args, returned)
        )
    for values in ([], args[:1], args):
        assert described(return_op(values)) == described(func.ReturnOp(*values))
    fresh = list(Block(arg_types=[T, U]).args)
    fast = call_op("f", fresh, [U])
    assert [use.operation for use in fresh[1].uses] == [fast]


def test_func_is_xdsls() -> None:
    for visibility in (None, "private"):
        fast = func_op("g", [T, U], [U], Region(Block(arg_types=[T, U])), visibility)
        slow = func.FuncOp("g", ([T, U], [U]), Region(Block(arg_types=[T, U])), visibility)
        assert described(fast) == described(slow)
        assert str(fast) == str(slow)


def test_built_module_verifies_and_prints_the_same() -> None:
    def module(fast: bool) -> ModuleOp:
        body = Block(arg_types=[T, U])
        body.add_op(return_op([body.args[1]]) if fast else func.ReturnOp(body.args[1]))
        callee = (
            func_op("callee", [T, U], [U], Region(body), "private")
            if fast
            else func.FuncOp("callee", ([T, U], [U]), Region(body), "private")
        )
        main = Block(arg_types=[T, U])
        args = list(main.args)
        call = call_op("callee", args, [U]) if fast else func.CallOp("callee", args, [U])
        main.add_op(call)
        main.add_op(return_op(call.results) if fast else func.ReturnOp(*call.results))
        caller = (
            func_op("main", [T, U], [U], Region(main))
            if fast
            else func.FuncOp("main", ([T, U], [U]), Region(main))
        )
        return ModuleOp([callee, caller])

    fast = module(True)
    fast.verify()
    assert str(fast) == str(module(False))
