"""`RelayOp.make` and `ConstantOp(...)` build ops with `Operation.__init__` when IRDL's generic
argument lists have nothing to do: the op must be the one `build` makes (operands, result
type, properties with their defaults, attributes, location), it must verify, and ops with
variadic operands or regions still go through `build`."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import f32
from xdsl.ir import Attribute, Block, Operation
from xrelay.dialects.builder.attrs import int_
from xrelay.dialects.relay import base
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.elementwise import AddOp, MultiplyOp
from xrelay.dialects.relay.nn import Conv2DOp
from xrelay.dialects.relay.structure import ConstantOp, TupleOp
from xrelay.dialects.relay.tensor import ConcatenateOp, ExpandDimsOp, ReshapeOp
from xrelay.dialects.relay.types import dense_from_numpy, tensor_type

T4 = tensor_type([1, 4, 4, 4], f32)
W = tensor_type([4, 4, 3, 3], f32)


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


CASES: list[tuple[type[RelayOp], list[Attribute], dict[str, Attribute]]] = [
    (AddOp, [T4, tensor_type([4, 1, 1], f32)], {}),
    (MultiplyOp, [T4, T4], {}),
    (ExpandDimsOp, [tensor_type([4], f32)], {"axis": int_(1), "num_newaxis": int_(2)}),
    (Conv2DOp, [T4, W], {"padding": base.int_list_attr([1, 1, 1, 1])}),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_make_is_build(case: int) -> None:
    cls, types, props = CASES[case]
    block = Block(arg_types=types)
    made = cls.make(block.args, props, {"tag": int_(7)})
    assert base.fixed_arity(cls) == len(types)
    built = cls.build(
        operands=list(block.args),
        result_types=[made.results[0].type],
        properties=props,
        attributes={"tag": int_(7)},
    )
    assert described(made) == described(built)
    assert set(cls.default_properties()) <= set(made.properties)
    for arg, operand in zip(block.args, made.operands, strict=True):
        assert [use.operation for use in arg.uses].count(made) == 1
        assert operand is arg
    made.verify()


def test_variadic_ops_keep_build() -> None:
    """Ops with a variadic operand are not fixed-arity: `make` goes through `build`."""
    assert base.fixed_arity(ConcatenateOp) is None
    assert base.fixed_arity(TupleOp) is None
    block = Block(arg_types=[T4, T4])
    pair = TupleOp.make(block.args)
    assert list(pair.operands) == list(block.args)
    concat = ConcatenateOp.make(block.args, {"axis": int_(1)})
    assert concat.results[0].type == tensor_type([1, 8, 4, 4], f32)
    concat.verify()


def test_wrong_operand_count_still_raises() -> None:
    """A count that does not fit falls back to `build`, whose error is kept."""
    block = Block(arg_types=[T4, T4, T4])
    with pytest.raises(ValueError, match="Expected 2 operand"):
        AddOp.make(block.args)


def test_constant_is_build() -> None:
    dense = dense_from_numpy(np.arange(4, dtype=np.float32).reshape(4, 1, 1))
    fast = ConstantOp(dense)
    slow = ConstantOp.build(result_types=[dense.type], properties={"value": dense})
    assert described(fast) == described(slow)
    assert str(fast) == str(slow)
    fast.verify()


def test_make_typed_is_build() -> None:
    """`make_typed` (the caller's result type, no inference) builds what `build` does."""
    block = Block(arg_types=[tensor_type([2, 3], f32)])
    props: dict[str, Attribute] = {"newshape": base.int_list_attr([3, 2])}
    typed = ReshapeOp.make_typed(block.args, tensor_type([3, 2], f32), props)
    built = ReshapeOp.build(
        operands=list(block.args), result_types=[tensor_type([3, 2], f32)], properties=props
    )
    assert described(typed) == described(built)
    assert described(typed) == described(ReshapeOp.make(block.args, props))
    typed.verify()
