"""Converters for ONNX's sampling ops: GridSample (onto `relay.image.grid_sample`) and
AffineGrid (decomposed at import: a constant base grid times theta)."""

from __future__ import annotations

import numpy as np

from xrelay import relay
from xrelay.dialects.builder.expr import Constant
from xrelay.relay.frontend.onnx_registry import Array, Node, Result, converter

_GRID_MODES = {
    "bilinear": "bilinear",
    "linear": "bilinear",
    "nearest": "nearest",
    "bicubic": "bicubic",
    "cubic": "bicubic",
}
"""ONNX mode (opset 16 names, opset 20 names) -> relay method."""


@converter("GridSample", 16)
def grid_sample_v16(node: Node) -> Result:
    """GridSample: the grid [N, *out, r] moves its last axis to 1 (TVM's grid layout)."""
    rank = node.rank(0)
    node.refuse(rank not in (4, 5), f"only 4-D and 5-D GridSample is supported (rank {rank})")
    node.refuse(node.rank(1) != rank, f"the grid must have rank {rank}, got {node.rank(1)}")
    mode = node.str_attr("mode", "bilinear")
    node.refuse(mode not in _GRID_MODES, f"unknown mode '{mode}'")
    padding = node.str_attr("padding_mode", "zeros")
    node.refuse(
        padding not in ("zeros", "border", "reflection"), f"unknown padding_mode '{padding}'"
    )
    for index, what in ((0, "X"), (1, "grid")):
        dtype = node.dtype(index)
        node.refuse(
            dtype not in ("float16", "bfloat16", "float32", "float64"),
            f"{what} must be floating-point, got {dtype}",
        )
    grid = relay.transpose(node.expr(1), [0, rank - 1, *range(1, rank - 1)])
    return relay.image.grid_sample(
        node.expr(0),
        grid,
        method=_GRID_MODES[mode],
        layout="NCHW" if rank == 4 else "NCDHW",
        padding_mode=padding,
        align_corners=bool(node.int_attr("align_corners", 0)),
    )


def _axis_points(size: int, align_corners: bool) -> Array:
    """The normalized coordinates of the pixels of an axis."""
    if align_corners:
        return np.linspace(-1.0, 1.0, size) if size > 1 else np.full(size, -1.0)
    return (2.0 * np.arange(size) + 1.0) / size - 1.0


def base_grid(sizes: list[int], align_corners: bool) -> Array:
    """[prod(sizes), r + 1]: the homogeneous coordinates (x, y[, z], 1) of every pixel,
    the last axis fastest (x is the last axis)."""
    axes = np.meshgrid(*[_axis_points(s, align_corners) for s in sizes], indexing="ij")
    columns = [a.reshape(-1) for a in reversed(axes)]
    count = int(np.prod(sizes))
    return np.stack([*columns, np.ones(count)], axis=-1)


@converter("AffineGrid", 20)
def affine_grid_v20(node: Node) -> Result:
    """AffineGrid: base [P, r+1] @ theta^T per batch -> [N, *size, r] (size known at import)."""
    size = node.ints(1, "the size")
    node.refuse(len(size) not in (4, 5), f"size must have 4 or 5 values, got {len(size)}")
    node.refuse(any(s <= 0 for s in size), f"size must be positive, got {size}")
    rank = len(size) - 2
    dtype = node.dtype(0)
    node.refuse(
        dtype not in ("float16", "bfloat16", "float32", "float64"),
        f"theta must be floating-point, got {dtype}",
    )
    theta_shape = node.shape(0)
    node.refuse(
        len(theta_shape) != 3 or theta_shape[1:] != (rank, rank + 1),
        f"theta must be [N, {rank}, {rank + 1}], got {list(theta_shape)}",
    )
    spatial = size[2:]
    base = base_grid(spatial, bool(node.int_attr("align_corners", 0)))
    points = Constant(base.astype("float64" if dtype == "float64" else "float32"))
    theta = node.expr(0) if dtype in ("float32", "float64") else relay.cast(node.expr(0), "float32")
    grid = relay.matmul(points, theta, transpose_b=True)
    grid = relay.reshape(grid, [size[0], *spatial, rank])
    return grid if dtype in ("float32", "float64") else relay.cast(grid, dtype)
