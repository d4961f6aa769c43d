"""Builder functions for `relay.stack` and `relay.repeat`, with TVM's signatures
(`tvm.relay.stack(data, axis)`, `tvm.relay.repeat(data, repeats, axis)`)."""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr, Tuple, TupleGetItem
from xrelay.dialects.relay import stack_repeat as sr
from xrelay.dialects.relay.types import is_tuple, tuple_elements

__all__ = ["repeat", "stack"]


def stack(data: Expr | Sequence[Expr], axis: int) -> Call:
    """`relay.stack(data, axis)`: `data` is a list/tuple of exprs or a tuple expr."""
    if isinstance(data, Tuple):
        fields = list(data.fields)
    elif isinstance(data, Expr):
        if not is_tuple(data.checked_type):
            raise TypeError(f"expected a list or tuple of expressions, got {data.checked_type}")
        count = len(tuple_elements(data.checked_type))
        fields: list[Expr] = [TupleGetItem(data, i) for i in range(count)]
    else:
        fields = list(data)
    return Call(sr.StackOp, fields, {"axis": attrs.int_(int(axis))})


def repeat(data: Expr, repeats: int, axis: int) -> Call:
    """`relay.repeat(data, repeats, axis)`: each element `repeats` times along `axis`."""
    props = {"repeats": attrs.int_(int(repeats)), "axis": attrs.int_(int(axis))}
    return Call(sr.RepeatOp, [data], props)
