"""What every call of a function passes: a parameter that is the same constant at each call.

FuseOps lifts constants into the parameters of its primitive functions (a weight, or a
scalar shared by several functions), so inside such a function a weight is a parameter.
When every call of the function passes the same `relay.constant` for it, the parameter is
that constant: its values never change from run to run (a GEMM may pack it once), and a
scalar's value may be read at emit time (epilogue fusion's GELU constants).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from xdsl.dialects import func
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xrelay.dialects.relay.structure import ConstantOp

_CALLS: WeakKeyDictionary[Operation, dict[str, list[func.CallOp]]] = WeakKeyDictionary()
"""Module -> callee name -> its calls (built once per module)."""


def calls(function: func.FuncOp) -> list[func.CallOp]:
    """The calls of `function` in its module."""
    module = function.parent_op()
    if module is None:
        return []
    if module not in _CALLS:
        found: dict[str, list[func.CallOp]] = {}
        for op in module.walk():
            if isinstance(op, func.CallOp):
                found.setdefault(op.callee.root_reference.data, []).append(op)
        _CALLS[module] = found
    return _CALLS[module].get(function.sym_name.data, [])


def constant_passed(function: func.FuncOp, value: SSAValue) -> ConstantOp | None:
    """The constant `value` always is: its own `relay.constant`, or the one every call of
    `function` passes for it when it is a parameter of `function`; else None."""
    owner = value.owner
    if isinstance(owner, ConstantOp):
        return owner
    if not isinstance(owner, Block) or owner is not function.body.block:
        return None
    assert isinstance(value, BlockArgument)
    found = {call.operands[value.index].owner for call in calls(function)}
    if len(found) != 1:
        return None
    (only,) = found
    return only if isinstance(only, ConstantOp) else None
