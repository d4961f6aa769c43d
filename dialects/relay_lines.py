"""A fast parsing path for the relay dialect's custom syntax, one op line at a time.

xDSL's parser lexes and dispatches token by token (about 150 µs for a printed relay op
line); a 50k-op module took 7.8 s to read. `RelayLines.parse` recognizes the common line
whole with one regular expression::

    %r = relay.op %a, %b {props} : (types) -> type loc(...)

and builds the op from cached pieces: the `{props}` text and the type text are each read
once per parser by xDSL's parser (at their place in the text) and reused for every later
line that spells them the same way (attributes are immutable values, so ops may share them).

It never decides anything the slow path would decide differently: a line it does not
recognize, an op whose class has its own syntax, an operand not yet defined, a type that
does not match, a result name already taken, or any error while reading a piece, and it
returns None with the parser where it was; xDSL's path then reads the line and reports
any error at its `file:line:col` as before.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.lexer import Span
from xrelay.dialects.relay.base import RelayOp, coerce_properties, fixed_arity, parse_signature

if TYPE_CHECKING:
    from xrelay.dialects.parser import LocatingParser

_SUFFIX = r"(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*)"
"""An SSA name after `%`, as the lexer reads it (digits, or an identifier)."""

_SPACE = re.compile(r"(?://[^\n]*|\s+)*", re.ASCII)
"""Whitespace and comments, as the lexer skips them between tokens."""

_LINE = re.compile(
    rf"%({_SUFFIX}) = (relay\.[A-Za-z0-9_$.]+)"
    rf"((?: %{_SUFFIX},)* %{_SUFFIX})?"
    r"( \{(?:[^{}\"\n]|\"(?:[^\"\\\n]|\\.)*\")*\})?"
    r" : ([^\"\n]+?)"
    r"(?: (loc\([^\n]*\)))?"
    r"[ \t]*(?=\n|$)"
)
"""One printed relay op line: result, name, operands, `{props}`, types, location."""


class _Recipe(NamedTuple):
    """What a line's op name, `{props}` and types make, read once per distinct spelling."""

    cls: type[RelayOp]
    properties: dict[str, Attribute]
    attributes: dict[str, Attribute]
    operand_types: tuple[Attribute, ...] | None
    """None: each operand has the result's type (the short form)."""
    result_types: tuple[Attribute, ...]
    fixed_arity: int | None
    """`fixed_arity(cls)` when there is one result: then `Operation.__init__` builds it."""


class RelayLines:
    """The fast path of one parser, with its caches (they hold that parser's reads)."""

    def __init__(self, parser: LocatingParser):
        self._parser = parser
        self._text = parser.lexer.input.content
        self._recipes: dict[tuple[str, str | None, str], _Recipe] = {}
        self.read = 0
        """How many ops this fast path has read."""

    def parse(self, start: int) -> tuple[Operation, int] | None:
        """The op on the line at offset `start` and where its text ends, or None.

        The parser's position is left anywhere: the caller resumes where it reads next.
        """
        match = _LINE.match(self._text, start)
        if match is None:
            return None
        result, name, operand_text, props_text, types_text, location_text = match.groups()
        recipe = self._recipes.get((name, props_text, types_text))
        if recipe is None:
            recipe = self._recipe(match)
            if recipe is None:
                return None
        parser = self._parser
        values = parser.ssa_values
        if result in values or result in parser.forward_ssa_references:
            return None
        operands: list[SSAValue] = []
        if operand_text is not None:
            for operand in operand_text[2:].split(", %"):
                defined = values.get(operand)
                if defined is None or len(defined) != 1:
                    return None
                operands.append(defined[0])
        operand_types = recipe.operand_types
        if operand_types is None:
            operand_types = recipe.result_types * len(operands)
        elif len(operand_types) != len(operands):
            return None
        for value, type in zip(operands, operand_types, strict=True):
            if value.type is not type and value.type != type:
                return None
        try:
            op = _build(recipe, operands)
            if location_text is not None:
                parser.resume_at(match.start(6))
                location = parser.parse_optional_location()
                if location is None or parser.pos != skip_space(self._text, match.end()):
                    return None
                op.location = location
            else:
                op.location = parser.location_at(match.start(2))  # at its name, as MLIR
        except Exception:  # the slow path reads the line again and reports what is wrong
            return None
        parser.register_result(result, op.results, Span(start, match.end(1), parser.lexer.input))
        self.read += 1
        return op, match.end()

    def _recipe(self, match: re.Match[str]) -> _Recipe | None:
        """Read the line's op class, `{props}` and types with xDSL's parser, where they are
        in the text; None (not kept) if the op has its own syntax or any read fails."""
        _, name, _, props_text, types_text, location_text = match.groups()
        parser = self._parser
        cls = parser.ctx.get_optional_op(name)
        if (
            cls is None
            or not issubclass(cls, RelayOp)
            or getattr(cls.parse, "__func__", None) is not RelayOp.parse.__func__
        ):
            return None
        entries: dict[str, Attribute] = {}
        try:
            with parser.in_dialect("relay"):
                if props_text is not None:
                    parser.resume_at(match.start(4) + 1)
                    entries = parser.parse_optional_attr_dict()
                    if parser.pos != match.end(4) + 1:
                        return None
                parser.resume_at(match.start(5))
                operand_types, result_types = parse_signature(parser)
            properties, attributes = coerce_properties(cls, entries)
        except Exception:  # the slow path reads the line again and reports what is wrong
            return None
        # The types must end where the text after them starts: not before (more on the
        # line) nor after (a type continued on the next line).
        if location_text is not None:
            follows = match.start(6)
        else:
            follows = skip_space(self._text, match.end(5))
        if parser.pos != follows:
            return None
        if operand_types is None and len(result_types) != 1:
            return None
        recipe = _Recipe(
            cls,
            properties,
            attributes,
            operand_types,
            result_types,
            fixed_arity(cls) if len(result_types) == 1 else None,
        )
        self._recipes[name, props_text, types_text] = recipe
        return recipe


def _build(recipe: _Recipe, operands: list[SSAValue]) -> Operation:
    """The recipe's op on `operands` (its own property and attribute dictionaries)."""
    cls = recipe.cls
    if recipe.fixed_arity == len(operands):
        op = cls.__new__(cls)
        Operation.__init__(
            op,
            operands=operands,
            result_types=recipe.result_types,
            properties=dict(recipe.properties),
            attributes=dict(recipe.attributes),
        )
        return op
    cls.check_operand_count(len(operands))
    return cls.build(
        operands=cls.group_operands(operands),
        result_types=list(recipe.result_types),
        properties=dict(recipe.properties),
        attributes=dict(recipe.attributes),
    )


def skip_space(text: str, offset: int) -> int:
    """The offset of the first token at or after `offset`."""
    space = _SPACE.match(text, offset)
    return offset if space is None else space.end()
