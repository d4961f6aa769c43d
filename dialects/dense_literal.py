"""Dense literals (`dense<...>`) read fast and exactly, and printed so they read back the same.

MLIR's rules, for every float type relay supports (f16, bf16, f32, f64): a hexadecimal
integer in a float literal is the element's bit pattern (`0x7FC00000` is f32's
NaN), so NaN and ±Inf print that way; finite values print as decimals that read
back to the same bits (-0.0 and subnormals included); a finite decimal out of
the type's range is an error, as is an integer out of its type's range.

Reading: `scan_literal` splits a well-formed literal with regular expressions
(no Python work per bracket), and `literal_bytes` converts its tokens with
numpy; both are linear and iterative, so a 10^6-element literal takes about a
second and deep brackets cannot exhaust Python's stack. Anything else is left to
xDSL's recursive reader, which reports the syntax error.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, cast

import ml_dtypes
import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer
from xrelay.dialects import resources
from xrelay.dialects.property_order import ordered_properties

_TOKEN = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?)|true|false")
"""One element: a hex or decimal integer, a float (MLIR needs its `.`) or a boolean."""

_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?")
_INTEGER = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+)")

_TOKEN_SPLIT = re.compile(f"({_TOKEN.pattern})")

_FLOATS: dict[type[Attribute], tuple[str | np.dtype[Any], str]] = {
    Float16Type: ("<f2", "<u2"),
    # ml_dtypes' bfloat16 has the host's (little) byte order. Not relay.types.BFLOAT16:
    # this module sits below the relay dialect, which prints its literals with it.
    BFloat16Type: (np.dtype(ml_dtypes.bfloat16), "<u2"),
    Float32Type: ("<f4", "<u4"),
    Float64Type: ("<f8", "<u8"),
}
_INT_WIDTHS = (1, 8, 16, 32, 64)

_MAX_LISTED = 100
"""Constants with more elements print as one hex blob (`dense<"0x...">`), as in xDSL."""


@dataclass
class LiteralError(Exception):
    """Element `index` of a literal cannot be read as its element type."""

    index: int
    message: str


def is_exact_type(element_type: Attribute) -> bool:
    """Whether this module reads and prints the element type (else xDSL does)."""
    integer = _integer(element_type)
    if integer is not None:
        return integer[0] in _INT_WIDTHS
    return type(element_type) in _FLOATS


def _integer(element_type: Attribute) -> tuple[int, Signedness] | None:
    """The width and signedness of an integer type, None for other types."""
    if not isinstance(element_type, IntegerType):
        return None
    integer = cast(IntegerType[int, Signedness], element_type)
    return integer.width.data, integer.signedness.data


# ----------------------------------------------------------------- reading


def scan_literal(text: str, start: int) -> tuple[list[str], list[int] | None, int] | None:
    """The tokens, shape (None for a splat) and end of the literal at `text[start:]`.

    The end is the position of the `>` that closes `dense<`. None when the
    literal is not a plain well-formed one (a syntax error, a comment, complex
    numbers, a space after `-`): the caller then reads it the slow way.
    """
    end = text.find(">", start)
    if end < 0:
        return None
    body = text[start:end]
    if "/" in body or '"' in body or "(" in body:
        return None
    # One pass: the separators and the elements alternate.
    parts = _TOKEN_SPLIT.split(body)
    tokens = parts[1::2]
    skeleton = "".join("x".join(parts[0::2]).split())
    if skeleton == "x":
        return tokens, None, end
    shape = _shape_of(skeleton)
    if shape is None or _skeleton(shape) != skeleton:
        return None
    return tokens, shape, end


def _shape_of(skeleton: str) -> list[int] | None:
    """The shape a skeleton (`[[x,x],[x,x]]`) would have if well formed (checked by the caller)."""
    rank = len(skeleton) - len(skeleton.lstrip("["))
    if rank == 0:
        return None
    inner_end = skeleton.find("]")
    inner = skeleton[rank - 1 : inner_end + 1]
    if inner_end < 0 or "[" in inner[1:]:
        return None
    dims = [inner.count("x")]
    group_length = len(inner)
    for level in range(rank - 2, -1, -1):
        # The first group at `level` ends at the first run of rank - level `]`s.
        closing = skeleton.find("]" * (rank - level), level)
        if closing < 0:
            return None
        length = closing + rank - level - level
        count = (length - 2 + 1) // (group_length + 1)
        dims.insert(0, count)
        group_length = length
    return dims


def _skeleton(shape: list[int]) -> str:
    """The skeleton of a well-formed literal of `shape`, built from the inside out."""
    group = "[" + ",".join(["x"] * shape[-1]) + "]"
    for dim in reversed(shape[:-1]):
        group = "[" + ",".join([group] * dim) + "]"
    return group


def token_span(text: str, start: int, end: int, index: int) -> tuple[int, int]:
    """Start and end offsets of token `index` of the literal `text[start:end]`."""
    for i, match in enumerate(_TOKEN.finditer(text, start, end)):
        if i == index:
            return match.start(), match.end()
    return start, start


def literal_depth(text: str, start: int) -> int:
    """The deepest bracket nesting in the text from `start` up to the next `>`."""
    end = text.find(">", start)
    depth = deepest = 0
    for match in re.finditer(r"[\[\]]", text[start : end if end >= 0 else len(text)]):
        depth += 1 if match.group() == "[" else -1
        deepest = max(deepest, depth)
    return deepest


def literal_bytes(tokens: list[str], element_type: Attribute) -> bytes:
    """The little-endian bytes of `tokens` as `element_type`, or LiteralError."""
    integer = _integer(element_type)
    if integer is not None:
        return _int_bytes(tokens, cast(IntegerType[int, Signedness], element_type), *integer)
    return _float_bytes(tokens, element_type)


INDEX_RANGE = (-(1 << 63), 1 << 63)
"""The values an `index` element holds (64 bits, as MLIR's data layout on 64-bit hosts)."""


def check_index_range(tokens: list[str]) -> bytes:
    """LiteralError for a decimal integer an `index` element cannot hold (xDSL reads the
    rest, and reports what is not an integer); nothing to return."""
    low, high = INDEX_RANGE
    for index, token in enumerate(tokens):
        try:
            value = int(token)
        except ValueError:
            continue
        if not low <= value < high:
            raise LiteralError(index, f"integer {token} is out of range for index [{low}, {high})")
    return b""


def _float_bytes(tokens: list[str], element_type: Attribute) -> bytes:
    float_dtype, bits_dtype = _FLOATS[type(element_type)]
    try:
        wide = np.array(tokens, dtype=np.float64)
        patterns: dict[int, int] = {}
    except ValueError:  # bit patterns or booleans among the decimals
        wide, patterns = _mixed_floats(tokens, np.dtype(bits_dtype).itemsize * 8)
    with np.errstate(over="ignore"):
        narrow = wide.astype(float_dtype)
    overflow = np.isinf(narrow)
    if patterns:
        overflow[list(patterns)] = False
        narrow.view(bits_dtype)[list(patterns)] = list(patterns.values())
    if overflow.any():
        index = int(np.argmax(overflow))
        message = f"float literal {tokens[index]} is out of range for {element_type}"
        raise LiteralError(index, message)
    return narrow.tobytes()


def _mixed_floats(tokens: list[str], bits: int) -> tuple[npt.NDArray[np.float64], dict[int, int]]:
    """Decimals as float64, and the bit patterns by index (their float64 slot is 0)."""
    wide = np.zeros(len(tokens), dtype=np.float64)
    patterns: dict[int, int] = {}
    for index, token in enumerate(tokens):
        if "x" in token:
            if token.startswith("-"):
                message = "hexadecimal float literal should not have a leading minus"
                raise LiteralError(index, message)
            pattern = int(token, 16)
            if pattern >> bits:
                message = f"hexadecimal float constant {token} is wider than {bits} bits"
                raise LiteralError(index, message)
            patterns[index] = pattern
        elif token in ("true", "false") or not _DECIMAL.fullmatch(token):
            raise LiteralError(index, f"expected a float literal, got '{token}'")
        else:
            wide[index] = float(token)
    return wide, patterns


def _int_bytes(
    tokens: list[str],
    element_type: IntegerType[int, Signedness],
    width: int,
    signedness: Signedness,
) -> bytes:
    try:
        values = [int(token) for token in tokens]
    except ValueError:  # hex, booleans or floats among them
        values = [_int_token(i, t, width) for i, t in enumerate(tokens)]
    if not values:
        return b""
    low, high = element_type.value_range()
    if signedness == Signedness.SIGNED:
        high = 1 << (width - 1)
    if min(values) < low or max(values) >= high:
        index = next(i for i, v in enumerate(values) if not low <= v < high)
        raise LiteralError(
            index, f"integer {tokens[index]} is out of range for {element_type} [{low}, {high})"
        )
    if width == 1:
        return np.array(values, dtype=np.int8).tobytes()
    if signedness == Signedness.UNSIGNED:
        return np.array(values, dtype=f"<u{width // 8}").tobytes()
    if high > 1 << (width - 1) and max(values) >= 1 << (width - 1):  # signless: wrap the top half
        values = [v - (1 << width) if v >= 1 << (width - 1) else v for v in values]
    return np.array(values, dtype=f"<i{width // 8}").tobytes()


def _int_token(index: int, token: str, width: int) -> int:
    if token in ("true", "false"):
        if width != 1:
            raise LiteralError(index, "boolean values are only allowed for i1")
        return int(token == "true")
    if not _INTEGER.fullmatch(token):
        raise LiteralError(index, f"expected an integer literal, got {token}")
    return int(token, 16) if "x" in token else int(token)


# ---------------------------------------------------------------- printing


def print_dense(printer: Printer, attr: DenseIntOrFPElementsAttr) -> None:
    """Print `dense<...> : type` so that it reads back to the same bytes."""
    element_type: Attribute = attr.get_element_type()
    if not is_exact_type(element_type):
        printer.print_attribute(attr)
        return
    if isinstance(printer, ExactPrinter) and printer.print_resource(attr):
        return
    data = attr.data.data
    size = element_size(element_type)
    count = len(data) // size
    if count == 0:
        body = ""
    elif data == data[:size] * count:
        body = _elements(data[:size], element_type)[0]
    elif count > _MAX_LISTED:
        body = f'"0x{data.hex().upper()}"'
    else:
        items = _elements(data, element_type)
        shape = list(attr.get_shape())
        if len(shape) == 0 or shape.count(0) or len(items) != int(np.prod(shape)):
            shape = [len(items)]
        for dim in reversed(shape[1:]):
            items = [", ".join(items[i : i + dim]) for i in range(0, len(items), dim)]
            items = [f"[{item}]" for item in items]
        body = "[" + ", ".join(items) + "]"
    printer.print_string(f"dense<{body}> : ")
    printer.print_attribute(attr.type)


def element_size(element_type: Attribute) -> int:
    """Bytes per element of an exact type in dense data (i1 takes a byte)."""
    integer = _integer(element_type)
    if integer is not None:
        return max(1, integer[0] // 8)
    return np.dtype(_FLOATS[type(element_type)][0]).itemsize


def _elements(data: bytes, element_type: Attribute) -> list[str]:
    integer = _integer(element_type)
    if integer is not None:
        width, signedness = integer
        if width == 1:
            return ["false" if v == 0 else "true" for v in np.frombuffer(data, dtype=np.int8)]
        unsigned = signedness == Signedness.UNSIGNED
        dtype = f"<{'u' if unsigned else 'i'}{width // 8}"
        return [str(int(v)) for v in np.frombuffer(data, dtype=dtype)]
    float_dtype, bits_dtype = _FLOATS[type(element_type)]
    values = np.frombuffer(data, dtype=float_dtype)
    patterns = np.frombuffer(data, dtype=bits_dtype)
    digits = np.dtype(bits_dtype).itemsize * 2
    return [
        _float_text(float(v), float_dtype) if np.isfinite(v) else f"0x{int(p):0{digits}X}"
        for v, p in zip(values, patterns, strict=True)
    ]


def _float_text(value: float, float_dtype: str | np.dtype[Any]) -> str:
    """A decimal that reads back as `value` in `float_dtype`: 6 digits if enough, else shortest."""
    six = f"{value:.5e}".replace("e", "0e")  # xDSL's and MLIR's usual form, 1.500000e+00
    if _reads_back(six, value, float_dtype):
        return six
    if float_dtype != "<f8":
        text = np.format_float_scientific(np.dtype(float_dtype).type(value), unique=True)
        mantissa, _, exponent = text.partition("e")
        text = mantissa + ("0" if mantissa.endswith(".") else "") + "e" + exponent
        if _reads_back(text, value, float_dtype):
            return text
    text = repr(value)  # float64's shortest: exact for every narrower float too
    return text if "." in text else text.replace("e", ".0e")


def _reads_back(text: str, value: float, float_dtype: str | np.dtype[Any]) -> bool:
    parsed = np.array(float(text)).astype(float_dtype)
    return parsed.tobytes() == np.array(value).astype(float_dtype).tobytes()


@dataclass(eq=False, repr=False)
class ExactPrinter(Printer):
    """xDSL's printer, except that dense elements of relay's types print exactly in any form.

    xDSL prints them from Python floats (a NaN's payload may change) and calls a
    list a splat when its values compare equal (`[0.0, -0.0]` became `0.0`); the
    custom form of `relay.constant` prints with `print_dense`, and this printer
    does the same for the generic form (`--print-op-generic`).

    Large constants (MLIR's way, see `resources.py`): with `elide_if_larger`
    N, a constant of more than N elements (not a splat) prints as
    `dense_resource<__elided__>`; with `resources_if_larger` N, as
    `dense_resource<name>` with its bytes in a `{-# dialect_resources #-}`
    section printed after the outermost op (a value read from a
    `dense_resource` prints so again, under its name, whatever N).
    """

    elide_if_larger: int | None = None
    resources_if_larger: int | None = None
    _blobs: dict[str, DenseIntOrFPElementsAttr] = field(
        default_factory=dict[str, DenseIntOrFPElementsAttr]
    )
    _names: dict[int, str] = field(default_factory=dict[int, str])
    _hint: str | None = None
    _op_depth: int = 0
    _generic_op: Operation | None = None

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr):
            dense = cast(DenseIntOrFPElementsAttr[Any], attribute)
            if is_exact_type(dense.get_element_type()):
                print_dense(self, dense)
                return
        super().print_attribute(cast(Attribute, attribute))

    def print_op_with_default_format(self, op: Operation) -> None:
        self._generic_op = op
        super().print_op_with_default_format(op)

    def _print_op_properties(self, properties: dict[str, Attribute]) -> None:
        # The generic form's `<{...}>` in the definition's order (`property_order.py`).
        op = self._generic_op
        if op is not None and properties is op.properties:
            properties = dict(ordered_properties(op))
        super()._print_op_properties(properties)

    def print_op(self, op: Operation) -> None:
        hint = self._hint
        self._hint = op.results[0].name_hint if len(op.results) == 1 else None
        self._op_depth += 1
        try:
            super().print_op(op)
        finally:
            self._op_depth -= 1
            self._hint = hint
        if self._op_depth == 0:
            self.print_resource_section()

    def print_resource(self, attr: DenseIntOrFPElementsAttr) -> bool:
        """Print `attr` as a `dense_resource` if the options say so; whether it did."""
        if resources.is_elided(attr) or self._large(attr, self.elide_if_larger):
            name = resources.ELIDED
        else:
            name = resources.RESOURCE_NAMES.get(attr) if resources.RESOURCE_NAMES else None
            if name is None and not self._large(attr, self.resources_if_larger):
                return False
            name = self._blob_name(attr, name)
        self.print_string(f"dense_resource<{name}> : ")
        self.print_attribute(attr.type)
        return True

    def _large(self, attr: DenseIntOrFPElementsAttr, limit: int | None) -> bool:
        """Whether `attr` has more than `limit` elements and is not a splat."""
        if limit is None:
            return False
        data = attr.data.data
        size = element_size(attr.get_element_type())
        count = len(data) // size
        if count <= limit or count <= 1:
            return False
        first = data[:size]
        return data[size : 2 * size] != first or data != first * count

    def _blob_name(self, attr: DenseIntOrFPElementsAttr, name: str | None) -> str:
        """A handle for `attr` unique in this text (the same for the same attribute)."""
        known = self._names.get(id(attr))
        if known is not None:
            return known
        base = name or resources.resource_name(self._hint)
        name, counter = base, 0
        while name in self._blobs and self._blobs[name] != attr:
            name, counter = f"{base}_{counter}", counter + 1
        self._blobs[name] = attr
        self._names[id(attr)] = name
        return name

    def print_resource_section(self) -> None:
        """MLIR's `{-# dialect_resources: { builtin: {...} } #-}` for the blobs printed.

        Each blob is printed as pieces without newlines, so that the printer
        does not split a 200 MB string into lines.
        """
        if not self._blobs:
            return
        self.print_string("\n\n{-#\n  dialect_resources: {\n    builtin: {")
        for index, (name, attr) in enumerate(sorted(self._blobs.items())):
            self.print_string(",\n" if index else "\n")
            data, alignment = _blob(attr)
            self.print_string(f'      {name}: "0x{resources.alignment_hex(alignment)}')
            self.print_string(data.hex().upper())
            self.print_string('"')
        self.print_string("\n    }\n  }\n#-}")
        self._blobs.clear()
        self._names.clear()


def _blob(attr: DenseIntOrFPElementsAttr) -> tuple[bytes, int]:
    """A dense attribute's bytes (a splat stored once is expanded) and their alignment."""
    size = element_size(attr.get_element_type())
    data = attr.data.data
    count = math.prod(attr.get_shape())
    if len(data) == size and count != 1:
        data = data * count
    return data, size
