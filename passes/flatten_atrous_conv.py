"""`flatten-atrous-conv` (TVM's `FlattenAtrousConv`): `nn.space_to_batch_nd` ->
`nn.conv2d` -> `nn.batch_to_space_nd`, the way TensorFlow writes an atrous (dilated)
convolution, becomes one dilated `nn.conv2d`.

With block `b` (per spatial dim), the three ops compute a valid convolution of the data
padded by the space_to_batch `paddings` `(pb, pa)`, with dilation `b`, then drop the
batch_to_space `crops` `(cb, ca)`: the same as one convolution with dilation `b` and
padding `(pb - cb, pa - ca)`. The rewrite is taken for an NHWC `nn.conv2d` of stride 1,
dilation 1 and no padding of its own whose data is the space_to_batch_nd and whose result
the batch_to_space_nd reads, both with the conv's two spatial dims as their block and the
same block, when both paddings are non-negative and the new convolution has the
batch_to_space_nd's type. The space_to_batch_nd and the convolution stay if something else
reads them.

TVM matches the three ops by the order it visits them and pads the new convolution
"SAME" for its dilated kernel, whatever the paddings and crops were: the two agree on the
patterns TensorFlow emits (TVM's tests), and xrelay's padding is also right for the others.
TVM also flattens `qnn.conv2d` (no QNN here). A function pass (opt_level 0), not in
`optimize` (as in TVM, where a frontend calls it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xrelay.dialects.builder.attrs import ints
from xrelay.dialects.relay.base import get_ints, get_str, properties_with_defaults
from xrelay.dialects.relay.nn import Conv2DOp
from xrelay.dialects.relay.space_batch import BatchToSpaceNDOp, SpaceToBatchNDOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_manager import Pass
from xrelay.passes.simplify_common import make, replace_by


class FlattenAtrous(RewritePattern):
    """`batch_to_space_nd(conv2d(space_to_batch_nd(x)))` -> `conv2d(x, dilation = block)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BatchToSpaceNDOp, rewriter: PatternRewriter, /) -> None:
        conv = op.data.owner
        if not isinstance(conv, Conv2DOp):
            return
        s2b = conv.data.owner
        if not isinstance(s2b, SpaceToBatchNDOp):
            return
        props = properties_with_defaults(conv)
        if get_str(props, "data_layout") != "NHWC":
            return
        if get_ints(props, "strides") != (1, 1) or get_ints(props, "dilation") != (1, 1):
            return
        if any(get_ints(props, "padding")):
            return
        block = get_ints(op.properties, "block_shape")
        if len(block) != 2 or get_ints(s2b.properties, "block_shape") != block:
            return
        pads, crops = get_ints(s2b.properties, "paddings"), get_ints(op.properties, "crops")
        (top, bottom, left, right) = (p - c for p, c in zip(pads, crops, strict=True))
        if min(top, bottom, left, right) < 0:
            return
        props["dilation"] = ints(list(block))
        props["padding"] = ints([top, left, bottom, right])
        new = make(Conv2DOp, [s2b.data, conv.weight], props)
        if new is not None:
            replace_by(rewriter, op, [new])


@dataclass(frozen=True)
class FlattenAtrousConvPass(XdslFunctionPass):
    """space_to_batch_nd -> conv2d -> batch_to_space_nd as one dilated conv2d (TVM's
    FlattenAtrousConv)."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "flatten-atrous-conv"
    tvm_name: ClassVar[str] = "FlattenAtrousConv"
    opt_level: ClassVar[int] = 0

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        rewrite_greedily(function.body, [FlattenAtrous()])


def FlattenAtrousConv() -> Pass:
    """TVM's `relay.transform.FlattenAtrousConv()`."""
    return XdslPass(FlattenAtrousConvPass())
