"""An indenting line writer for C text, and the index-expression helpers kernels share."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import contextmanager

from xrelay.codegen.c.scalars import INDEX


class CWriter:
    """Lines of C, two spaces per level (preprocessor lines at the margin); `block(head)` opens
    `head {` and closes it."""

    def __init__(self, depth: int = 0) -> None:
        self.lines: list[str] = []
        self.depth = depth

    def line(self, text: str) -> None:
        self.lines.append("  " * self.depth + text if text and text[0] != "#" else text)

    @contextmanager
    def block(self, head: str = "") -> Generator[None]:
        self.line(f"{head} {{" if head else "{")
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            self.line("}")

    @contextmanager
    def loop(self, var: str, extent: int | str, start: int | str = 0) -> Generator[None]:
        """`for (int64_t var = start; var < extent; ++var) { ... }`."""
        with self.block(f"for ({INDEX} {var} = {start}; {var} < {extent}; ++{var})"):
            yield

    @contextmanager
    def loops(self, names: Sequence[str], extents: Sequence[int]) -> Generator[None]:
        """Nested loops, outermost first."""
        if not names:
            yield
            return
        with self.loop(names[0], extents[0]), self.loops(names[1:], extents[1:]):
            yield

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def strides(shape: Sequence[int]) -> list[int]:
    """Row-major element strides of a shape."""
    out = [1] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        out[axis] = out[axis + 1] * shape[axis + 1]
    return out


def affine(terms: Sequence[tuple[str, int]], constant: int | str = 0) -> str:
    """`v0 * s0 + v1 * s1 + ... + constant` without zero terms and unit factors."""
    parts: list[str] = []
    for var, factor in terms:
        if factor == 0 or var == "0":
            continue
        simple = var.isidentifier() or var.isdigit()
        term = var if simple else f"({var})"
        parts.append(term if factor == 1 else f"{term} * {factor}")
    text = " + ".join(parts)
    if isinstance(constant, int) and constant < 0:
        return f"{text} - {-constant}" if text else str(constant)
    if constant not in (0, "0"):
        text = f"{text} + {constant}" if text else str(constant)
    return text or "0"


def offset(indices: Sequence[str], shape: Sequence[int]) -> str:
    """The row-major element offset of `indices` (C expressions) in a tensor of `shape`."""
    return affine(list(zip(indices, strides(shape), strict=True)))


def loop_names(prefix: str, rank: int) -> list[str]:
    """`j0, j1, ...`: one counter per dim."""
    return [f"{prefix}{axis}" for axis in range(rank)]


def copy_elements(
    w: CWriter, target: str, source: str, count: int, at: str = "0", start: str = "0"
) -> None:
    """`target[at + e] = source[start + e]` for `e < count` (a loop the compiler makes a memcpy;
    a `memcpy` call itself trips GCC 12's -Warray-bounds under UBSan's nonnull checks)."""
    if count <= 0:
        return
    dst = target if target.isidentifier() else f"({target})"
    src = source if source.isidentifier() else f"({source})"
    with w.loop("e", count):
        w.line(f"{dst}[{affine([(at, 1)], 'e')}] = {src}[{affine([(start, 1)], 'e')}];")
