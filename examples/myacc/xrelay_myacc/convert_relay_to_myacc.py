"""`convert-relay-to-myacc`: each function partitioned for myacc becomes myacc kernels.

The lowering is a list of rewrite patterns (MLIR's `populate...Patterns`),
registered for target `myacc` with `register_lowering_patterns` (so another
package may add its own) and applied by `lower_partitions`, which fails with
one located error per op it could not lower (the module left unchanged):

- `LowerComposite("myacc.dense_relu")`: the composite -> `myacc.matmul_relu`;
- `LowerComposite("myacc.gelu")`: the composite -> `myacc.gelu`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern

from xrelay import transform
from xrelay.ext import (
    Built,
    LowerComposite,
    Rejected,
    body_op,
    lower_partitions,
    ops,
    outside,
    register_lowering_patterns,
)
from xrelay_myacc.dialect import GeluOp, MatmulReluOp


def build_matmul_relu(composite: ops.CompositeOp) -> Built:
    """`myacc.dense_relu` -> `myacc.matmul_relu` on the dense's data and weight."""
    dense = body_op(composite, ops.DenseOp)
    copies: list[Operation] = []
    operands = [outside(v, composite, copies) for v in dense.operands]
    return [*copies, MatmulReluOp.make(operands)]


def build_gelu(composite: ops.CompositeOp) -> Built:
    """`myacc.gelu` -> `myacc.gelu` of the erf's input (the pattern checked the constants)."""
    erf = body_op(composite, ops.ErfOp)
    scaled = erf.operands[0].owner
    if not isinstance(scaled, Operation):
        raise Rejected("the erf reads a block argument")
    inputs = [v for v in scaled.operands if not isinstance(v.owner, ops.ConstantOp)]
    if len(inputs) != 1:
        raise Rejected("the erf's argument is not the input scaled by a constant")
    copies: list[Operation] = []
    return [*copies, GeluOp.make([outside(inputs[0], composite, copies)])]


def populate_myacc_lowering_patterns(patterns: list[RewritePattern]) -> None:
    """Add myacc's lowering patterns to `patterns`."""
    patterns.append(LowerComposite("myacc.dense_relu", build_matmul_relu))
    patterns.append(LowerComposite("myacc.gelu", build_gelu))


register_lowering_patterns("myacc", populate_myacc_lowering_patterns)


@transform.register_pass
@dataclass(frozen=True)
class ConvertRelayToMyacc(ModulePass):
    """Lower the functions partitioned for myacc to myacc kernels (rewrite patterns)."""

    name = "convert-relay-to-myacc"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_partitions(op, "myacc")
