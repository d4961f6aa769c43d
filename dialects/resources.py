"""Large constants in text, MLIR's way: `dense_resource<name>` and elided constants.

A constant printed as `dense_resource<w> : tensor<64x3x7x7xf32>` keeps its bytes
in the file's trailing resource section, as MLIR prints it:

    {-#
      dialect_resources: {
        builtin: {
          w: "0x04000000..."
        }
      }
    #-}

A blob is hex: a 4-byte little-endian alignment (the element size), then the
raw little-endian elements. `split_resources` takes that section off the text
before the op parser sees it (a linear regex scan and one `bytes.fromhex`,
about a second for 100 MB), so that `dense_resource<w>` reads straight into an
ordinary dense constant: every pass, the interpreter and the code generators see
the same `DenseIntOrFPElementsAttr` as for `dense<...>`.

`dense_resource<__elided__>` is MLIR's elided constant (what
`--elide-constants-if-larger N` prints): it parses and verifies with its type,
but holds no value (`is_elided`); computing with it is an `ElidedConstantError`.
"""

from __future__ import annotations

import math
import re
import struct
import weakref
from dataclasses import dataclass
from typing import Any, NoReturn, cast

from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation
from xrelay.dialects.walk import walk_ops

ELIDED = "__elided__"
"""The handle MLIR prints for a constant whose value was left out of the text."""

RESOURCE_NAMES: weakref.WeakKeyDictionary[DenseIntOrFPElementsAttr, str] = (
    weakref.WeakKeyDictionary()
)
"""The handle a value was read under, so that it prints back as `dense_resource<that name>`."""

_SECTION_START = re.compile(r"\{-#")
_KEY = r"[A-Za-z_][A-Za-z0-9_.$]*"
_NAME = re.compile(_KEY)
_HEX_BODY = re.compile(r"[0-9a-fA-F]*")


class ElidedConstantError(ValueError):
    """A computation needs the value of a constant that was elided from the text."""


@dataclass(frozen=True)
class Blob:
    """One resource: its bytes (without the alignment prefix), alignment, and text offset."""

    data: bytes
    alignment: int
    offset: int


@dataclass
class ResourceError(Exception):
    """A malformed resource section, at `offset` in the text."""

    offset: int
    message: str


def is_elided(attr: DenseIntOrFPElementsAttr) -> bool:
    """Whether `attr` is an elided constant: a non-empty type and no bytes."""
    return not attr.data.data and math.prod(attr.get_shape()) > 0


def elided(type_: TensorType[Any]) -> DenseIntOrFPElementsAttr:
    """The elided constant of a tensor type (a dense attribute with no bytes)."""
    return DenseIntOrFPElementsAttr(type_, BytesAttr(b""))


def elided_error(what: str = "this computation") -> ElidedConstantError:
    """The error for using an elided constant's value."""
    return ElidedConstantError(
        f"a constant elided from the text (dense_resource<{ELIDED}>) has no value: "
        f"{what} needs it; print without --elide-constants-if-larger"
    )


def alignment_hex(alignment: int) -> str:
    """A blob's prefix: its alignment as 4 little-endian bytes, in hex."""
    return struct.pack("<I", alignment).hex().upper()


def blob_text(data: bytes, alignment: int) -> str:
    """A blob as MLIR prints it: `0x`, the alignment (4 bytes, little endian), the bytes."""
    return "0x" + alignment_hex(alignment) + data.hex().upper()


# ------------------------------------------------------------------- reading


def split_resources(text: str) -> tuple[str, dict[str, Blob]]:
    """The text without its trailing `{-# ... #-}` section, and the blobs it declares.

    The section must be the last thing in the text but comments and blank
    space, as MLIR prints it. `ResourceError` (with an offset in `text`) for a
    malformed section, bad hex, or a blob too short for its alignment prefix.
    """
    start = text.rfind("{-#")
    if start < 0 or not _SECTION_START.match(text, start):
        return text, {}
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if "//" in before or '"' in before:  # inside a comment or a string: no section
        return text, {}
    reader = _SectionReader(text, start + 3)
    blobs = reader.read()
    return text[:start], blobs


