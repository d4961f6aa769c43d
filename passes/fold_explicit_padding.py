"""`fold-explicit-padding` (TVM's `FoldExplicitPadding`): an `nn.pad` read by a convolution or
a pool becomes that op's own padding.

The consumers, as TVM's: `nn.conv1d`, `nn.conv2d`, `nn.conv3d` (the pad is the data, not the
weight), `nn.max_pool1d/2d/3d` and `nn.avg_pool1d/2d/3d`. The pad is folded when

- its `pad_mode` is `"constant"` and its `pad_value` is what the consumer pads with: 0 for a
  convolution or an average pool; for a max pool the lowest finite value of the data's dtype
  (TVM's `min_value`, what a max pool's own padding holds: `-FLT_MAX` for float32, 0 for
  uint8; not `-inf`, which TVM does not fold either);
- it pads only the spatial axes of the consumer's layout (the `D`, `H`, `W` letters of
  `data_layout` / `layout`; a blocked layout's inner axes such as the `4c` of `NCHW4c` must
  not be padded);
- for an average pool with `count_include_pad = false`, the pool has no padding of its own:
  the folded pool then counts its padding (`count_include_pad = true`), as the explicit pad's
  zeros were counted. With padding of its own such a pool is left alone (its divisor
  excludes that padding but counted the pad's zeros).

The folded op pads by its own padding plus the pad's widths, before and after each spatial
axis, written out in full (`2 * rank` values). A pad read by several ops is folded into each
that qualifies and stays for the others; chained pads fold one after another. A pad left
unread is erased.

What changes in numbers: a convolution's implicit padding adds nothing (docs/semantics.md),
whereas the explicit pad's zeros were multiplied by the weights, so a weight of ±inf or NaN
whose taps fall in the padding no longer makes the output NaN; otherwise the results are
the same. TVM's other rule, a pad before `qnn.conv2d` whose value is the input zero point,
has nothing to apply to (no QNN here). A function pass (opt level 0, as TVM's), into nested
regions too; not in `optimize` (TVM's default pipeline does not run it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xrelay.dialects.builder.attrs import ints
from xrelay.dialects.relay.base import (
    RelayOp,
    get_bool,
    get_float,
    get_ints,
    get_str,
    properties_with_defaults,
)
from xrelay.dialects.relay.nn import Conv2DOp, PadOp
from xrelay.dialects.relay.nn_conv import SPATIAL, Conv1DOp, Conv3DOp, pad_nd
from xrelay.dialects.relay.nn_pool import (
    AvgPool1DOp,
    AvgPool2DOp,
    AvgPool3DOp,
    MaxPool1DOp,
    MaxPool2DOp,
    MaxPool3DOp,
)
from xrelay.dialects.relay.reference_window import lowest
from xrelay.dialects.relay.types import numpy_dtype, tensor_element_type
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_manager import Pass
from xrelay.passes.simplify_common import make, replace_by

CONVS: dict[type[RelayOp], int] = {Conv1DOp: 1, Conv2DOp: 2, Conv3DOp: 3}
"""The convolutions folded into, with their number of spatial dims."""
MAX_POOLS: tuple[type[RelayOp], ...] = (MaxPool1DOp, MaxPool2DOp, MaxPool3DOp)
AVG_POOLS: tuple[type[RelayOp], ...] = (AvgPool1DOp, AvgPool2DOp, AvgPool3DOp)


def spatial_order(op: RelayOp, layout: str) -> str | None:
    """The spatial letters in the order of `op`'s `padding` values, or None if unknown.

    A convolution's padding runs D, H, W (whatever the layout's order); a pool's follows the
    order of the letters in its layout.
    """
    rank = CONVS.get(type(op))
    if rank is not None:
        return SPATIAL[rank]
    order = "".join(c for c in layout if c in "DHW")
    return order if len(order) in (1, 2, 3) else None


def pad_widths(pad: PadOp, layout: str, order: str) -> tuple[list[int], list[int]] | None:
    """The pad's (befores, afters) over the spatial axes in `order`, or None when it pads
    another axis or the layout does not name its axes one letter each."""
    letters = "".join(c for c in layout if c.isalpha())
    widths = get_ints(pad.properties, "pad_width")
    if 2 * len(letters) != len(widths) or len(set(letters)) != len(letters):
        return None
    if any(c in "dhw" for c in letters) or sorted(c for c in letters if c in "DHW") != sorted(
        order
    ):
        return None  # a split spatial axis, or not the consumer's spatial axes
    before, after = [0] * len(order), [0] * len(order)
    for axis, letter in enumerate(letters):
        b, a = widths[2 * axis], widths[2 * axis + 1]
        if letter in order:
            before[order.index(letter)], after[order.index(letter)] = b, a
        elif b or a:
            return None
    return before, after


def folded_properties(op: RelayOp, pad: PadOp) -> dict[str, Attribute] | None:
    """`op`'s properties with `pad` folded into its padding, or None if it cannot be."""
    pad_props = properties_with_defaults(pad)
    if get_str(pad_props, "pad_mode") != "constant":
        return None
    value = get_float(pad_props, "pad_value")
    if isinstance(op, MAX_POOLS):
        implicit = float(lowest(numpy_dtype(tensor_element_type(pad.data.type))))
    else:
        implicit = 0.0
    if value != implicit:
        return None
    props = properties_with_defaults(op)
    layout = get_str(props, "data_layout" if type(op) in CONVS else "layout")
    order = spatial_order(op, layout)
    if order is None:
        return None
    widths = pad_widths(pad, layout, order)
    if widths is None:
        return None
    own_before, own_after = pad_nd(get_ints(props, "padding"), len(order))
    if isinstance(op, AVG_POOLS) and not get_bool(props, "count_include_pad"):
        if any(own_before) or any(own_after):
            return None
        props["count_include_pad"] = IntegerAttr(1, i1)
    before = [p + q for p, q in zip(widths[0], own_before, strict=True)]
    after = [p + q for p, q in zip(widths[1], own_after, strict=True)]
    props["padding"] = ints(before + after)
    return props


class FoldPad(RewritePattern):
    """`conv(pad(x), w)` -> `conv(x, w)` and `pool(pad(x))` -> `pool(x)`, padding added."""

    op_types: ClassVar[tuple[type[Operation], ...]] = (*CONVS, *MAX_POOLS, *AVG_POOLS)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, RelayOp) or not isinstance(op, self.op_types):
            return
        pad = op.operands[0].owner
        if not isinstance(pad, PadOp):
            return
        props = folded_properties(op, pad)
        if props is None:
            return
        new = make(type(op), [pad.data, *op.operands[1:]], props)
        if new is not None:
            new.attributes.update(op.attributes)
            replace_by(rewriter, op, [new])


@dataclass(frozen=True)
class FoldExplicitPaddingPass(XdslFunctionPass):
    """Fold a constant nn.pad into the padding of the conv or pool reading it (TVM's
    FoldExplicitPadding)."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "fold-explicit-padding"
    tvm_name: ClassVar[str] = "FoldExplicitPadding"
    opt_level: ClassVar[int] = 0

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        rewrite_greedily(function.body, [FoldPad()])


def FoldExplicitPadding() -> Pass:
    """TVM's `relay.transform.FoldExplicitPadding()`."""
    return XdslPass(FoldExplicitPaddingPass())
