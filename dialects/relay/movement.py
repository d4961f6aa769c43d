"""Data-movement relay ops added for the ONNX frontend: `broadcast_to`, `tile`, `reverse`,
`trilu`, `nn.depth_to_space`, `nn.space_to_depth`.

Shape rules follow TVM's type relations (`src/relay/op/tensor/transform.cc`,
`src/relay/op/nn/nn.cc`), with dynamic `?` dims propagated.

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, i1, i64
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, prop_def
from xrelay.dialects.relay.base import (
    Props,
    RelayTypeError,
    expect_tensor,
    get_int,
    get_ints,
    get_str,
    normalize_axis,
    operand_element_type,
)
from xrelay.dialects.relay.tensor import TensorOpBase
from xrelay.dialects.relay.types import ANY, Shape, format_shape, tensor_type


def _same_type(operand_types: Sequence[Attribute], shape: Sequence[int]) -> list[Attribute]:
    return [tensor_type(tuple(shape), operand_element_type(operand_types, 0))]


# --------------------------------------------------------------------------- #
# broadcast_to
# --------------------------------------------------------------------------- #


def broadcast_to_shape(data: Shape, shape: Sequence[int]) -> Shape:
    """The output shape of `relay.broadcast_to`: `shape`, which `data` must broadcast to.

    Unlike ONNX's Expand (bidirectional), each data dim must equal its target dim or be 1.
    """
    if any(d < 0 for d in shape):
        raise RelayTypeError(f"shape must be non-negative, got {list(shape)}")
    if len(data) > len(shape):
        raise RelayTypeError(
            f"cannot broadcast {format_shape(data)} to the lower-rank shape {list(shape)}"
        )
    for d, target in zip(reversed(data), reversed(shape), strict=False):
        if d not in (1, target, ANY):
            raise RelayTypeError(f"cannot broadcast {format_shape(data)} to {list(shape)}")
    return tuple(shape)


@irdl_op_definition
class BroadcastToOp(TensorOpBase):
    """`relay.broadcast_to`: `data` broadcast (numpy rules) to the static `shape`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.broadcast_to
    """

    name = "relay.broadcast_to"

    shape = prop_def(DenseArrayBase)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        return _same_type(operand_types, broadcast_to_shape(data, get_ints(props, "shape")))


# --------------------------------------------------------------------------- #
# tile, reverse
# --------------------------------------------------------------------------- #


def tile_params(data: Shape, reps: Sequence[int]) -> tuple[Shape, tuple[int, ...]]:
    """The data shape and reps of `relay.tile`, the shorter padded with leading 1s."""
    if any(r < 0 for r in reps):
        raise RelayTypeError(f"reps must be non-negative, got {list(reps)}")
    rank = max(len(data), len(reps))
    return (1,) * (rank - len(data)) + tuple(data), (1,) * (rank - len(reps)) + tuple(reps)


def tile_shape(data: Shape, reps: Sequence[int]) -> Shape:
    """The output shape of `relay.tile`: each (padded) dim times its repetition count."""
    dims, counts = tile_params(data, reps)
    return tuple(ANY if d == ANY and r else d * r for d, r in zip(dims, counts, strict=True))


@irdl_op_definition
class TileOp(TensorOpBase):
    """`relay.tile`: `data` repeated `reps[i]` times along each axis (numpy's `tile`).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.tile
    """

    name = "relay.tile"

    reps = prop_def(DenseArrayBase)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        return _same_type(operand_types, tile_shape(data, get_ints(props, "reps")))


@irdl_op_definition
class ReverseOp(TensorOpBase):
    """`relay.reverse`: the elements of `data` in reverse order along `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.reverse
    """

    name = "relay.reverse"

    axis = prop_def(IntegerAttr)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        if not data:
            raise RelayTypeError("data must have at least one dim")
        normalize_axis(get_int(props, "axis"), len(data))
        return _same_type(operand_types, data)


# --------------------------------------------------------------------------- #
# trilu
# --------------------------------------------------------------------------- #


@irdl_op_definition
class TriluOp(TensorOpBase):
    """`relay.trilu`: the upper (`j - i >= k`) or lower (`j - i <= k`) triangle of the last two
    dims of `data`, zeros elsewhere.

    TVM takes `k` as a tensor operand; here it is a static integer (ONNX's Trilu `k` is a
    constant in practice: the frontend folds it).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.trilu
    """

    name = "relay.trilu"

    k = prop_def(IntegerAttr, IntegerAttr(0, i64))
    upper = prop_def(IntegerAttr, IntegerAttr(1, i1))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        if len(data) < 2:
            raise RelayTypeError(f"data must have at least 2 dims, got {format_shape(data)}")
        return _same_type(operand_types, data)


# --------------------------------------------------------------------------- #
# nn.depth_to_space, nn.space_to_depth
# --------------------------------------------------------------------------- #

SPACE_LAYOUTS = ("NCHW", "NHWC")
DEPTH_TO_SPACE_MODES = ("DCR", "CRD")


def space_params(props: Props, data: Shape) -> tuple[int, str]:
    """The block size and layout of the depth/space ops, checked against 4-D data."""
    block = get_int(props, "block_size")
    layout = get_str(props, "layout")
    if block < 1:
        raise RelayTypeError(f"block_size must be positive, got {block}")
    if layout not in SPACE_LAYOUTS:
        raise RelayTypeError(f"layout must be NCHW or NHWC, got '{layout}'")
    if len(data) != 4:
        raise RelayTypeError(f"expected 4-D data, got rank {len(data)} {format_shape(data)}")
    return block, layout


def _nchw(data: Shape, layout: str) -> list[int]:
    return list(data) if layout == "NCHW" else [data[0], data[3], data[1], data[2]]


def _from_nchw(nchw: Sequence[int], layout: str) -> Shape:
    n, c, h, w = nchw
    return (n, c, h, w) if layout == "NCHW" else (n, h, w, c)


def _scaled(dim: int, factor: int) -> int:
    return ANY if dim == ANY else dim * factor


def depth_to_space_shape(data: Shape, block: int, layout: str) -> Shape:
    """(N, C, H, W) -> (N, C / b², H b, W b), in `layout`; C must divide by b²."""
    n, c, h, w = _nchw(data, layout)
    if c != ANY and c % (block * block):
        raise RelayTypeError(f"channels {c} must be divisible by block_size² = {block * block}")
    channels = ANY if c == ANY else c // (block * block)
    return _from_nchw((n, channels, _scaled(h, block), _scaled(w, block)), layout)


def space_to_depth_shape(data: Shape, block: int, layout: str) -> Shape:
    """(N, C, H, W) -> (N, C b², H / b, W / b), in `layout`; H and W must divide by b."""
    n, c, h, w = _nchw(data, layout)
    for what, d in (("height", h), ("width", w)):
        if d != ANY and d % block:
            raise RelayTypeError(f"{what} {d} must be divisible by block_size {block}")
    div = [ANY if d == ANY else d // block for d in (h, w)]
    return _from_nchw((n, _scaled(c, block * block), div[0], div[1]), layout)


@irdl_op_definition
class DepthToSpaceOp(TensorOpBase):
    """`relay.nn.depth_to_space`: move channel blocks into `block_size` x `block_size` pixels.

    `mode = "DCR"` reads the channel as (block row, block col, out channel), `"CRD"` as
    (out channel, block row, block col), as ONNX's DepthToSpace.

    See https://tvm.apache.org/docs/reference/api/python/relay/nn.html#tvm.relay.nn.depth_to_space
    """

    name = "relay.nn.depth_to_space"

    block_size = prop_def(IntegerAttr)
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    mode = prop_def(StringAttr, StringAttr("DCR"))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        block, layout = space_params(props, data)
        mode = get_str(props, "mode")
        if mode not in DEPTH_TO_SPACE_MODES:
            raise RelayTypeError(f"mode must be DCR or CRD, got '{mode}'")
        return _same_type(operand_types, depth_to_space_shape(data, block, layout))


@irdl_op_definition
class SpaceToDepthOp(TensorOpBase):
    """`relay.nn.space_to_depth`: move `block_size` x `block_size` pixel blocks into channels
    (channel = (block row, block col, in channel), ONNX's SpaceToDepth).

    See https://tvm.apache.org/docs/reference/api/python/relay/nn.html#tvm.relay.nn.space_to_depth
    """

    name = "relay.nn.space_to_depth"

    block_size = prop_def(IntegerAttr)
    layout = prop_def(StringAttr, StringAttr("NCHW"))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        block, layout = space_params(props, data)
        return _same_type(operand_types, space_to_depth_shape(data, block, layout))


OPS = (BroadcastToOp, TileOp, ReverseOp, TriluOp, DepthToSpaceOp, SpaceToDepthOp)
