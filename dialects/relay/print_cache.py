"""The text after a relay op's operands, printed once per signature and reused.

A relay op prints as `%r = relay.op %a, %b {props} : types`; everything after the
operands (the tail) is a function of the op's class, properties, attributes and types
when those are plain values (numbers, strings, integer lists, types of tensors of
scalars): no constant, whose printing depends on the printer's options and registers
resources. Printing the tail through the printer costs about 25 µs (most of printing a
50k-op module); a cached tail is written as one string.

A tail is captured as the printer itself prints it (its class and options), so the text
is byte for byte what it would print; it is kept per printer class.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, TypeVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

_Key = tuple[Any, ...]
_T = TypeVar("_T")

_TAILS: dict[_Key, str] = {}
"""Printed tails by (printer class, op class, properties, attributes, types)."""

_BY_ID: dict[_Key, tuple[_Key, str]] = {}
"""The same tails by the identities of those values (the entry holds the values, so an
identity in a key is never reused for another object): no hashing of types for ops that
share their attributes, as parsed ones do."""

_TAILS_MAX = 1 << 14
"""Tails kept in each table before it is emptied (bounds its memory)."""

_PLAIN = (IntegerAttr, FloatAttr, StringAttr, DenseArrayBase, IntegerType, IndexType)
_SCALARS = frozenset((IntegerType, IndexType, Float16Type, BFloat16Type, Float32Type, Float64Type))


def print_tail(printer: Printer, op: Operation, print_it: Callable[[Printer], None]) -> None:
    """`print_it(printer)`, the op's tail, from the table when its signature was printed."""
    properties, attributes = op.properties, op.attributes
    operand_types = tuple(o.type for o in op.operands)
    result_types = tuple(r.type for r in op.results)
    by_id = (
        type(printer),
        type(op),
        tuple(properties),
        tuple(map(id, properties.values())),
        tuple(attributes),
        tuple(map(id, attributes.values())),
        tuple(map(id, operand_types)),
        tuple(map(id, result_types)),
    )
    known = _BY_ID.get(by_id)
    if known is not None:
        printer.print_string(known[1])
        return
    key = _key(printer, op, operand_types, result_types)
    if key is None:
        print_it(printer)
        return
    text = _TAILS.get(key)
    if text is None:
        text = _capture(printer, print_it)
        if "\n" in text:
            return
        _remember(_TAILS, key, text)
    else:
        printer.print_string(text)
    _remember(_BY_ID, by_id, (key, text))


def _capture(printer: Printer, print_it: Callable[[Printer], None]) -> str:
    """Print through the printer, and return what it printed."""
    stream = printer.stream
    captured = io.StringIO()
    printer.stream = captured
    try:
        print_it(printer)
    finally:
        printer.stream = stream
    text = captured.getvalue()
    print(text, end="", file=stream)
    return text


def _remember(table: dict[_Key, _T], key: _Key, value: _T) -> None:
    if len(table) >= _TAILS_MAX:
        table.clear()
    table[key] = value


def _key(
    printer: Printer,
    op: Operation,
    operand_types: tuple[Attribute, ...],
    result_types: tuple[Attribute, ...],
) -> _Key | None:
    """What the tail is a function of, or None if a part is not a plain value."""
    properties = tuple(op.properties.items())
    attributes = tuple(op.attributes.items())
    if not all(_plain(v) for _, v in properties) or not all(_plain(v) for _, v in attributes):
        return None
    if not all(_plain_type(t) for t in (*operand_types, *result_types)):
        return None
    return (type(printer), type(op), properties, attributes, operand_types, result_types)


def _plain(value: Attribute) -> bool:
    if isinstance(value, ArrayAttr):
        return all(_plain(v) for v in cast(ArrayAttr[Attribute], value).data)
    return isinstance(value, _PLAIN) or _plain_type(value)


def _plain_type(value: Attribute) -> bool:
    """A tensor of a scalar type without an encoding, or such a scalar type."""
    if type(value) is TensorType:
        return type(value.encoding) is NoneAttr and type(value.element_type) in _SCALARS
    return type(value) in _SCALARS
