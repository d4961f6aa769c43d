"""Printing C that moves floats between tile lanes and columns (Winograd's tiles).

A vector holds one float of each of `XA_VL` tiles side by side (lane `t`: tile
`t`); the data holds the tiles' columns one after the other (float `m * t + j`:
column `j` of tile `t`). These print the `__builtin_shuffle`s between the two
(the masks are in the prelude, `vectors.py`), for tiles of 2 and 4 columns, and
the constant combinations of the transforms.
"""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.codegen.c.writer import CWriter


def combination(coefficients: Sequence[float], terms: Sequence[str]) -> str:
    """`sum(c * t)` as C over the nonzero coefficients (`t` for 1, `- t` for -1)."""
    out = ""
    for c, term in zip(coefficients, terms, strict=True):
        if c == 0:
            continue
        size = abs(c)
        product = term if size == 1 else f"{float(size)!r}f * {term}"
        if not out:
            out = product if c > 0 else f"-{product}"
        else:
            out += f" + {product}" if c > 0 else f" - {product}"
    return out


def shuffle(a: str, b: str, mask: str) -> str:
    """`__builtin_shuffle(a, b, mask)` with one of the prelude's masks."""
    return f"__builtin_shuffle({a}, {b}, (xa_vi)XA_{mask})"


def window_columns(w: CWriter, m: int, row: list[str]) -> list[str]:
    """Declare the m + 2 window columns of the tiles from a row's m + 1 vectors; their names.

    Column `j` of lane `t` is the row's float `m * t + j`: the even and odd lanes
    (twice for m = 4: lanes mod 4), then the first two one lane further, with
    the last vector's first two floats shifted in.
    """
    if m == 2:
        w.line(f"const xa_v e0 = {shuffle(row[0], row[1], 'EVEN')};")
        w.line(f"const xa_v o0 = {shuffle(row[0], row[1], 'ODD')};")
        w.line(f"const xa_v e1 = {shuffle('e0', row[2], 'NEXT_EVEN')};")
        w.line(f"const xa_v o1 = {shuffle('o0', row[2], 'NEXT_ODD')};")
        return ["e0", "o0", "e1", "o1"]
    w.line(
        f"const xa_v ea = {shuffle(row[0], row[1], 'EVEN')}, oa = {shuffle(row[0], row[1], 'ODD')};"
    )
    w.line(
        f"const xa_v eb = {shuffle(row[2], row[3], 'EVEN')}, ob = {shuffle(row[2], row[3], 'ODD')};"
    )
    w.line(f"const xa_v c0 = {shuffle('ea', 'eb', 'EVEN')}, c2 = {shuffle('ea', 'eb', 'ODD')};")
    w.line(f"const xa_v c1 = {shuffle('oa', 'ob', 'EVEN')}, c3 = {shuffle('oa', 'ob', 'ODD')};")
    w.line(f"const xa_v c4 = {shuffle('c0', row[4], 'NEXT_EVEN')};")
    w.line(f"const xa_v c5 = {shuffle('c1', row[4], 'NEXT_ODD')};")
    return [f"c{j}" for j in range(6)]


def tile_columns(w: CWriter, m: int, vectors: list[str]) -> list[str]:
    """The m tile columns (lane t: float `m * t + b`) of m vectors of consecutive floats."""
    if m == 2:
        w.line(f"const xa_v e = {shuffle(vectors[0], vectors[1], 'EVEN')};")
        w.line(f"const xa_v o = {shuffle(vectors[0], vectors[1], 'ODD')};")
        return ["e", "o"]
    w.line(f"const xa_v ea = {shuffle(vectors[0], vectors[1], 'EVEN')};")
    w.line(f"const xa_v oa = {shuffle(vectors[0], vectors[1], 'ODD')};")
    w.line(f"const xa_v eb = {shuffle(vectors[2], vectors[3], 'EVEN')};")
    w.line(f"const xa_v ob = {shuffle(vectors[2], vectors[3], 'ODD')};")
    names = ["c0", "c1", "c2", "c3"]
    w.line(f"const xa_v c0 = {shuffle('ea', 'eb', 'EVEN')}, c2 = {shuffle('ea', 'eb', 'ODD')};")
    w.line(f"const xa_v c1 = {shuffle('oa', 'ob', 'EVEN')}, c3 = {shuffle('oa', 'ob', 'ODD')};")
    return names


def interleave(w: CWriter, m: int, lanes: list[str], name: str) -> list[str]:
    """Declare the m vectors of consecutive columns from m vectors of tile columns."""
    if m == 2:
        w.line(f"xa_v {name}0 = {shuffle(lanes[0], lanes[1], 'ZIP_LO')};")
        w.line(f"xa_v {name}1 = {shuffle(lanes[0], lanes[1], 'ZIP_HI')};")
        return [f"{name}0", f"{name}1"]
    w.line(f"const xa_v {name}a = {shuffle(lanes[0], lanes[2], 'ZIP_LO')};")
    w.line(f"const xa_v {name}b = {shuffle(lanes[0], lanes[2], 'ZIP_HI')};")
    w.line(f"const xa_v {name}c = {shuffle(lanes[1], lanes[3], 'ZIP_LO')};")
    w.line(f"const xa_v {name}d = {shuffle(lanes[1], lanes[3], 'ZIP_HI')};")
    w.line(f"xa_v {name}0 = {shuffle(f'{name}a', f'{name}c', 'ZIP_LO')};")
    w.line(f"xa_v {name}1 = {shuffle(f'{name}a', f'{name}c', 'ZIP_HI')};")
    w.line(f"xa_v {name}2 = {shuffle(f'{name}b', f'{name}d', 'ZIP_LO')};")
    w.line(f"xa_v {name}3 = {shuffle(f'{name}b', f'{name}d', 'ZIP_HI')};")
    return [f"{name}{v}" for v in range(4)]
