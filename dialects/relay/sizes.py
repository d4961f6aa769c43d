"""Sizes of tensors: element counts and bytes in Python ints, and the largest tensor.

Generated C indexes buffers with `int64_t`/`ptrdiff_t` and prints sizes as
integer literals, so a tensor (and the arena of a model's intermediates) may
hold at most PTRDIFF_MAX = 2^63-1 bytes (`MAX_BYTES`). Every product here is
over Python ints, which do not overflow (numpy's `np.prod` on int64 wraps
silently: never use it for sizes). A dynamic dim (`?`) is skipped, i.e. counted
as 1: a tensor whose static dims are already too large cannot exist at any size
of its dynamic ones but 0. Each dim is at most 2^63-1 too, even in an empty
tensor (C could not spell its extent).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from xdsl.dialects.builtin import AnyFloat, IntegerType, TensorType, TupleType
from xdsl.ir import Attribute

MAX_BYTES = 2**63 - 1
"""The most bytes a tensor or an arena may hold: PTRDIFF_MAX of a 64-bit target."""


def element_count(shape: Sequence[int]) -> int:
    """The number of elements of a shape, its dynamic dims (negative) skipped."""
    total = 1
    for dim in shape:
        if dim >= 0:
            total *= dim
    return total


def element_bytes(element: Attribute) -> int | None:
    """Bytes per element (`i1` takes one), None for an element type without a size."""
    if isinstance(element, IntegerType):
        return (cast(IntegerType, element).bitwidth + 7) // 8
    if isinstance(element, AnyFloat):
        return (element.bitwidth + 7) // 8
    return None


def tensor_bytes(type_: TensorType[Attribute]) -> int:
    """The bytes of a tensor type (dynamic dims skipped; an unsized element takes one)."""
    per_element = element_bytes(type_.get_element_type())
    return element_count(type_.get_shape()) * (1 if per_element is None else per_element)


def format_bytes(count: int) -> str:
    """`2^70` for a power of two, else the decimal number."""
    if count > 1 and count & (count - 1) == 0:
        return f"2^{count.bit_length() - 1}"
    return str(count)


LIMIT_TEXT = "a tensor may hold at most 2^63-1 bytes"


def _tensors(type_: Attribute) -> Iterator[TensorType[Attribute]]:
    if isinstance(type_, TensorType):
        yield cast(TensorType[Attribute], type_)
    elif isinstance(type_, TupleType):
        for field in type_.types.data:
            yield from _tensors(field)


def size_problem(type_: Attribute) -> str | None:
    """Why a value of this type cannot exist (`tensor<...> has 2^70 bytes; ...`), or None.

    A tuple is checked field by field (the message names the field's tensor type).
    Every verified op asks this of each operand and result: for a tensor it is a
    short loop over the dims' attributes.
    """
    if isinstance(type_, TensorType):
        return _tensor_problem(cast(TensorType[Attribute], type_))
    for tensor in _tensors(type_):
        problem = _tensor_problem(tensor)
        if problem is not None:
            return problem
    return None


_ELEMENT_BYTES: dict[Attribute, int] = {}
"""Bytes per element by element type, as `size_problem` meets them (few types)."""


def _tensor_problem(tensor: TensorType[Attribute]) -> str | None:
    count = 1
    for dim_attr in tensor.shape.data:
        if dim_attr.data >= 0:
            count *= dim_attr.data
    element = tensor.element_type
    per_element = _ELEMENT_BYTES.get(element)
    if per_element is None:
        per_element = _ELEMENT_BYTES[element] = element_bytes(element) or 1
    if 0 < count * per_element <= MAX_BYTES:
        return None  # and so is every dim
    largest = max(tensor.get_shape(), default=0)
    if largest > MAX_BYTES:
        return f"{tensor} has a dimension of {largest}; a dimension may be at most 2^63-1"
    if count == 0:
        return None
    return f"{tensor} has {format_bytes(count * per_element)} bytes; {LIMIT_TEXT}"


def type_size_problem(what: str, type_: Attribute) -> str | None:
    """`<what> type <type> has ... bytes; ...` for a value that cannot exist, else None."""
    problem = size_problem(type_)
    if problem is None:
        return None
    if isinstance(type_, TensorType):
        return f"{what} type {problem}"
    return f"{what} type {type_}: field {problem}"


def signature_size_problem(inputs: Sequence[Attribute], outputs: Sequence[Attribute]) -> str | None:
    """The first argument or result type of a function that cannot exist, described."""
    for kind, types in (("argument", inputs), ("result", outputs)):
        for index, type_ in enumerate(types):
            problem = type_size_problem(f"{kind} #{index}", type_)
            if problem is not None:
                return problem
    return None
