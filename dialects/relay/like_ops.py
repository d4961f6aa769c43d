"""TVM's `*_like` ops and `collapse_sum_to`: `reshape_like`, `cast_like`,
`broadcast_to_like`, `collapse_sum_like` take a shape or dtype from a second tensor
(whose values are never read); `collapse_sum_to` sums to a static shape.

Names, attributes and type relations are TVM's (`src/relay/op/tensor/transform.cc`):
`reshape_like` takes `shape_like`'s dims `[rhs_begin, rhs_end)` in place of `data`'s
`[lhs_begin, lhs_end)`; `cast_like` has `data`'s shape and `dtype_like`'s dtype;
`broadcast_to_like` broadcasts `data` to `broadcast_type`'s shape and
`collapse_sum_like` sums `data` down to `collapse_type`'s (the two operands of one
dtype, as TVM's broadcast relation requires). `collapse_sum_to` keeps its target in a
`shape` attribute only (TVM also passes it as a constant operand).

See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.reshape_like
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_ints,
    get_opt_int,
    operand_element_type,
)
from xrelay.dialects.relay.movement import broadcast_to_shape
from xrelay.dialects.relay.types import ANY, Shape, format_shape, tensor_type


def _bound(value: int, rank: int, what: str) -> int:
    """A begin/end index of `reshape_like`, a negative one counting from the end."""
    index = value + rank if value < 0 else value
    if not 0 <= index <= rank:
        raise RelayTypeError(f"{what} {value} is out of range for rank {rank}")
    return index


def reshape_like_shape(
    data: Shape, like: Shape, lhs: tuple[int, int | None], rhs: tuple[int, int | None]
) -> Shape:
    """`data[:lhs_begin] + like[rhs_begin:rhs_end] + data[lhs_end:]` (an end of None is the
    rank), with as many elements as `data` when both are static."""
    lb = _bound(lhs[0], len(data), "lhs_begin")
    le = _bound(len(data) if lhs[1] is None else lhs[1], len(data), "lhs_end")
    rb = _bound(rhs[0], len(like), "rhs_begin")
    re = _bound(len(like) if rhs[1] is None else rhs[1], len(like), "rhs_end")
    if le < lb or re < rb:
        raise RelayTypeError(f"empty ranges lhs [{lb}, {le}) or rhs [{rb}, {re})")
    out = tuple(data[:lb]) + tuple(like[rb:re]) + tuple(data[le:])
    if ANY not in data and ANY not in out and math.prod(data) != math.prod(out):
        raise RelayTypeError(
            f"cannot reshape {format_shape(data)} ({math.prod(data)} elements) to "
            f"{format_shape(out)} ({math.prod(out)} elements)"
        )
    return out


def collapse_sum_shape(data: Shape, target: Sequence[int]) -> Shape:
    """The shape `data` is summed down to: `target`, which must broadcast to `data`."""
    if len(target) > len(data):
        raise RelayTypeError(
            f"cannot collapse {format_shape(data)} to the higher-rank {format_shape(target)}"
        )
    for d, t in zip(reversed(data), reversed(target), strict=False):
        if t not in (1, d) and ANY not in (d, t):
            raise RelayTypeError(f"cannot collapse {format_shape(data)} to {format_shape(target)}")
    return tuple(target)


def collapsed_axes(data: Shape, target: Shape) -> tuple[int, ...]:
    """The axes of `data` a collapse sum to `target` adds up: the leading ones `target`
    lacks, and those where `target` has 1 and `data` another dim."""
    lead = len(data) - len(target)
    return tuple(
        a for a in range(len(data)) if a < lead or (target[a - lead] == 1 and data[a] != 1)
    )


def _same_dtype(operand_types: Sequence[Attribute], what: str) -> Attribute:
    element = operand_element_type(operand_types, 0)
    other = operand_element_type(operand_types, 1)
    if element != other:
        raise RelayTypeError(f"data ({element}) and {what} ({other}) must have the same dtype")
    return element


@irdl_op_definition
class ReshapeLikeOp(RelayOp):
    """`relay.reshape_like`: `data` reshaped with `shape_like`'s dims `[rhs_begin, rhs_end)`
    in place of its own `[lhs_begin, lhs_end)`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.reshape_like
    """

    name = "relay.reshape_like"

    data = operand_def(TensorType)
    shape_like = operand_def(TensorType)
    result = result_def(TensorType)
    lhs_begin = opt_prop_def(IntegerAttr)
    lhs_end = opt_prop_def(IntegerAttr)
    rhs_begin = opt_prop_def(IntegerAttr)
    rhs_end = opt_prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        like = expect_tensor(operand_types, 1, "shape_like")
        out = reshape_like_shape(data, like, *reshape_like_bounds(props))
        return [tensor_type(out, operand_element_type(operand_types, 0))]


@irdl_op_definition
class CastLikeOp(RelayOp):
    """`relay.cast_like`: `data` converted to `dtype_like`'s dtype (as `relay.cast`).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.cast_like
    """

    name = "relay.cast_like"

    data = operand_def(TensorType)
    dtype_like = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        expect_tensor(operand_types, 1, "dtype_like")
        return [tensor_type(data, operand_element_type(operand_types, 1))]


@irdl_op_definition
class BroadcastToLikeOp(RelayOp):
    """`relay.broadcast_to_like`: `data` broadcast to `broadcast_type`'s shape.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.broadcast_to_like
    """

    name = "relay.broadcast_to_like"

    data = operand_def(TensorType)
    broadcast_type = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        like = expect_tensor(operand_types, 1, "broadcast_type")
        element = _same_dtype(operand_types, "broadcast_type")
        if ANY in like:
            raise RelayTypeError(f"broadcast_type's shape {format_shape(like)} must be static")
        return [tensor_type(broadcast_to_shape(data, like), element)]


@irdl_op_definition
class CollapseSumLikeOp(RelayOp):
    """`relay.collapse_sum_like`: `data` summed down to `collapse_type`'s shape (the axes a
    broadcast from that shape would have made).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.collapse_sum_like
    """

    name = "relay.collapse_sum_like"

    data = operand_def(TensorType)
    collapse_type = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        like = expect_tensor(operand_types, 1, "collapse_type")
        element = _same_dtype(operand_types, "collapse_type")
        return [tensor_type(collapse_sum_shape(data, like), element)]


@irdl_op_definition
class CollapseSumToOp(RelayOp):
    """`relay.collapse_sum_to`: `data` summed down to the static `shape`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.collapse_sum_to
    """

    name = "relay.collapse_sum_to"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    shape = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        shape = get_ints(props, "shape")
        if any(d < 0 for d in shape):
            raise RelayTypeError(f"shape must be non-negative, got {list(shape)}")
        out = collapse_sum_shape(data, shape)
        return [tensor_type(out, operand_element_type(operand_types, 0))]


def reshape_like_bounds(props: Props) -> tuple[tuple[int, int | None], tuple[int, int | None]]:
    """The (begin, end) pairs of `reshape_like`'s lhs and rhs, defaults filled in."""
    lhs = (get_opt_int(props, "lhs_begin") or 0, get_opt_int(props, "lhs_end"))
    rhs = (get_opt_int(props, "rhs_begin") or 0, get_opt_int(props, "rhs_end"))
    return lhs, rhs


OPS = (ReshapeLikeOp, CastLikeOp, BroadcastToLikeOp, CollapseSumLikeOp, CollapseSumToOp)
