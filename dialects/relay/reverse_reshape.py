"""`relay.contrib_reverse_reshape`: TVM's reshape whose special values are read right to left.

Name and attribute are TVM's (`tvm.relay.reverse_reshape` makes `contrib_reverse_reshape`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, TensorType
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
from xrelay.dialects.relay.tensor import reshape_shape
from xrelay.dialects.relay.types import Shape, tensor_type


def reverse_reshape_shape(ishape: Shape, newshape: Sequence[int]) -> Shape:
    """`reshape_shape` of the reversed input shape and newshape, reversed: (10, 5, 4) with
    newshape (-1, 0) is (50, 4), where reshape gives (40, 5)."""
    try:
        out = reshape_shape(tuple(reversed(ishape)), list(reversed(newshape)))
    except RelayTypeError as error:
        raise RelayTypeError(
            f"{error.args[0]} (reverse_reshape reads newshape {list(newshape)} right to left)"
        ) from None
    return tuple(reversed(out))


@irdl_op_definition
class ReverseReshapeOp(RelayOp):
    """`relay.contrib_reverse_reshape`: the same elements (row-major order, as `reshape`) in
    the shape `newshape` gives with TVM's reshape special values (0, -1, -2, -3, -4) matched
    against the input dims from the right.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.reverse_reshape
    """

    name = "relay.contrib_reverse_reshape"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    newshape = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        out = reverse_reshape_shape(shape, get_ints(props, "newshape"))
        return [tensor_type(out, operand_element_type(operand_types, 0))]


OPS = (ReverseReshapeOp,)
