"""f16 and bf16 on the host C target: every op computes in float, its result rounded once.

`widen_half_floats` rewrites each host op that reads or makes f16 or bf16 into
the same op on f32 between casts: `relay.cast(x, f32)` of each such operand
(exact), the op with those results made f32, and `relay.cast(r, f16 / bf16)`
of each such result (round to nearest even; a tuple result, batch_norm's, field by
field through `relay.tuple_get_item` and `relay.tuple`). That is the interpreter's rule
(`docs/semantics.md`): every op on a half float computes on float32 and rounds
its result once.

Why not C arithmetic on the half types: bf16 has no portable arithmetic type
(`__bf16` computes only in recent GCC and Clang), so it is stored as its bit
pattern (`uint16_t`, the upper half of a binary32) with conversion helpers
(`xr_bf16_to_f32`, `xr_f32_to_bf16` in `abi.py`: round to nearest even, NaN
kept). f16 is stored as `_Float16` (GCC >= 12 and Clang >= 15 on x86-64, both on
aarch64), but only converted: an expression of several `_Float16` operations
is evaluated in float and rounded once on x86-64 without AVX512-FP16, and in
half precision, rounded after each operation, on aarch64 with FP16
arithmetic, so a formula like sigmoid's would differ between the two. A
conversion rounds the same on both.

Ops that only move elements (`MOVES`) and the structural ops keep their
types and copy the elements. Casts from and to f16 stay as they are (C
converts directly, rounding once); a cast to bf16 from another type than f32
goes through f32, as the interpreter's does. Functions partitioned for a BYOC
target are left alone (their predicates take f32 only).
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    IntegerAttr,
    ModuleOp,
    TensorType,
    TupleType,
    f32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects.relay.elementwise import CastOp
from xrelay.dialects.relay.structure import TupleGetItemOp, TupleOp
from xrelay.dialects.relay.types import (
    tensor_element_type,
    tensor_type,
    tuple_elements,
    tuple_type,
)

MOVES = frozenset(
    {
        "relay.reshape",
        "relay.squeeze",
        "relay.expand_dims",
        "relay.transpose",
        "relay.concatenate",
        "relay.split",
        "relay.layout_transform",
        "relay.strided_slice",
        "relay.take",
        "relay.constant",
        "relay.tuple",
        "relay.tuple_get_item",
        "relay.yield",
        "relay.if",
        "relay.composite",
        "relay.compiler_begin",
        "relay.compiler_end",
        "relay.annotation.stop_fusion",
    }
)
"""Ops that keep their half floats: they copy elements (or are structure)."""


def is_half_tensor(type_: Attribute) -> bool:
    """Whether `type_` is a tensor of f16 or bf16."""
    return isinstance(type_, TensorType) and isinstance(
        tensor_element_type(cast(Attribute, type_)), Float16Type | BFloat16Type
    )


def is_bfloat16_tensor(type_: Attribute) -> bool:
    """Whether `type_` is a tensor of bf16."""
    return isinstance(type_, TensorType) and isinstance(
        tensor_element_type(cast(Attribute, type_)), BFloat16Type
    )


def _as_f32(type_: Attribute) -> Attribute:
    """`type_` with f16 and bf16 made f32, in the fields of a tuple too (batch_norm's)."""
    if isinstance(type_, TupleType):
        return tuple_type([_as_f32(t) for t in tuple_elements(type_)])
    if not is_half_tensor(type_):
        return type_
    return tensor_type(cast(TensorType[Attribute], type_).get_shape(), f32)


def widen_half_floats(module: ModuleOp) -> None:
    """Rewrite every host op on f16 or bf16 into the op on f32 between casts (module doc)."""
    for function in module.ops:
        if not isinstance(function, func.FuncOp) or "Compiler" in function.attributes:
            continue
        for op in list(function.walk()):
            if op.dialect_name() != "relay" or op.name in MOVES:
                continue
            if any(_holds_half(t) for t in (*op.operand_types, *op.result_types)):
                _widen(op)


def _holds_half(type_: Attribute) -> bool:
    if isinstance(type_, TupleType):
        return any(is_half_tensor(t) for t in tuple_elements(type_))
    return is_half_tensor(type_)


def _cast(value: SSAValue, element_type: Attribute, before: Operation) -> SSAValue:
    shape = cast(TensorType[Attribute], value.type).get_shape()
    op = CastOp.create(
        operands=[value],
        result_types=[tensor_type(shape, element_type)],
        properties={"dtype": element_type},
    )
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.results[0]


def _widen(op: Operation) -> None:
    if isinstance(op, CastOp):
        source, target = op.data.type, op.result.type
        if is_bfloat16_tensor(source) and tensor_element_type(target) != f32:
            op.operands[0] = _cast(op.data, f32, op)  # bf16 -> f32 -> target
        elif is_bfloat16_tensor(target) and tensor_element_type(source) != f32:
            op.operands[0] = _cast(op.data, f32, op)  # source -> f32 -> bf16
        return
    if any(not isinstance(t, TensorType) for t in op.operand_types):
        return  # a tuple operand of an op that is not a move: left for the emitter to refuse
    operands = [_cast(v, f32, op) if is_half_tensor(v.type) else v for v in op.operands]
    properties = dict(op.properties)
    for name, value in op.properties.items():
        if isinstance(value, Float16Type | BFloat16Type):  # out_dtype, dtype: now f32
            properties[name] = f32
    wide = op.create(
        operands=operands,
        result_types=[_as_f32(t) for t in op.result_types],
        properties=properties,
        attributes=dict(op.attributes),
    )
    Rewriter.insert_op(wide, InsertPoint.before(op))
    narrowing = _Narrowing(wide)
    pairs = zip(op.results, wide.results, strict=True)
    results = [narrowing.narrow(new, old.type) for old, new in pairs]
    for old, new in zip(op.results, results, strict=True):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(op)


class _Narrowing:
    """Inserts, after the widened op, the casts that bring its results back to their types."""

    def __init__(self, wide: Operation) -> None:
        self.point = InsertPoint.after(wide)

    def _insert(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.point)
        self.point = InsertPoint.after(op)
        return op.results[0]

    def narrow(self, value: SSAValue, type_: Attribute) -> SSAValue:
        """`value` (of `_as_f32(type_)`) as `type_`: a cast, or a tuple of narrowed fields."""
        if value.type == type_:
            return value
        if isinstance(type_, TupleType):
            fields = [
                self.narrow(
                    self._insert(
                        TupleGetItemOp.create(
                            operands=[value],
                            result_types=[wide_field],
                            properties={"index": IntegerAttr(i, i64)},
                        )
                    ),
                    field,
                )
                for i, (wide_field, field) in enumerate(
                    zip(tuple_elements(value.type), tuple_elements(type_), strict=True)
                )
            ]
            return self._insert(TupleOp.create(operands=fields, result_types=[type_]))
        element = tensor_element_type(type_)
        narrow = CastOp.create(
            operands=[value], result_types=[type_], properties={"dtype": element}
        )
        return self._insert(narrow)
