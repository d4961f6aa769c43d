"""Input and output files: `--split-input-file` chunks, and `-o` written atomically."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from dataclasses import dataclass

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


def write_atomically(path: str, text: str) -> None:
    """Replace `path` by `text` all at once: a failed write leaves the old file as it was.

    The text goes to a temporary file in the same directory, which is renamed
    over the target (keeping the target's permissions, or the umask's for a
    new file). Symlinks are written through; devices and pipes (`/dev/null`,
    `/dev/stdout`) are written directly, never replaced.
    """
    real = os.path.realpath(path)
    try:
        mode: int | None = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(real, "w", encoding="utf-8") as stream:
            stream.write(text)
        return
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(
        dir=os.path.dirname(real), prefix=f".{os.path.basename(real)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
