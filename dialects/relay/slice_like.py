"""`relay.slice_like`: TVM's slice of `data` to the shape of a second tensor.

Name, attributes and semantics are TVM's (`tvm.relay.slice_like`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_opt_ints,
    operand_element_type,
)
from xrelay.dialects.relay.types import ANY, Shape, tensor_type


def slice_like_shape(data: Shape, like: Shape, axes: Sequence[int] | None) -> Shape:
    """The output shape: `like`'s dim on each sliced axis (every axis both have when `axes`
    is None; a negative axis counts from the end of `data`), `data`'s elsewhere."""
    out = list(data)
    if axes is None:
        chosen = list(range(min(len(data), len(like))))
    else:
        if not axes:
            raise RelayTypeError("axes cannot be empty")
        chosen: list[int] = []
        for axis in axes:
            if not -len(data) <= axis < len(data):
                raise RelayTypeError(f"axis {axis} is out of range for data of rank {len(data)}")
            axis = axis + len(data) if axis < 0 else axis
            if axis >= len(like):
                raise RelayTypeError(f"axis {axis} exceeds the rank {len(like)} of shape_like")
            chosen.append(axis)
    for axis in chosen:
        if like[axis] != ANY and data[axis] != ANY and like[axis] > data[axis]:
            raise RelayTypeError(
                f"end index {like[axis]} of axis {axis} exceeds the data's dim {data[axis]}"
            )
        out[axis] = like[axis]
    return tuple(out)


@irdl_op_definition
class SliceLikeOp(RelayOp):
    """`relay.slice_like`: `data[0:e0, 0:e1, ...]` where `e` is `shape_like`'s dim on the
    sliced axes (`axes`, or every axis both have) and `data`'s dim on the others.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.slice_like
    """

    name = "relay.slice_like"

    data = operand_def(TensorType)
    shape_like = operand_def(TensorType)
    result = result_def(TensorType)
    axes = opt_prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        like = expect_tensor(operand_types, 1, "shape_like")
        out = slice_like_shape(data, like, get_opt_ints(props, "axes"))
        return [tensor_type(out, operand_element_type(operand_types, 0))]


OPS = (SliceLikeOp,)
