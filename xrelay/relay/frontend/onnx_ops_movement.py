"""Converters for ONNX's data-movement ops: Tile, Trilu, DepthToSpace and SpaceToDepth, onto
`relay.tile`, `relay.trilu`, `relay.nn.depth_to_space` and `relay.nn.space_to_depth`."""

from __future__ import annotations

from xrelay.dialects.builder import movement as M
from xrelay.dialects.builder import nn_movement as NM
from xrelay.dialects.builder import tensor as T
from xrelay.relay.frontend.onnx_registry import Node, Result, converter


@converter("Tile", 6)
def tile_v6(node: Node) -> Result:
    """Tile with the `repeats` input (one count per axis, known at import)."""
    reps = node.ints(1, "the repeats")
    rank = node.rank(0)
    node.refuse(len(reps) != rank, f"{len(reps)} repeats for rank {rank}")
    node.refuse(any(r < 0 for r in reps), f"negative repeats {reps}")
    return M.tile(node.expr(0), reps)


@converter("Trilu", 14)
def trilu_v14(node: Node) -> Result:
    """Trilu: the upper (default) or lower triangle of the last two axes; `k` (optional
    input, known at import) shifts the diagonal."""
    node.refuse(node.rank(0) < 2, "the input needs at least two dims")
    k = 0
    if node.has(1):
        given = node.ints(1, "k")
        node.refuse(len(given) != 1, "k must be a scalar")
        k = given[0]
    return M.trilu(node.expr(0), k, bool(node.int_attr("upper", 1)))


def _block(node: Node) -> int:
    node.refuse(node.rank(0) != 4, f"needs a 4-D NCHW input, got rank {node.rank(0)}")
    block = node.int_attr("blocksize", 0)
    node.refuse(block < 1, f"blocksize must be positive, got {block}")
    return block


@converter("DepthToSpace", 1)
def depth_to_space_v1(node: Node) -> Result:
    """DepthToSpace on NCHW; `mode` (v11) DCR (default) or CRD."""
    block = _block(node)
    mode = node.str_attr("mode", "DCR")
    node.refuse(mode not in ("DCR", "CRD"), f"unknown mode '{mode}'")
    return NM.depth_to_space(node.expr(0), block, "NCHW", mode)


@converter("SpaceToDepth", 1)
def space_to_depth_v1(node: Node) -> Result:
    """SpaceToDepth on NCHW; `mode` (v28) DCR (default, relay.nn.space_to_depth) or CRD
    (channel-major: a reshape, transpose and reshape of a static input)."""
    block = _block(node)
    mode = node.str_attr("mode", "DCR")
    node.refuse(mode not in ("DCR", "CRD"), f"unknown mode '{mode}'")
    if mode == "DCR":
        return NM.space_to_depth(node.expr(0), block, "NCHW")
    n, c, h, w = node.static_shape(0, "SpaceToDepth in CRD mode")
    node.refuse(h % block != 0 or w % block != 0, f"H and W must be multiples of blocksize {block}")
    x = T.reshape(node.expr(0), [n, c, h // block, block, w // block, block])
    x = T.transpose(x, [0, 1, 3, 5, 2, 4])
    return T.reshape(x, [n, c * block * block, h // block, w // block])
