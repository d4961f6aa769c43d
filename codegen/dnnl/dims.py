"""Logical dims and element strides: how a dnnl printer describes a planned buffer to oneDNN."""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.codegen.c.writer import strides

Dims = tuple[list[int], list[int]]
"""Logical dims and their element strides."""


def plain(shape: Sequence[int]) -> Dims:
    """A row-major buffer of `shape` (a scalar as one element)."""
    dims = list(shape) or [1]
    return dims, strides(dims)


def logical(shape: Sequence[int], layout: str, order: str) -> Dims:
    """A row-major buffer of `shape` in `layout`, seen with its dims in `order` (e.g. NCHW)."""
    row = strides(shape)
    return [shape[layout.index(a)] for a in order], [row[layout.index(a)] for a in order]


def permuted(shape: Sequence[int], order: Sequence[int]) -> Dims:
    """A row-major buffer of `shape` seen with its axes in `order`."""
    dims, steps = plain(shape)
    return [dims[a] for a in order], [steps[a] for a in order]
