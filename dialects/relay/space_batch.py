"""`relay.nn.space_to_batch_nd` and `relay.nn.batch_to_space_nd`: TVM's moves of spatial
blocks into the batch dim and back (TensorFlow's semantics).

Data is `[N, D1..DM, rest...]` with M = len(block_shape). space_to_batch_nd pads each
spatial dim by its `paddings` pair (with `pad_value`), splits it into `D / b` blocks of
`b`, and moves the block offsets in front of the batch: `[N * prod(b), (D + pads) / b,
rest...]`, the new batch index being `offset * N + n` (offsets row-major). batch_to_space_nd
undoes it and then drops `crops` pairs from each spatial dim: `[B / prod(b), D * b - crops,
rest...]` (an integer division, as TVM's: a remainder of batch entries is not read).
Pairs are stored flat (`[before0, after0, before1, after1, ...]`).

See https://tvm.apache.org/docs/reference/api/python/relay/nn.html#tvm.relay.nn.space_to_batch_nd
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, FloatAttr, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_ints,
    operand_element_type,
)
from xrelay.dialects.relay.types import ANY, Shape, format_shape, tensor_type


def _check(data: Shape, block: Sequence[int], pairs: Sequence[int], what: str) -> None:
    if not block:
        raise RelayTypeError("block_shape must not be empty")
    if any(b < 1 for b in block):
        raise RelayTypeError(f"block_shape must be positive, got {list(block)}")
    if len(data) < len(block) + 1:
        raise RelayTypeError(
            f"data of shape {format_shape(data)} has no {len(block)} spatial dims after the batch"
        )
    if len(pairs) != 2 * len(block):
        raise RelayTypeError(f"{what} must have {len(block)} pairs, got {len(pairs)} values")
    if any(p < 0 for p in pairs):
        raise RelayTypeError(f"{what} must be non-negative, got {list(pairs)}")


def space_to_batch_shape(data: Shape, block: Sequence[int], paddings: Sequence[int]) -> Shape:
    """`[N * prod(block), (D_i + pads_i) / block_i..., rest...]`."""
    _check(data, block, paddings, "paddings")
    spatial: list[int] = []
    for i, b in enumerate(block):
        d = data[1 + i]
        if d == ANY:
            spatial.append(ANY)
            continue
        padded = d + paddings[2 * i] + paddings[2 * i + 1]
        if padded % b:
            raise RelayTypeError(
                f"padded dim {padded} of axis {1 + i} is not a multiple of block {b}"
            )
        spatial.append(padded // b)
    batch = ANY if data[0] == ANY else data[0] * math.prod(block)
    return (batch, *spatial, *data[1 + len(block) :])


def batch_to_space_shape(data: Shape, block: Sequence[int], crops: Sequence[int]) -> Shape:
    """`[B / prod(block), D_i * block_i - crops_i..., rest...]` (TVM's integer division:
    the last `B mod prod(block)` batch entries are not read)."""
    _check(data, block, crops, "crops")
    total = math.prod(block)
    spatial: list[int] = []
    for i, b in enumerate(block):
        d = data[1 + i]
        if d == ANY:
            spatial.append(ANY)
            continue
        kept = d * b - crops[2 * i] - crops[2 * i + 1]
        if kept < 0:
            raise RelayTypeError(f"crops {crops[2 * i]}, {crops[2 * i + 1]} exceed axis {1 + i}")
        spatial.append(kept)
    batch = ANY if data[0] == ANY else data[0] // total
    return (batch, *spatial, *data[1 + len(block) :])


@irdl_op_definition
class SpaceToBatchNDOp(RelayOp):
    """`relay.nn.space_to_batch_nd`: spatial blocks moved into the batch dim (module doc).

    See https://tvm.apache.org/docs/reference/api/python/relay/nn.html#tvm.relay.nn.space_to_batch_nd
    """

    name = "relay.nn.space_to_batch_nd"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    block_shape = prop_def(DenseArrayBase)
    paddings = prop_def(DenseArrayBase)
    pad_value = prop_def(FloatAttr)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        block, pads = get_ints(props, "block_shape"), get_ints(props, "paddings")
        return [
            tensor_type(
                space_to_batch_shape(data, block, pads), operand_element_type(operand_types, 0)
            )
        ]


@irdl_op_definition
class BatchToSpaceNDOp(RelayOp):
    """`relay.nn.batch_to_space_nd`: batch blocks moved back into the spatial dims, then
    cropped (module doc).

    See https://tvm.apache.org/docs/reference/api/python/relay/nn.html#tvm.relay.nn.batch_to_space_nd
    """

    name = "relay.nn.batch_to_space_nd"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    block_shape = prop_def(DenseArrayBase)
    crops = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        block, crops = get_ints(props, "block_shape"), get_ints(props, "crops")
        return [
            tensor_type(
                batch_to_space_shape(data, block, crops), operand_element_type(operand_types, 0)
            )
        ]


OPS = (SpaceToBatchNDOp, BatchToSpaceNDOp)
