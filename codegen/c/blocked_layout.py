"""Addressing of tensors in blocked layouts for the loop nests (`NCHW4c`, `OIHW4i4o`).

A loop nest counts over the primal axes (N, C, H, W, ...); in a blocked layout
a primal index `c` sits at `c / 4` on the `C` axis and `c % 4` on the `c`
sub-axis. For a plain layout the offsets are exactly the plain strides', so
the printed C does not change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xrelay.codegen.c.writer import affine, strides
from xrelay.dialects.relay.tensor import layout_factor, parse_layout


def primal_dims(layout: str, shape: Sequence[int]) -> dict[str, int]:
    """The extent of each primal axis of a `layout` tensor of `shape` (`C` of `NCHW4c`: C/4 * 4)."""
    axes = parse_layout(layout)
    return {
        name: size * layout_factor(axes, name)
        for (name, factor), size in zip(axes, shape, strict=True)
        if not factor
    }


def offset(layout: str, shape: Sequence[int], index: Mapping[str, str]) -> str:
    """The element offset of primal indices `index` (letter -> C expression), terms in
    `index`'s order, in a `layout` tensor of `shape`."""
    axes = parse_layout(layout)
    step = {name: s for (name, _), s in zip(axes, strides(shape), strict=True)}
    terms: list[tuple[str, int]] = []
    for letter, expr in index.items():
        split = layout_factor(axes, letter)
        if split == 1:
            terms.append((expr, step[letter]))
            continue
        inner = expr if expr.isidentifier() else f"({expr})"
        terms.append((f"{inner} / {split}", step[letter]))
        terms.append((f"{inner} % {split}", step[letter.lower()]))
    return affine(terms)
