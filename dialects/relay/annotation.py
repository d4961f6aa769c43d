"""`relay.annotation.stop_fusion`: TVM's fusion barrier (`tvm.relay.annotation.stop_fusion`).

The value passes through unchanged. The op's pattern kind is Opaque (TVM's
`TOpPattern`), so FuseOps never puts it in a group with its producer or its
consumers; FuseOps then removes it, as TVM's fused result holds no such call (the
consumers read the producer's result directly). Not stateful: FoldConstant folds it
on a constant, as TVM's does.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import Props, RelayOp, expect_tensor


@irdl_op_definition
class StopFusionOp(RelayOp):
    """`relay.annotation.stop_fusion`: identity on a tensor; no fused group crosses it."""

    name = "relay.annotation.stop_fusion"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0)
        return [operand_types[0]]


OPS = (StopFusionOp,)
