"""TVM's fast approximations, the ops FastMath rewrites to: `relay.fast_exp`,
`relay.fast_tanh`, `relay.fast_erf` and `relay.nn.fast_softmax`.

Names, operands and attributes are TVM's (float data; softmax's `axis`). TVM computes
them with polynomial approximations (TOPI's `fast_exp` is exact to about 1e-7 relative in
float32, `fast_tanh` about 1e-6, `fast_erf` about 1e-6). xrelay's reference semantics
are the exact functions, and the C target reuses the routines of `exp`, `tanh`, `erf`
and `nn.softmax`, so the fast ops give the same numbers as the exact ones: max error
within the numerics rule (1e-4 relative of the float64 reference; docs/semantics.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, TensorType, i64
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    expect_float,
    expect_tensor,
    get_int,
    normalize_axis,
)
from xrelay.dialects.relay.elementwise import FloatUnaryOp
from xrelay.dialects.relay.nn import expect_data_rank


@irdl_op_definition
class FastExpOp(FloatUnaryOp):
    """`relay.fast_exp`: `e^x` (TVM's fast approximation; exact in xrelay)."""

    name = "relay.fast_exp"


@irdl_op_definition
class FastTanhOp(FloatUnaryOp):
    """`relay.fast_tanh`: hyperbolic tangent (TVM's fast approximation; exact in xrelay)."""

    name = "relay.fast_tanh"


@irdl_op_definition
class FastErfOp(FloatUnaryOp):
    """`relay.fast_erf`: the Gauss error function (TVM's fast approximation; exact in xrelay)."""

    name = "relay.fast_erf"


@irdl_op_definition
class FastSoftmaxOp(RelayOp):
    """`relay.nn.fast_softmax`: `exp(x) / sum(exp(x))` along `axis` (TVM's, with fast_exp)."""

    name = "relay.nn.fast_softmax"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        expect_float(operand_types, 0)
        expect_data_rank(data)
        normalize_axis(get_int(props, "axis"), len(data))
        return [operand_types[0]]


OPS = (FastExpOp, FastTanhOp, FastErfOp, FastSoftmaxOp)