@dataclass
class _SectionReader:
    """Reads `dialect_resources: { builtin: { key: "0x...", ... } } #-}` from `pos`."""

    text: str
    pos: int

    def read(self) -> dict[str, Blob]:
        blobs: dict[str, Blob] = {}
        self.skip()
        while not self.text.startswith("#-}", self.pos):
            group_at = self.pos
            group = self.name("a resource kind (dialect_resources)")
            if group != "dialect_resources":
                message = f"unsupported resource kind '{group}' (only dialect_resources)"
                raise ResourceError(group_at, message)
            self.expect(":")
            self.expect("{")
            while not self.optional("}"):
                dialect_at = self.pos
                dialect = self.name("a dialect name")
                if dialect != "builtin":
                    message = f"resources of dialect '{dialect}' are not supported (only builtin)"
                    raise ResourceError(dialect_at, message)
                self.expect(":")
                self.expect("{")
                while not self.optional("}"):
                    key_at = self.pos
                    key = self.name("a resource name")
                    self.expect(":")
                    if key in blobs:
                        raise ResourceError(key_at, f"resource '{key}' is defined twice")
                    blobs[key] = self.blob()
                    self.optional(",")
                self.optional(",")
            self.optional(",")
        self.pos += 3
        self.skip()
        if self.pos < len(self.text):
            self.fail("expected nothing after the resource section")
        return blobs

    def blob(self) -> Blob:
        if not self.text.startswith('"0x', self.pos):
            self.fail('expected a hex blob "0x..."')
        begin = self.pos + 3
        match = _HEX_BODY.match(self.text, begin)
        end = match.end() if match else begin
        if not self.text.startswith('"', end):
            raise ResourceError(end, "expected a hexadecimal digit or the closing '\"' of the blob")
        digits = end - begin
        if digits % 2:
            raise ResourceError(begin, f"resource blob has an odd number of hex digits ({digits})")
        if digits < 8:
            raise ResourceError(begin, "resource blob is shorter than its 4-byte alignment prefix")
        (alignment,) = struct.unpack("<I", bytes.fromhex(self.text[begin : begin + 8]))
        if alignment == 0 or alignment & (alignment - 1):
            raise ResourceError(begin, f"resource alignment {alignment} is not a power of two")
        data = bytes.fromhex(self.text[begin + 8 : end])
        self.pos = end + 1
        self.skip()
        return Blob(data, alignment, self.pos)

    def skip(self) -> None:
        while True:
            while self.pos < len(self.text) and self.text[self.pos].isspace():
                self.pos += 1
            if not self.text.startswith("//", self.pos):
                return
            newline = self.text.find("\n", self.pos)
            self.pos = len(self.text) if newline < 0 else newline

    def name(self, what: str) -> str:
        match = _NAME.match(self.text, self.pos)
        if match is None:
            self.fail(f"expected {what}")
        self.pos = match.end()
        self.skip()
        return match.group()

    def expect(self, punctuation: str) -> None:
        if not self.optional(punctuation):
            self.fail(f"expected '{punctuation}' in the resource section")

    def optional(self, punctuation: str) -> bool:
        if not self.text.startswith(punctuation, self.pos):
            return False
        self.pos += len(punctuation)
        self.skip()
        return True

    def fail(self, message: str) -> NoReturn:
        raise ResourceError(self.pos, message)


def is_resource_name(name: str) -> bool:
    """Whether `name` prints bare as a resource handle."""
    return _NAME.fullmatch(name) is not None


def resource_name(hint: str | None) -> str:
    """A valid resource handle made from a value's name hint."""
    if not hint:
        return "blob"
    name = re.sub(r"[^A-Za-z0-9_.$]", "_", hint)
    return name if _NAME.fullmatch(name) and name != ELIDED else f"_{name}"


def elided_ops(root: Operation) -> list[Operation]:
    """The ops under `root` (included) that hold an elided constant in a property."""
    return [
        op
        for op in walk_ops(root)
        if any(
            isinstance(value, DenseIntOrFPElementsAttr)
            and is_elided(cast(DenseIntOrFPElementsAttr[Any], value))
            for value in op.properties.values()
        )
    ]
