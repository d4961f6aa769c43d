"""`myacc-fuse-matmul-relu`: `relay.nn.relu(relay.nn.dense(x, w))` -> `myacc.matmul_relu`.

A relay-level rewrite for modules that go to myacc whole (no partitioning):
each float32 2-D dense read only by a relu becomes one `myacc.matmul_relu`,
whose result takes the relu's place. A dense read by anything else stays (its
result is still needed), as does a dense whose types the kernel does not take.
The interpreter runs the result (`reference.py`); `xrelay.build` takes the
BYOC path instead (`patterns.py`, `convert_relay_to_myacc.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xrelay import transform
from xrelay.ext import RelayTypeError, ops
from xrelay_myacc.dialect import MatmulReluOp


class FuseMatmulRelu(RewritePattern):
    """`relu(dense(x, w))`, the dense read only by the relu, -> `matmul_relu(x, w)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ops.ReluOp, rewriter: PatternRewriter) -> None:
        dense = op.operands[0].owner
        if not isinstance(dense, ops.DenseOp) or not dense.results[0].has_one_use():
            return
        try:
            fused = MatmulReluOp.make(list(dense.operands))
        except RelayTypeError:
            return  # not a kernel myacc has (element type, rank)
        if fused.results[0].type != op.results[0].type:
            return
        fused.results[0].name_hint = op.results[0].name_hint
        rewriter.replace(op, fused)
        rewriter.erase(dense)


@transform.register_pass
@dataclass(frozen=True)
class MyaccFuseMatmulRelu(ModulePass):
    """Fuse each relu of a dense into one myacc.matmul_relu (relay-level rewrite)."""

    name = "myacc-fuse-matmul-relu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FuseMatmulRelu()).rewrite_module(op)
