"""A relay op in IR seen as TVM's `relay.Call` expression, for Python callbacks (`fskip`).

The call has the op's handle, properties, discardable attributes and result type; its
arguments are variables standing for the operands (named after their SSA names, typed).
"""

from __future__ import annotations

from xrelay.dialects.builder.expr import Call, Var
from xrelay.dialects.relay.base import RelayOp


def call_of(op: RelayOp) -> Call:
    """The op as a `relay.Call` (see the module docstring)."""
    args = [
        Var(operand.name_hint or f"arg{i}", operand.type) for i, operand in enumerate(op.operands)
    ]
    return Call(
        type(op),
        args,
        dict(op.properties),
        dict(op.attributes),
        checked_type=op.results[0].type,
    )
