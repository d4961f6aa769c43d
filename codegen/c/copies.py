"""Big host copies on threads: concatenate, split and block transposes as row copies.

A concatenation (or split) whose output moves more than `threads.GRAIN` bytes per thread
copies each piece whose rows have at least `MIN_BLOCK` bytes with `xn_copy_rows`
(`codegen/kernels/threads.py`): the piece's rows (everything from the axis on) to their
place in the whole's rows, the bytes cut over the build's threads. A transpose that keeps
its trailing axes in place (a block of `B` contiguous elements, at least `MIN_BLOCK`
bytes) copies blocks the same way: rows along the output axis of the most blocks (the
input's stride for it), one call per index of the other moved axes. ShuffleNet's channel
shuffle (`(1, g, c/g, h, w)`, axes `(0, 2, 1, 3, 4)`) is `g` calls of `c/g` planes each.
Byte copies: exact for every dtype.
"""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import affine, copy_elements, strides
from xrelay.codegen.kernels import threads

MIN_BLOCK = 256
"""Bytes a transpose's contiguous block, or a concatenated piece's row, needs for a row copy
(shorter: the loops)."""


def worth_threads(moved: int) -> bool:
    """Whether `moved` bytes are worth a second thread."""
    return moved >= 2 * threads.GRAIN


def _size(pointer: str) -> str:
    return f"({INDEX})sizeof *{pointer}"


def move_rows(
    k: Kernel,
    rows: int,
    row: int,
    spans: Sequence[tuple[int, int]],
    pieces: Sequence[str],
    gather: bool,
) -> None:
    """Each piece's `rows` rows (`length` elements, at `start` in a whole row of `row`) to
    `out0` (`gather`), or from `in0` to the piece."""
    width = k.out_scalar().bytes
    size = _size("out0")
    for name, (length, start) in zip(pieces, spans, strict=True):
        if not length:
            continue
        if length * width < MIN_BLOCK:  # rows too short for memcpy: the loop
            with k.w.loop("r", rows):
                whole_at, piece_at = affine([("r", row)], start), affine([("r", length)])
                if gather:
                    copy_elements(k.w, "out0", name, length, whole_at, piece_at)
                else:
                    copy_elements(k.w, name, "in0", length, piece_at, whole_at)
            continue
        k.libraries.add("threads")
        piece = name if name.isidentifier() else f"({name})"
        whole = f"{'out0' if gather else 'in0'} + {start}"
        ends = [f"{piece}, {length} * {size}", f"{whole}, {row} * {size}"]
        src, dst = (ends[0], ends[1]) if gather else (ends[1], ends[0])
        k.w.line(f"xn_copy_rows(XR_NUM_THREADS, {rows}, {length} * {size}, {src}, {dst});")


def transpose_blocks(k: Kernel, shape: tuple[int, ...], perm: Sequence[int]) -> bool:
    """Print `transpose` as block row copies when it keeps a big enough trailing block and
    moves enough bytes; False (nothing printed) otherwise."""
    moved = len(shape)
    while moved and perm[moved - 1] == moved - 1:
        moved -= 1
    block = numel(shape[moved:])
    width = k.out_scalar().bytes
    if moved < 2 or block * width < MIN_BLOCK or not worth_threads(numel(shape) * width):
        return False
    out_shape = k.out_shape()
    in_strides, out_strides = strides(shape), strides(out_shape)
    along = max(range(moved), key=lambda d: out_shape[d])
    others = [d for d in range(moved) if d != along]
    names = [f"j{d}" for d in others]
    k.libraries.add("threads")
    size = _size("out0")
    with k.w.loops(names, [out_shape[d] for d in others]):
        src = affine([(f"j{d}", in_strides[perm[d]]) for d in others])
        dst = affine([(f"j{d}", out_strides[d]) for d in others])
        k.w.line(
            f"xn_copy_rows(XR_NUM_THREADS, {out_shape[along]}, {block} * {size}, "
            f"in0 + {src}, {in_strides[perm[along]]} * {size}, "
            f"out0 + {dst}, {out_strides[along]} * {size});"
        )
    return True
