"""`canonicalize-ops` (TVM's `CanonicalizeOps`): rewrite special ops into basic ones.

As in TVM, the one rewrite is `relay.nn.bias_add(x, b, axis)` into a
broadcasting add::

    relay.add(x, relay.expand_dims(b, axis=1, num_newaxis=rank - axis - 1))

with a negative `axis` counted from the end, and no `expand_dims` when the bias
already broadcasts (the axis is the last dimension: NHWC, dense outputs).
The add keeps the bias_add's result type (TVM keeps its `checked_type_`), so
users and the function signature are untouched; bias_add's discardable
attributes are dropped, as TVM's new call has none. Every other op is left
alone.

A function pass: `Compiler`/`Extern`/`SkipOptimization` functions are skipped.
It also leaves the bodies of `relay.composite` regions alone (TVM would rewrite
inside Composite functions): a composite such as `accel.conv2d_bias_relu` is a
matched pattern whose body the backend expects as matched. One visit per op;
linear.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xrelay.dialects.relay.base import get_int, normalize_axis
from xrelay.dialects.relay.elementwise import AddOp
from xrelay.dialects.relay.nn import BiasAddOp
from xrelay.dialects.relay.structure import CompositeOp
from xrelay.dialects.relay.tensor import ExpandDimsOp
from xrelay.dialects.relay.types import shape_of
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_manager import Pass


def inside_composite(op: Operation) -> bool:
    """Whether `op` sits in the body of a `relay.composite` (at any depth)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, CompositeOp):
            return True
        parent = parent.parent_op()
    return False


class ExpandBiasAdd(RewritePattern):
    """`bias_add(x, b, axis)` -> `add(x, expand_dims(b, 1, rank - axis - 1))`.

    TVM's BiasAddSimplifier; no expand_dims when `axis` is the last dimension.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BiasAddOp, rewriter: PatternRewriter, /) -> None:
        if inside_composite(op):
            return
        rank = len(shape_of(op.data.type))
        axis = normalize_axis(get_int(op.properties, "axis"), rank)
        bias = op.bias
        pad = rank - axis - 1
        if pad > 0:
            props: dict[str, Attribute] = {
                "axis": IntegerAttr(1, i64),
                "num_newaxis": IntegerAttr(pad, i64),
            }
            expand = ExpandDimsOp.make([bias], props)
            rewriter.insert(expand, InsertPoint.before(op))
            bias = expand.result
        add = AddOp.build(operands=[op.data, bias], result_types=[op.result.type])
        rewriter.replace(op, add)


@dataclass(frozen=True)
class CanonicalizeOpsPass(XdslFunctionPass):
    """Expand `relay.nn.bias_add` into `relay.expand_dims` and a broadcasting `relay.add`."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "canonicalize-ops"
    tvm_name: ClassVar[str] = "CanonicalizeOps"
    opt_level: ClassVar[int] = 3

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        rewrite_greedily(function.body, [ExpandBiasAdd()], apply_recursively=False)


def CanonicalizeOps() -> Pass:
    """TVM's `relay.transform.CanonicalizeOps()`."""
    return XdslPass(CanonicalizeOpsPass())
