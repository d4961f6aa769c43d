"""The base of every relay tensor op: one custom syntax, type inference, and its verifier.

Every relay op states its result types as a pure function of its operand types
and properties (`infer_result_types`). The same function serves three users:

- the Python builder, which infers types eagerly as expressions are built;
- the verifier, which checks that the written result types agree with it;
- the InferType pass, which re-derives types after signatures change.

Custom syntax shared by all relay tensor ops (MLIR style)::

    %r = relay.nn.relu %x : tensor<4xf32>
    %r = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], channels = 16}
           : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x8x8xf32>

Properties equal to their default are omitted; integer lists print as `[1, 1]`
and are stored as `array<i64: ...>`; the generic form prints every property.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrConstraint,
    IRDLOperation,
    OptionalDef,
    VariadicDef,
    VarOperandDef,
    VerificationContext,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xrelay.dialects.property_order import ordered_properties
from xrelay.dialects.relay.print_cache import print_tail
from xrelay.dialects.relay.sizes import type_size_problem
from xrelay.dialects.relay.types import (
    format_shape,
    is_bool,
    is_float,
    is_supported_element_type,
    shape_of,
    tensor_element_type,
    types_compatible,
)

Props = Mapping[str, Attribute]


class RelayTypeError(VerifyException):
    """A type error found while inferring the result type of a relay op."""


# --------------------------------------------------------------------------- #
# Reading property values in inference functions
# --------------------------------------------------------------------------- #


def int_list_attr(values: Sequence[int]) -> DenseArrayBase[IntegerType]:
    """The storage of an integer-list property: `array<i64: ...>`."""
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def int_array_values(attr: Attribute) -> tuple[int, ...] | None:
    """The values of an integer `DenseArrayBase`, or None for anything else."""
    if not isinstance(attr, DenseArrayBase):
        return None
    if not _is_integer_type(cast(DenseArrayBase[IntegerType], attr).elt_type):
        return None
    return tuple(cast(DenseArrayBase[IntegerType], attr).get_values())


def integer_value(attr: Attribute) -> int | None:
    """The value of an `IntegerAttr`, or None for anything else."""
    if not isinstance(attr, IntegerAttr):
        return None
    return cast(IntegerAttr[IntegerType], attr).value.data


def integer_width(attr: Attribute) -> int | None:
    """The bit width of an `IntegerAttr` of an integer type, or None."""
    if not isinstance(attr, IntegerAttr):
        return None
    ty = cast(IntegerAttr[IntegerType], attr).type
    return ty.width.data if _is_integer_type(ty) else None


def _is_integer_type(ty: Attribute) -> bool:
    return isinstance(ty, IntegerType)


def properties_with_defaults(op: IRDLOperation) -> dict[str, Attribute]:
    """The op's properties, with the declared default of each one it leaves out."""
    out: dict[str, Attribute] = {
        key: prop.default_value
        for key, prop in type(op).get_irdl_definition().properties.items()
        if prop.default_value is not None
    }
    out.update(op.properties)
    return out


def get_ints(props: Props, name: str) -> tuple[int, ...]:
    """An integer-list property."""
    attr = props[name]
    values = int_array_values(attr)
    if values is not None:
        return values
    value = integer_value(attr)
    if value is not None:
        return (value,)
    raise RelayTypeError(f"attribute '{name}' must be a list of integers, got {attr}")


def get_opt_ints(props: Props, name: str) -> tuple[int, ...] | None:
    """An optional integer-list property (None when absent)."""
    return get_ints(props, name) if name in props else None


def get_int(props: Props, name: str) -> int:
    """An integer property."""
    value = integer_value(props[name])
    if value is None:
        raise RelayTypeError(f"attribute '{name}' must be an integer, got {props[name]}")
    return value


def get_opt_int(props: Props, name: str) -> int | None:
    """An optional integer property."""
    return get_int(props, name) if name in props else None


def get_bool(props: Props, name: str) -> bool:
    """A boolean property (`true`/`false`)."""
    return get_int(props, name) != 0


