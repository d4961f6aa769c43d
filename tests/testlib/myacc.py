"""A tiny out-of-tree BYOC target, `myacc`, written only against xrelay's public API.

Loaded as a plugin (`--load-plugin`, or an entry point in tests): it defines
the `myacc` dialect with one op, `myacc.relu` (relu on f32), whose semantics
are a numpy reference; marks `nn.relu` as supported by target `myacc`
(`xrelay.ir.register_op_attr`); registers the pass `convert-relay-to-myacc`
(each `relay.nn.relu` of a `Compiler = "myacc"` function becomes `myacc.relu`,
an xDSL rewrite pattern) and the code generator of target `myacc`, whose
function emitter prints `myacc.relu` as one C loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import irdl_op_definition, operand_def, result_def
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xrelay import ir, transform
from xrelay.ext import (
    CEmitter,
    CodegenTarget,
    Evaluator,
    FunctionEmitter,
    Kernel,
    Props,
    RelayOp,
    expect_tensor,
    numel,
    ops,
    reference,
    register_codegen,
    register_dialect,
)

LOADS: list[int] = []
"""One entry per execution of this module (tests check plugins load once)."""
LOADS.append(1)


@irdl_op_definition
class MyaccReluOp(RelayOp):
    """`myacc.relu`: `max(x, 0)` on the accelerator."""

    name = "myacc.relu"
    data = operand_def(TensorType)
    result = result_def(TensorType)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0)
        return [operand_types[0]]


MYACC = Dialect("myacc", [MyaccReluOp], [])
register_dialect(MYACC)


@reference(MyaccReluOp)
def _relu(evaluator: Evaluator, op: MyaccReluOp, args: list[Any]) -> Any:
    return np.maximum(args[0], 0).astype(args[0].dtype)


ir.register_op_attr("nn.relu", "target.myacc", lambda expr: True)


class _ReluToMyacc(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ops.ReluOp, rewriter: PatternRewriter) -> None:
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, func.FuncOp):
            parent = parent.parent_op()
        if parent is None or parent.attributes.get("Compiler") != StringAttr("myacc"):
            return
        rewriter.replace(op, MyaccReluOp.make([op.operands[0]]))


@transform.register_pass
class ConvertRelayToMyacc(ModulePass):
    """Lower the functions partitioned for myacc: relay.nn.relu -> myacc.relu."""

    name = "convert-relay-to-myacc"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_ReluToMyacc()).rewrite_module(op)


def _relu_kernel(k: Kernel) -> None:
    with k.w.loop("i", numel(k.out_shape())):
        k.w.line(f"{k.outs[0]}[i] = {k.ins[0]}[i] > 0.0f ? {k.ins[0]}[i] : 0.0f;")


def _emitter(owner: CEmitter, function: func.FuncOp, symbol: str) -> FunctionEmitter:
    return FunctionEmitter(
        owner, function, symbol, target="myacc", kernels={"myacc.relu": _relu_kernel}, rules={}
    )


register_codegen(CodegenTarget("myacc", ("convert-relay-to-myacc",), _emitter))
