"""The `myacc` dialect: the two kernels of the accelerator, with relay's syntax and verifier.

- `myacc.gelu %x : tensor<...xf32>`: GELU in erf form, `x * 0.5 * (1 + erf(x / sqrt(2)))`,
  elementwise on a float32 tensor of any shape;
- `myacc.matmul_relu %x, %w : (tensor<MxKxf32>, tensor<NxKxf32>) -> tensor<MxNxf32>`:
  `max(x @ w^T, 0)`, relay's `nn.dense` (weight in `(units, in)` layout) then `nn.relu`.

Both extend `RelayOp`: the custom form prints like relay's ops, and the verifier
is the type inference (`infer_result_types`), whose `RelayTypeError` messages are
the verifier's messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import irdl_op_definition, operand_def, result_def

from xrelay.ext import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    register_dialect,
    tensor_element_type,
    tensor_type,
)


def _expect_f32(types: Sequence[Attribute], index: int) -> tuple[int, ...]:
    """The shape of operand `index`, a float32 tensor."""
    shape = expect_tensor(types, index)
    element = tensor_element_type(types[index])
    if element != f32:
        raise RelayTypeError(f"expected operand #{index} of element type f32, got {element}")
    return shape


@irdl_op_definition
class GeluOp(RelayOp):
    """`myacc.gelu`: GELU (erf form) of a float32 tensor."""

    name = "myacc.gelu"
    data = operand_def(TensorType)
    result = result_def(TensorType)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        _expect_f32(operand_types, 0)
        return [operand_types[0]]


@irdl_op_definition
class MatmulReluOp(RelayOp):
    """`myacc.matmul_relu`: `relu(dense(x, w))` of a 2-D float32 `x` and `(units, in)` `w`."""

    name = "myacc.matmul_relu"
    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    result = result_def(TensorType)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        x, w = _expect_f32(operand_types, 0), _expect_f32(operand_types, 1)
        expect_rank(x, 2, "data")
        expect_rank(w, 2, "weight")
        if min(x[1], w[1]) >= 0 and x[1] != w[1]:  # a dynamic dim (negative) may match
            raise RelayTypeError(
                f"expected the weight's in-features {w[1]} to equal the data's {x[1]}"
            )
        return [tensor_type((x[0], w[0]), f32)]


MYACC = Dialect("myacc", [GeluOp, MatmulReluOp], [])
register_dialect(MYACC)
