"""`relay.einsum`: Einstein summation over several tensors (TVM's `relay.einsum`).

The equation is numpy's and ONNX's: comma-separated subscripts of letters, at
most one `...` per term, an optional `->` and output; spaces are ignored. A
letter repeated in one term takes a diagonal; letters missing from the output
are summed. Without `->` the output is `...` then the letters that appear once,
in character-code order. `...` dims broadcast as numpy does (right-aligned,
1 stretches); the dims one letter names must be equal.

See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.einsum
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, prop_def, result_def, traits_def, var_operand_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_str,
    operand_element_type,
)
from xrelay.dialects.relay.types import (
    ANY,
    Shape,
    broadcast_shapes,
    format_shape,
    is_bool,
    tensor_type,
)

ELLIPSIS = "."
"""The label of a `...` in a parsed term (one character)."""


def parse_term(term: str, what: str) -> str:
    """A term's letters with `...` as one `.`; anything else is a type error."""
    body = term.replace("...", ELLIPSIS)
    if body.count(ELLIPSIS) > 1:
        raise RelayTypeError(f"{what} '{term}' has more than one '...'")
    for char in body:
        if char != ELLIPSIS and char not in string.ascii_letters:
            raise RelayTypeError(f"{what} '{term}' has '{char}': subscripts are letters or '...'")
    return body


@dataclass(frozen=True)
class EinsumSpec:
    """An equation resolved against operand shapes: every dim has an integer label."""

    inputs: tuple[tuple[int, ...], ...]
    """Each operand's label per dim."""
    output: tuple[int, ...]
    """The output's label per dim."""
    extents: tuple[int, ...]
    """The extent of each label (`?` when unknown); labels are 0, 1, ..."""


def parse_equation(equation: str, count: int) -> tuple[list[str], str]:
    """The parsed input terms and output term (implicit output made explicit)."""
    text = "".join(equation.split())
    lhs, arrow, rhs = text.partition("->")
    terms = [parse_term(t, f"term #{k}") for k, t in enumerate(lhs.split(","))]
    if len(terms) != count:
        raise RelayTypeError(
            f"equation '{equation}' has {len(terms)} input terms for {count} operands"
        )
    if not arrow:
        letters = [c for c in "".join(terms) if c != ELLIPSIS]
        once = sorted(c for c in set(letters) if letters.count(c) == 1)
        prefix = ELLIPSIS if any(ELLIPSIS in t for t in terms) else ""
        return terms, prefix + "".join(once)
    output = parse_term(rhs, "output")
    seen = set("".join(terms))
    for position, char in enumerate(output):
        if char in output[:position]:
            raise RelayTypeError(f"output '{rhs}' repeats '{char}'")
        if char != ELLIPSIS and char not in seen:
            raise RelayTypeError(f"output '{rhs}' has '{char}', which no input term has")
    return terms, output


def einsum_spec(equation: str, shapes: Sequence[Shape]) -> EinsumSpec:
    """Resolve `equation` against the operand shapes; shape mismatches are type errors."""
    terms, output = parse_equation(equation, len(shapes))
    letter_extent: dict[str, int] = {}
    ellipses: list[Shape] = []
    for k, (term, shape) in enumerate(zip(terms, shapes, strict=True)):
        named = len(term) - (ELLIPSIS in term)
        if len(shape) < named or (ELLIPSIS not in term and len(shape) != named):
            raise RelayTypeError(
                f"term '{term.replace(ELLIPSIS, '...')}' does not fit operand #{k} of shape "
                f"{format_shape(shape)}"
            )
        covered = len(shape) - named
        at = term.find(ELLIPSIS)
        ellipses.append(tuple(shape[at : at + covered]) if at >= 0 else ())
        dims = [*shape[:at], *shape[at + covered :]] if at >= 0 else list(shape)
        for char, dim in zip(term.replace(ELLIPSIS, ""), dims, strict=True):
            known = letter_extent.get(char, ANY)
            if ANY not in (known, dim) and known != dim:
                raise RelayTypeError(f"'{char}' is {known} in one place and {dim} in operand #{k}")
            letter_extent[char] = dim if known == ANY else known
    broadcast: Shape = ()
    for k, dims in enumerate(ellipses):
        merged = broadcast_shapes(broadcast, dims)
        if merged is None:
            raise RelayTypeError(
                f"'...' of operand #{k} {format_shape(dims)} does not broadcast with "
                f"{format_shape(broadcast)}"
            )
        broadcast = merged
    if ELLIPSIS not in output and broadcast:
        raise RelayTypeError(
            f"output has no '...' for the broadcast dims {format_shape(broadcast)}"
        )
    letters = sorted(letter_extent)
    extents = [letter_extent[c] for c in letters] + list(broadcast)
    label = {c: i for i, c in enumerate(letters)}
    ellipsis_labels = list(range(len(letters), len(extents)))

    def labels(term: str, covered: int) -> tuple[int, ...]:
        out: list[int] = []
        for char in term:
            if char == ELLIPSIS:
                out.extend(ellipsis_labels[len(ellipsis_labels) - covered :])
            else:
                out.append(label[char])
        return tuple(out)

    inputs = tuple(labels(t, len(e)) for t, e in zip(terms, ellipses, strict=True))
    return EinsumSpec(inputs, labels(output, len(broadcast)), tuple(extents))


@irdl_op_definition
class EinsumOp(RelayOp):
    """`relay.einsum`: Einstein summation of the operands by `equation` (variadic, not a tuple).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.einsum
    """

    name = "relay.einsum"

    data = var_operand_def(TensorType)
    result = result_def(TensorType)
    equation = prop_def(StringAttr)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        if not operand_types:
            raise RelayTypeError("expected at least one operand")
        shapes = [expect_tensor(operand_types, k) for k in range(len(operand_types))]
        dtype = operand_element_type(operand_types, 0)
        if is_bool(dtype):
            raise RelayTypeError("einsum needs numbers, got i1")
        for k in range(1, len(operand_types)):
            if operand_element_type(operand_types, k) != dtype:
                raise RelayTypeError(
                    f"operand #{k} element type {operand_element_type(operand_types, k)} does not "
                    f"match {dtype} of operand #0"
                )
        spec = einsum_spec(get_str(props, "equation"), shapes)
        return [tensor_type([spec.extents[label] for label in spec.output], dtype)]


OPS = (EinsumOp,)
