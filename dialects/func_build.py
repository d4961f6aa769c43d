"""`func.call`, `func.return` and `func.func` built without IRDL's generic argument lists.

xDSL's `__init__` of these ops runs `irdl_op_init`, which sorts operands, results,
regions and successors over the op's definitions: about two thirds of the 22, 14
and 35 µs each costs, and FuseOps builds one of each per fused group. These build
the same op (the same operands, result types, properties, regions; no attributes,
an unknown location) with `Operation.__init__`, which the definitions allow: one
variadic operand or result list each, no segment sizes, no successors.
`tests/test_func_build.py` compares them with xDSL's builders.

Their attributes skip verification too: `SymbolRefAttr(name)` and
`FunctionType.from_lists(...)` cost about 10 µs each to verify parameters these
builders make valid by construction (a `StringAttr` and an empty array; two arrays
of types), so they are built with `_unverified`, as xDSL's `ParametrizedAttribute.new`
sets parameters, minus its verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, FunctionType, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, Region, SSAValue


def call_op(
    callee: str, arguments: Sequence[SSAValue], result_types: Sequence[Attribute]
) -> func.CallOp:
    """`func.CallOp(callee, arguments, result_types)`."""
    op = func.CallOp.__new__(func.CallOp)
    Operation.__init__(
        op,
        operands=arguments,
        result_types=result_types,
        properties={"callee": _unverified(SymbolRefAttr, StringAttr(callee), _NO_REFERENCES)},
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
        "function_type": _unverified(FunctionType, ArrayAttr(inputs), ArrayAttr(outputs)),
    }
    if visibility is not None:
        properties["sym_visibility"] = StringAttr(visibility)
    op = func.FuncOp.__new__(func.FuncOp)
    Operation.__init__(op, properties=properties, regions=(region,))
    return op


_NO_REFERENCES: ArrayAttr[StringAttr] = ArrayAttr(())

AttrT = TypeVar("AttrT", bound=ParametrizedAttribute)


def _unverified(cls: type[AttrT], *parameters: Attribute) -> AttrT:
    """`cls(*parameters)` without its verifier, for parameters known to satisfy it."""
    attr = cls.__new__(cls)
    for (name, _), value in zip(cls.get_irdl_definition().parameters, parameters, strict=True):
        object.__setattr__(attr, name, value)
    return attr
