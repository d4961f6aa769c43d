"""`func.call`, `func.return` and `func.func` built without IRDL's generic argument lists.

xDSL's `__init__` of these ops runs `irdl_op_init`, which sorts operands, results,
regions and successors over the op's definitions: about two thirds of the 22, 14
and 35 µs each costs, and FuseOps builds one of each per fused group. These build
the same op (the same operands, result types, properties, regions; no attributes,
an unknown location) with `Operation.__init__`, which the definitions allow: one
variadic operand or result list each, no segment sizes, no successors.
`tests/test_func_build.py` compares them with xDSL's builders.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue


def call_op(
    callee: str, arguments: Sequence[SSAValue], result_types: Sequence[Attribute]
) -> func.CallOp:
    """`func.CallOp(callee, arguments, result_types)`."""
    op = func.CallOp.__new__(func.CallOp)
    Operation.__init__(
        op,
        operands=arguments,
        result_types=result_types,
        properties={"callee": SymbolRefAttr(callee)},
    )
    return op


def return_op(values: Sequence[SSAValue]) -> func.ReturnOp:
    """`func.ReturnOp(*values)`."""
    op = func.ReturnOp.__new__(func.ReturnOp)
    Operation.__init__(op, operands=values)
    return op


def func_op(
    name: str,
    inputs: Sequence[Attribute],
    outputs: Sequence[Attribute],
    region: Region,
    visibility: str | None = None,
) -> func.FuncOp:
    """`func.FuncOp(name, (inputs, outputs), region, visibility)`."""
    properties: dict[str, Attribute] = {
        "sym_name": StringAttr(name),
        "function_type": FunctionType.from_lists(inputs, outputs),
    }
    if visibility is not None:
        properties["sym_visibility"] = StringAttr(visibility)
    op = func.FuncOp.__new__(func.FuncOp)
    Operation.__init__(op, properties=properties, regions=(region,))
    return op
