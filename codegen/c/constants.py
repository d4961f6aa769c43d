"""Constant tensors as binary data: one `.bin` file, included by the assembler with `.incbin`.

`ConstantPool.symbol(op)` gives a `relay.constant` a C symbol (identical
bytes share one); `data()` is the data file and `definitions()` the C that
defines every symbol with GNU assembler directives (`.incbin "constants.bin", offset,
size` after `.balign 64`, each symbol `.hidden`), so megabytes of weights
never become C text, and the compiler never parses them. ELF targets only
(Linux): the directives are GNU as / LLVM integrated-assembler syntax.
`splat(op)` gives the one value of a constant whose elements are all equal
(byte for byte), which elementwise code writes as a C literal instead.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from xrelay.codegen.c.kernel_api import leaf_types, numel, scalar, static_shape
from xrelay.codegen.c.names import NameTable
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_to_numpy

DATA_FILE = "constants.bin"
"""The name of the data file among the sources."""

ALIGNMENT = 64
"""Every constant starts at a multiple of this many bytes."""


@dataclass(frozen=True)
class Entry:
    """One constant's symbol and where its bytes are in the data file."""

    symbol: str
    ctype: str
    count: int
    offset: int
    size: int


class ConstantPool:
    """The constants a module's C reads through pointers, as symbols over one data file."""

    def __init__(self, names: NameTable) -> None:
        self._names = names
        self._by_op: dict[ConstantOp, str] = {}
        self._by_bytes: dict[tuple[str, bytes], str] = {}
        self._splats: dict[ConstantOp, float | int | None] = {}
        self.entries: list[Entry] = []
        self._data = bytearray()

    def symbol(self, op: ConstantOp) -> str:
        """The C symbol holding `op`'s elements (an array of its element type)."""
        if op in self._by_op:
            return self._by_op[op]
        (type_,) = leaf_types(op.result.type)
        element = scalar(type_)
        data = _bytes(_array(op))
        key = (element.ctype, hashlib.sha256(data).digest())
        symbol = self._by_bytes.get(key)
        if symbol is None:
            symbol = self._names.unique(str(len(self.entries)), "xc_")
            count = numel(static_shape(type_))
            self.entries.append(Entry(symbol, element.ctype, count, len(self._data), len(data)))
            self._data += data
            self._by_bytes[key] = symbol
        self._by_op[op] = symbol
        return symbol

    def splat(self, op: ConstantOp) -> float | int | None:
        """The single value of a constant whose elements are all the same bytes, else None."""
        if op not in self._splats:
            array = _array(op)
            value: float | int | None = None
            if array.size:
                flat = np.ascontiguousarray(array).reshape(-1)
                rows = flat.view(np.uint8).reshape(flat.size, -1)
                if bool(np.all(rows == rows[0])):
                    value = flat[0].item()
            self._splats[op] = value
        return self._splats[op]

    def declarations(self) -> list[str]:
        """C declarations of every symbol (for the shared header)."""
        return [
            f"extern XR_HIDDEN const {e.ctype} {e.symbol}[{max(e.count, 1)}];" for e in self.entries
        ]

    def data(self) -> bytes:
        """The contents of `constants.bin`: every constant's bytes, back to back."""
        return bytes(self._data)

    def definitions(self) -> list[str]:
        """C lines defining every symbol over `constants.bin` (a top-level `__asm__`)."""
        if not self.entries:
            return []
        lines = [
            f"/* The constants, assembled from {DATA_FILE} (binary data, never C text). */",
            "__asm__(",
            # The digest keeps compiler caches (ccache hashes preprocessed C, not .incbin
            # files) from reusing an object built over other data.
            f'    "# {DATA_FILE} sha256 {hashlib.sha256(self._data).hexdigest()}\\n"',
            '    ".pushsection .rodata.xrelay_constants,\\"a\\",@progbits\\n"',
        ]
        for e in self.entries:
            data = f'.incbin \\"{DATA_FILE}\\", {e.offset}, {e.size}' if e.size else ".byte 0"
            lines += [
                f'    ".balign {ALIGNMENT}\\n"',
                f'    ".globl {e.symbol}\\n"',
                f'    ".hidden {e.symbol}\\n"',
                f'    ".type {e.symbol}, @object\\n"',
                f'    ".size {e.symbol}, {max(e.size, 1)}\\n"',
                f'    "{e.symbol}:\\n"',
                f'    "{data}\\n"',
            ]
        lines.append('    ".popsection\\n");')
        return lines


def _array(op: ConstantOp) -> np.ndarray[Any, Any]:
    return np.asarray(dense_to_numpy(op.value))


def _bytes(array: np.ndarray[Any, Any]) -> bytes:
    """Little-endian element bytes (booleans as one byte, 0 or 1)."""
    if array.dtype == np.bool_:
        array = array.astype(np.uint8)
    return np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
