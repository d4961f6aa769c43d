"""Where a value's storage is in generated C: a `Ref` per tensor leaf, a tuple tree per value."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeAlias

from xrelay.dialects.relay.structure import ConstantOp

PARAM, OUTPUT, ARENA, CONST = "param", "output", "arena", "const"


@dataclass(eq=False)
class Ref:
    """One tensor leaf's storage: a function parameter, an output, arena bytes or a constant."""

    kind: str
    expr: str = ""
    """The C pointer expression (empty for a constant: its symbol is made on first use)."""
    start: int = 0
    """Arena leaves: first byte, from the arena's start."""
    end: int = 0
    """Arena leaves: one past the last byte."""
    constant: ConstantOp | None = None

    def overlaps(self, other: Ref) -> bool:
        """Whether both are arena bytes and share at least one byte."""
        return (
            self.kind == ARENA
            and other.kind == ARENA
            and self.start < other.end
            and other.start < self.end
        )


Tree: TypeAlias = "Ref | tuple[Tree, ...]"


def leaves(tree: Tree) -> Iterator[Ref]:
    """The refs of a tree, in field order."""
    if isinstance(tree, Ref):
        yield tree
    else:
        for field in tree:
            yield from leaves(field)
