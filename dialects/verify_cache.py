"""Verifying relay ops by signature: an op whose signature verified before is not checked
again.

A relay op's verifier (IRDL's constraints, then `RelayOp.verify_`: sizes and type
inference) reads only its class, operand and result types, properties and attributes;
everything else `Operation.verify` checks depends on where the op is (an erased operand,
the last op of a block that must end in a terminator, successors, regions). So an op
whose signature has verified once, which has none of those, verifies: checking it again
costs about 35 µs, the lookup 3 µs (a 50k-op module verified in 2 s). Every other op, and
every op that fails, goes through `op.verify` itself, so messages are unchanged.
"""

from __future__ import annotations

import functools

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, ErasedSSAValue, Operation
from xdsl.traits import OpTrait
from xrelay.dialects.relay.base import RelayOp

_Signature = tuple[
    type[Operation],
    tuple[Attribute, ...],
    tuple[Attribute, ...],
    tuple[tuple[str, Attribute], ...],
    tuple[tuple[str, Attribute], ...],
]

_VERIFIED: set[_Signature] = set()
"""Signatures of relay ops that verified (attributes are immutable values)."""

_BY_ID: dict[tuple[object, ...], _Signature] = {}
"""The same signatures by the identities of their parts (the entry holds the parts, so an
identity in a key is never reused for another object): no hashing of types for ops that
share their attributes, as parsed and cloned ones do."""

_VERIFIED_MAX = 1 << 16
"""Signatures kept before the table is emptied (bounds its memory in a long-running process)."""


@functools.cache
def by_signature(cls: type[Operation]) -> bool:
    """Whether an op of `cls` verifies by its signature alone: a relay op (its `verify_`
    reads only the signature unless it says otherwise) without regions or successors, whose
    traits check nothing."""
    if not issubclass(cls, RelayOp) or not cls.VERIFY_BY_SIGNATURE:
        return False
    op_def = cls.get_irdl_definition()
    if op_def.regions or op_def.successors:
        return False
    return all(type(trait).verify is OpTrait.verify for trait in op_def.traits)


def verify_op(op: Operation) -> None:
    """`op.verify(verify_nested_ops=False)`, skipped for a relay op of a verified signature.

    Ops that may fail on where they are (the last of a block, an erased operand, regions or
    successors) and constants (the table would keep weights alive) verify in full.
    """
    cls = type(op)
    block = op.parent
    if (
        not by_signature(cls)
        or op.regions
        or op.successors
        or block is None
        or block.last_op is op
        or any(isinstance(o, ErasedSSAValue) for o in op.operands)
    ):
        op.verify(verify_nested_ops=False)
        return
    operand_types = tuple(o.type for o in op.operands)
    result_types = tuple(r.type for r in op.results)
    properties, attributes = op.properties, op.attributes
    by_id = (
        cls,
        tuple(map(id, operand_types)),
        tuple(map(id, result_types)),
        tuple(properties),
        tuple(map(id, properties.values())),
        tuple(attributes),
        tuple(map(id, attributes.values())),
    )
    if by_id in _BY_ID:
        return
    signature: _Signature = (
        cls,
        operand_types,
        result_types,
        tuple(properties.items()),
        tuple(attributes.items()),
    )
    values = (*properties.values(), *attributes.values())
    if any(isinstance(v, DenseIntOrFPElementsAttr) for v in values):
        op.verify(verify_nested_ops=False)
        return
    try:
        known = signature in _VERIFIED
    except TypeError:  # an attribute that cannot be hashed: no shortcut
        op.verify(verify_nested_ops=False)
        return
    if not known:
        op.verify(verify_nested_ops=False)
        if len(_VERIFIED) >= _VERIFIED_MAX:
            _VERIFIED.clear()
        _VERIFIED.add(signature)
    if len(_BY_ID) >= _VERIFIED_MAX:
        _BY_ID.clear()
    _BY_ID[by_id] = signature
