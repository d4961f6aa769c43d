"""`relay.sparse_to_dense`: TVM's dense tensor of `output_shape` from sparse indices and values.

Name, attributes and semantics are TVM's (`tvm.relay.sparse_to_dense`); out-of-range and
repeated indices follow xrelay's scatter rule (docs/semantics.md, "Indices out of range").
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, TensorType
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
from xrelay.dialects.relay.types import ANY, format_shape, tensor_type


def sparse_to_dense_check(
    indices: Sequence[int], values: Sequence[int], shape: Sequence[int]
) -> None:
    """TVM's rule on the shapes: 0-D or 1-D indices address a 1-D output, 2-D ones are
    `[count, rank]`; values are one scalar for all or one per index."""
    if any(d < 0 for d in shape):
        raise RelayTypeError(f"output_shape must be non-negative, got {list(shape)}")
    if len(indices) > 2:
        raise RelayTypeError(f"sparse_indices must be 0-D, 1-D or 2-D, got {format_shape(indices)}")
    if len(values) > 1:
        raise RelayTypeError(f"sparse_values must be 0-D or 1-D, got {format_shape(values)}")
    if len(indices) < 2 and len(shape) != 1:
        raise RelayTypeError(
            f"{len(indices)}-D sparse_indices address a 1-D output, got output_shape {list(shape)}"
        )
    if len(indices) == 2 and indices[1] not in (ANY, len(shape)):
        raise RelayTypeError(
            f"sparse_indices of shape {format_shape(indices)} must hold {len(shape)} "
            "coordinates per row (the output's rank)"
        )
    count = indices[0] if indices else 1
    if values and ANY not in (values[0], count) and values[0] != count:
        raise RelayTypeError(
            f"sparse_values must hold one value per index ({count}), got {values[0]}"
        )


@irdl_op_definition
class SparseToDenseOp(RelayOp):
    """`relay.sparse_to_dense`: `default_value` (converted to the values' dtype as `cast`
    does) everywhere but at the sparse indices, which get their values in order (the last of
    repeated indices wins; a negative index counts from the end once; one still out of range
    is dropped).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.sparse_to_dense
    """

    name = "relay.sparse_to_dense"

    sparse_indices = operand_def(TensorType)
    sparse_values = operand_def(TensorType)
    default_value = operand_def(TensorType)
    result = result_def(TensorType)
    output_shape = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        indices = expect_tensor(operand_types, 0, "sparse_indices")
        if not isinstance(operand_element_type(operand_types, 0), IntegerType):
            raise RelayTypeError(f"sparse_indices must be integers, got {operand_types[0]}")
        values = expect_tensor(operand_types, 1, "sparse_values")
        if expect_tensor(operand_types, 2, "default_value"):
            raise RelayTypeError(f"default_value must be a scalar, got {operand_types[2]}")
        shape = get_ints(props, "output_shape")
        sparse_to_dense_check(indices, values, shape)
        return [tensor_type(shape, operand_element_type(operand_types, 1))]


OPS = (SparseToDenseOp,)
