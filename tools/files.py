"""Input and output files: `--split-input-file` chunks, and `-o` written atomically."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xrelay.passes.transaction import write_atomically

__all__ = ["SPLIT_MARKER", "Chunk", "split_input", "write_atomically"]

SPLIT_MARKER = "// -----"
"""The line that separates chunks in the input (`--split-input-file`) and in the output."""

_SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)


@dataclass(frozen=True)
class Chunk:
    """One piece of the input (`--split-input-file`): its text and the lines before it."""

    text: str
    line_offset: int
    """How many lines of the file precede `text`: its first line is line `line_offset + 1`."""


def split_input(text: str) -> list[Chunk]:
    """Split on `// -----` lines, keeping each chunk's line offset in the file."""
    chunks: list[Chunk] = []
    start = 0
    for match in _SPLIT.finditer(text):
        chunks.append(Chunk(text[start : match.start()], text.count("\n", 0, start)))
        start = match.end()
    chunks.append(Chunk(text[start:], text.count("\n", 0, start)))
    return chunks