def get_float(props: Props, name: str) -> float:
    """A float property."""
    attr = props[name]
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    value = integer_value(attr)
    if value is not None:
        return float(value)
    raise RelayTypeError(f"attribute '{name}' must be a float, got {attr}")


def get_str(props: Props, name: str) -> str:
    """A string property."""
    attr = props[name]
    if not isinstance(attr, StringAttr):
        raise RelayTypeError(f"attribute '{name}' must be a string, got {attr}")
    return attr.data


def get_type(props: Props, name: str) -> Attribute | None:
    """An optional type-valued property (e.g. `out_dtype`)."""
    return props.get(name)


def normalize_axis(axis: int, rank: int, what: str = "axis") -> int:
    """A negative axis counted from the end; out of range is a type error."""
    if rank == 0:
        # A scalar has no axes; 0 and -1 name "the" position, as in numpy's expand_dims.
        if axis not in (0, -1):
            raise RelayTypeError(f"{what} {axis} is out of range for rank {rank}")
        return 0
    if not -rank <= axis < rank:
        raise RelayTypeError(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def expect_tensor(types: Sequence[Attribute], index: int, what: str = "operand") -> tuple[int, ...]:
    """The shape of operand `index`, which must be a ranked tensor."""
    from xdsl.dialects.builtin import TensorType

    if not isinstance(types[index], TensorType):
        raise RelayTypeError(f"expected {what} #{index} to be a tensor, got {types[index]}")
    return shape_of(types[index])


def operand_element_type(types: Sequence[Attribute], index: int) -> Attribute:
    """The element type of operand `index`, which must be a tensor."""
    expect_tensor(types, index)
    return tensor_element_type(types[index])


def common_element_type(types: Sequence[Attribute], first: int, second: int) -> Attribute:
    """The element type two tensor operands share; differing types are a type error."""
    a, b = operand_element_type(types, first), operand_element_type(types, second)
    if a != b:
        raise RelayTypeError(f"operand element types differ: {a} vs {b}")
    return a


def expect_float(types: Sequence[Attribute], index: int) -> None:
    """Operand `index` must be a floating-point tensor."""
    element = operand_element_type(types, index)
    if not is_float(element):
        raise RelayTypeError(f"expected a floating-point operand, got {element}")


def expect_not_bool(types: Sequence[Attribute], index: int) -> None:
    """Operand `index` must not be boolean (`i1`): for arithmetic that has no boolean form."""
    element = operand_element_type(types, index)
    if is_bool(element):
        raise RelayTypeError(f"expected a numeric (not boolean) operand, got {element}")


def check_dtype(dtype: Attribute, what: str = "dtype") -> Attribute:
    """A dtype property must name a supported element type."""
    if not is_supported_element_type(dtype):
        raise RelayTypeError(f"unsupported {what} {dtype}")
    return dtype


def expect_rank(shape: Sequence[int], rank: int, what: str) -> None:
    """Check the rank of a shape, naming what it is."""
    if len(shape) != rank:
        raise RelayTypeError(
            f"expected {rank}-D {what}, got rank {len(shape)} {format_shape(shape)}"
        )


# --------------------------------------------------------------------------- #
# The base op
# --------------------------------------------------------------------------- #


def _accepts(constraint: AttrConstraint, value: Attribute) -> bool:
    try:
        constraint.verify(value, VerificationContext())
    except VerifyException:
        return False
    return True


def _coerce_property(value: Attribute, constraint: AttrConstraint) -> Attribute:
    """Map what the attribute parser reads to how relay stores properties.

    `[1, 2]` becomes `array<i64: 1, 2>`, and an integer written where a float
    is expected (`a_min = 0`) becomes that float.
    """
    number = integer_value(value)
    if number is not None and not _accepts(constraint, value):
        as_float = FloatAttr(float(number), f64)
        if _accepts(constraint, as_float):
            return as_float
    converted = _int_list_from_array(value)
    return value if converted is None else converted


def _int_list_from_array(value: Attribute) -> Attribute | None:
    if not isinstance(value, ArrayAttr):
        return None
    items = [integer_value(v) for v in cast(ArrayAttr[Attribute], value).data]
    ints = [v for v in items if v is not None]
    return int_list_attr(ints) if len(ints) == len(items) else None


def _element_is_i64(value: Attribute) -> bool:
    return (
        isinstance(value, DenseArrayBase)
        and cast(DenseArrayBase[IntegerType], value).elt_type == i64
    )


def print_relay_value(printer: Printer, value: Attribute) -> None:
    """Print a property value in relay's compact syntax (`[1, 1]`, `16`, `true`)."""
    ints = int_array_values(value)
    if ints is not None and integer_width(value) is None and _element_is_i64(value):
        printer.print_string("[" + ", ".join(str(v) for v in ints) + "]")
        return
    width = integer_width(value)
    number = integer_value(value)
    if number is not None and width == 64:
        printer.print_string(str(number))
        return
    if number is not None and width == 1:
        printer.print_string("true" if number else "false")
        return
    text = _f64_literal(value)
    if text is not None:
        printer.print_string(text)
        return
    printer.print_attribute(value)


def _f64_literal(value: Attribute) -> str | None:
    """`1.0e-05` for a finite f64 FloatAttr (MLIR float literals need a `.`)."""
    if not isinstance(value, FloatAttr):
        return None
    attr = cast(FloatAttr, value)
    number = float(attr.value.data)
    if attr.type != f64 or not math.isfinite(number):
        return None
    text = repr(number)
    if "." not in text:
        mantissa, _, exponent = text.partition("e")
        text = mantissa + ".0" + ("e" + exponent if exponent else "")
    return text


_InferKey = tuple[type, tuple[Attribute, ...], frozenset[tuple[str, Attribute]]]

_INFERRED: dict[_InferKey, Attribute] = {}
"""`RelayOp.inferred_type` by (op class, operand types, properties): inference is a function
of these (attributes are immutable values), and passes build ops of the same few types over
and over (an elementwise op's inference costs about 10 µs, a lookup well under 1 µs)."""

_INFERRED_MAX = 1 << 14
"""Entries kept before the table is emptied (bounds its memory in a long-running process)."""


def parse_signature(
    parser: Parser,
) -> tuple[tuple[Attribute, ...] | None, tuple[Attribute, ...]]:
    """The types after a relay op's `:`: `type` (operand types None: each operand has the
    result's type), `(types) -> type` or `(types) -> (types)`; (operand types, result types)."""
    if parser.parse_optional_punctuation("(") is None:
        return None, (parser.parse_type(),)
    operand_types: list[Attribute] = []
    if parser.parse_optional_punctuation(")") is None:
        operand_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
    parser.parse_punctuation("->")
    if parser.parse_optional_punctuation("(") is None:
        return tuple(operand_types), (parser.parse_type(),)
    result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return tuple(operand_types), tuple(result_types)


def coerce_properties(
    cls: type[IRDLOperation], entries: Mapping[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """A parsed `{...}` split into the op's properties (coerced to how relay stores them)
    and discardable attributes."""
    prop_names = cls.get_irdl_definition().properties
    properties = {
        k: _coerce_property(v, prop_names[k].constr) for k, v in entries.items() if k in prop_names
    }
    attributes = {k: v for k, v in entries.items() if k not in prop_names}
    return properties, attributes


@functools.cache
def fixed_arity(cls: type[RelayOp]) -> int | None:
    """How many operands `cls` takes when `make` may build it with `Operation.__init__`:
    single operands only, one single result, no regions, successors or segment sizes
    (IRDL's generic argument lists, half the cost of building an op, then only count
    what is known). None for the other ops, built by `build`."""
    op_def = cls.get_irdl_definition()
    if op_def.regions or op_def.successors or op_def.options or len(op_def.results) != 1:
        return None
    if isinstance(op_def.results[0][1], VariadicDef):
        return None
    if any(isinstance(d, VariadicDef) for _, d in op_def.operands):
        return None
    return len(op_def.operands)


class RelayOp(IRDLOperation):
    """Base class of relay tensor ops: custom syntax, inference-based verifier."""

    TYPE_DIRECTED: ClassVar[bool] = False
    """True for ops whose result type is not a function of the operands alone."""

    VERIFY_BY_SIGNATURE: ClassVar[bool] = True
    """The verifier reads only the op's class, operand and result types, properties and
    attributes, so an op of a signature that verified once verifies (`verify_cache.py`).
    An op whose `verify_` reads more (its regions, its operands' producers) sets False."""

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        """Result types from operand types and properties; raises RelayTypeError."""
        raise NotImplementedError(f"{cls.name} does not implement type inference")

    @classmethod
    def default_properties(cls) -> dict[str, Attribute]:
        """The properties that have a default value, with that value."""
        out: dict[str, Attribute] = {}
        for name, prop in cls.get_irdl_definition().properties.items():
            if prop.default_value is not None and not isinstance(prop, OptionalDef):
                out[name] = prop.default_value
        return out

    @classmethod
    def inferred_type(cls, operand_types: Sequence[Attribute], props: Props) -> Attribute:
        """The one result type on these operand types (defaults filled in for `props`).

        RelayTypeError names the op and the operand types if they do not fit.
        """
        key: _InferKey | None = None
        if all(isinstance(t, TensorType) for t in operand_types) and not any(
            isinstance(v, DenseIntOrFPElementsAttr) for v in props.values()
        ):
            # Not for constants' values (the table would keep large weights alive), nor for
            # tuple types (hashing a deeply nested one recurses as deep as it is nested).
            key = (cls, tuple(operand_types), frozenset(props.items()))
            cached = _INFERRED.get(key)
            if cached is not None:
                return cached
        merged = cls.default_properties() | dict(props)
        try:
            (result,) = cls.infer_result_types(operand_types, merged)
        except RelayTypeError as error:
            shown = ", ".join(str(t) for t in operand_types)
            raise RelayTypeError(
                f"'{cls.name}' {error.args[0]}; operand types: ({shown})"
            ) from None
        if key is not None:
            if len(_INFERRED) >= _INFERRED_MAX:
                _INFERRED.clear()
            _INFERRED[key] = result
        return result

    @classmethod
    def make(
        cls,
        operands: Sequence[SSAValue],
        properties: Props | None = None,
        attributes: Props | None = None,
    ) -> Self:
        """A new op on `operands`, its result type inferred: how passes build relay ops."""
        props = dict(properties or {})
        result_type = cls.inferred_type([v.type for v in operands], props)
        return cls.make_typed(operands, result_type, props, attributes)

    @classmethod
    def make_typed(
        cls,
        operands: Sequence[SSAValue],
        result_type: Attribute,
        properties: Props | None = None,
        attributes: Props | None = None,
    ) -> Self:
        """A new op on `operands` with the result type the caller has inferred."""
        props = dict(properties or {})
        if fixed_arity(cls) == len(operands):
            op = cls.__new__(cls)
            Operation.__init__(
                op,
                operands=operands,
                result_types=(result_type,),
                properties=props,
                attributes=dict(attributes or {}),
            )
            return op
        return cls.build(
            operands=cls.group_operands(operands),
            result_types=[result_type],
            properties=props,
            attributes=dict(attributes or {}),
        )

    def verify_(self) -> None:
        self.verify_sizes()
        inferred = self.infer_result_types([o.type for o in self.operands], dict(self.properties))
        actual = tuple(r.type for r in self.results)
        if len(inferred) != len(actual) or not all(
            types_compatible(a, e) for a, e in zip(actual, inferred, strict=True)
        ):
            shown_inferred = ", ".join(str(t) for t in inferred)
            shown_actual = ", ".join(str(t) for t in actual)
            raise VerifyException(
                f"inferred type(s) '{shown_inferred}' are incompatible with "
                f"return type(s) of operation '{shown_actual}'"
            )

    def verify_sizes(self) -> None:
        """Every operand and result type must be able to exist (`sizes.py`: at most 2^63-1
        bytes); before type inference, which must not build shapes that large."""
        single = len(self.results) == 1
        for what, values in (("operand", self.operands), ("result", self.results)):
            for index, value in enumerate(values):
                label = what if what == "result" and single else f"{what} #{index}"
                problem = type_size_problem(label, value.type)
                if problem is not None:
                    raise VerifyException(problem)

    # ----------------------------------------------------------------- syntax

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved: list[UnresolvedOperand] = []
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            unresolved.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                unresolved.append(parser.parse_unresolved_operand())
        entries = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        operand_types, result_types = parse_signature(parser)
        if operand_types is None:
            operand_types = result_types[:1] * len(unresolved)
        if len(operand_types) != len(unresolved):
            parser.raise_error(
                f"expected {len(unresolved)} operand types, got {len(operand_types)}",
                pos,
                parser.pos,
            )
        operands = [
            parser.resolve_operand(u, t) for u, t in zip(unresolved, operand_types, strict=True)
        ]
        cls.check_operand_count(len(operands))
        properties, attributes = coerce_properties(cls, entries)
        return cls.build(
            operands=cls.group_operands(operands),
            result_types=list(result_types),
            properties=properties,
            attributes=attributes,
        )

    @classmethod
    def check_operand_count(cls, count: int) -> None:
        """Reject a wrong number of operands with a message naming the op."""
        defs = cls.get_irdl_definition().operands
        fixed = sum(1 for _, d in defs if not isinstance(d, VarOperandDef))
        variadic = len(defs) != fixed
        if count != fixed and not (variadic and count >= fixed):
            want = f"at least {fixed}" if variadic else str(fixed)
            raise VerifyException(f"'{cls.name}' op expected {want} operands, got {count}")

    @classmethod
    def group_operands(cls, operands: Sequence[SSAValue]) -> list[SSAValue | list[SSAValue]]:
        """Split a flat operand list over the op's operand definitions."""
        defs = cls.get_irdl_definition().operands
        variadic = [i for i, (_, d) in enumerate(defs) if isinstance(d, VarOperandDef)]
        if not variadic:
            return list(operands)
        (index,) = variadic  # relay ops have at most one variadic operand
        tail = len(defs) - index - 1
        end = len(operands) - tail
        return [
            *operands[:index],
            list(operands[index:end]),
            *operands[end:],
        ]

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_tail(printer, self, self.print_tail)

    def print_tail(self, printer: Printer) -> None:
        """What follows the operands: ` {props} : types` (`print_cache.py` reuses it)."""
        self.print_properties_and_attributes(printer)
        printer.print_string(" : ")
        operand_types = [o.type for o in self.operands]
        result_types = [r.type for r in self.results]
        if len(result_types) == 1 and all(t == result_types[0] for t in operand_types):
            printer.print_attribute(result_types[0])
            return
        printer.print_string("(")
        printer.print_list(operand_types, printer.print_attribute)
        printer.print_string(") -> ")
        if len(result_types) == 1:
            printer.print_attribute(result_types[0])
        else:
            printer.print_string("(")
            printer.print_list(result_types, printer.print_attribute)
            printer.print_string(")")

    def print_properties_and_attributes(self, printer: Printer) -> None:
        """Print `{...}`: non-default properties, then discardable attributes."""
        defaults = self.default_properties()
        entries: list[tuple[str, Attribute, bool]] = []
        for name, value in ordered_properties(self).items():
            if defaults.get(name) != value:
                entries.append((name, value, True))
        for name, value in self.attributes.items():
            entries.append((name, value, False))
        if not entries:
            return

        def print_entry(entry: tuple[str, Attribute, bool]) -> None:
            name, value, is_property = entry
            printer.print_identifier_or_string_literal(name)
            printer.print_string(" = ")
            if is_property:
                print_relay_value(printer, value)
            else:
                printer.print_attribute(value)

        printer.print_string(" {")
        printer.print_list(entries, print_entry)
        printer.print_string("}")
