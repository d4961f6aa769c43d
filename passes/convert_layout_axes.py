"""ConvertLayout's axis remapping: ops that follow a new layout by renumbering their axes.

TVM's `FInferCorrectLayout` functions for these ops accept the layout their
input arrives in and rewrite their axis attributes to match, instead of asking
for the original layout back. Each function here takes an op whose data
operand (operand 0) is held in layout `dst` instead of `src` (both strings of
primal axes, one letter per dimension, the same letters) and answers the
rewritten properties and the layouts of the result, or None when the op must
be a boundary (then ConvertLayout transforms its input back).

- `squeeze`: the squeezed axes renumbered; without `axis`, the static 1-dims
  (TVM's expected graphs list them, in the new layout). The result layouts drop
  the squeezed letters (`NWC` held as `NCW` after squeezing H from NHWC/NCHW).
- reductions (`sum`, `mean`, `max`, `min`, `prod`, `all`, `any`, `argmax`,
  `argmin`, ...): the axes renumbered and sorted; without `keepdims` the
  reduced letters leave the layouts. `argmax`/`argmin` over several axes
  number their result through the reduced axes in order, so they follow only
  when the new layout keeps that order (numerics stay exact).
- `strided_slice`: with `axes`, the axes renumbered; without, begin/end/strides
  filled to the full rank (0, the dim, 1, as TVM) and permuted; `slice_mode`
  "end" only, and every filled dim must be static.
- `topk`: the axis renumbered; "both" gives a tuple of two relaid fields.
- `nn.layer_norm`, `nn.instance_norm`: the axis renumbered (gamma and beta
  stay 1-D); `nn.l2_normalize`: each axis renumbered, in the given order.
- `image.resize1d/2d/3d`: its `layout` set to the new one, when that is one the op takes
  (NCW/NWC, NCHW/NHWC, NCDHW/NDHWC), as TVM's `ResizeInferCorrectLayout`.
- `transpose`: each axis (the reversed order when `axes` is absent) renumbered to where
  its letter is in the new layout; the result is then in the layout it had (`NCHW`
  transposed `[0, 3, 1, 2]` from NHWC is `NCHW` transposed `[0, 1, 2, 3]`), so nothing
  follows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Operation
from xrelay.dialects.builder.attrs import bool_, int_, ints
from xrelay.dialects.relay.algorithm import TopKOp
from xrelay.dialects.relay.base import (
    get_bool,
    get_int,
    get_ints,
    get_opt_ints,
    get_str,
    normalize_axis,
)
from xrelay.dialects.relay.image import ResizeOp
from xrelay.dialects.relay.nn_norm import InstanceNormOp, L2NormalizeOp, LayerNormOp
from xrelay.dialects.relay.reduce import ArgReduceOp, ReduceOp, reduce_axes
from xrelay.dialects.relay.tensor import SqueezeOp, StridedSliceOp, TransposeOp, squeeze_axes
from xrelay.dialects.relay.types import ANY, shape_of

RESIZE_LAYOUTS = ("NCHW", "NHWC")


class Remapped(NamedTuple):
    """An op's new properties and its result's (src, dst) layouts; `fields` for a tuple."""

    props: dict[str, Attribute]
    src: str
    dst: str
    fields: int = 0
    """The number of relaid tuple fields (0: the result is one tensor)."""


def _moved(axis: int, src: str, dst: str) -> int:
    return dst.index(src[normalize_axis(axis, len(src))])


def _without(layout: str, letters: set[str]) -> str:
    return "".join(a for a in layout if a not in letters)


def remap_axes(op: Operation, src: str, dst: str) -> Remapped | None:
    """`op`'s properties for its data held in `dst` instead of `src`; None: a boundary."""
    props: dict[str, Attribute] = dict(op.properties)
    if isinstance(op, SqueezeOp):
        return _squeeze(op, props, src, dst)
    if isinstance(op, ReduceOp):
        return _reduce(op, props, src, dst)
    if isinstance(op, StridedSliceOp):
        return _strided_slice(op, props, src, dst)
    if isinstance(op, TopKOp):
        props["axis"] = int_(_moved(get_int(props, "axis"), src, dst))
        both = get_str(props, "ret_type") == "both"
        return Remapped(props, src, dst, 2 if both else 0)
    if isinstance(op, LayerNormOp | InstanceNormOp):
        props["axis"] = int_(_moved(get_int(props, "axis"), src, dst))
        return Remapped(props, src, dst)
    if isinstance(op, L2NormalizeOp):
        props["axis"] = ints([_moved(a, src, dst) for a in get_ints(props, "axis")])
        return Remapped(props, src, dst)
    if isinstance(op, TransposeOp):
        axes = get_opt_ints(props, "axes") or tuple(range(len(src) - 1, -1, -1))
        if len(axes) != len(src):
            return None
        props["axes"] = ints([_moved(a, src, dst) for a in axes])
        held = "".join(src[normalize_axis(a, len(src))] for a in axes)
        return Remapped(props, held, held)
    if isinstance(op, ResizeOp):
        if get_str(props, "layout") != src or dst not in op.LAYOUTS:
            return None
        props["layout"] = StringAttr(dst)
        return Remapped(props, src, dst)
    return None


def _squeeze(op: SqueezeOp, props: dict[str, Attribute], src: str, dst: str) -> Remapped:
    shape = shape_of(op.operands[0].type)
    letters = {src[a] for a in squeeze_axes(shape, get_opt_ints(props, "axis"))}
    if get_opt_ints(props, "axis") is not None or letters:
        props["axis"] = ints(sorted(dst.index(a) for a in letters))
    return Remapped(props, _without(src, letters), _without(dst, letters))


def _reduce(op: ReduceOp, props: Mapping[str, Attribute], src: str, dst: str) -> Remapped | None:
    new = dict(props)
    axes = reduce_axes(len(src), get_opt_ints(props, "axis"), get_bool(props, "exclude"))
    letters = [src[a] for a in axes]
    moved = sorted(dst.index(a) for a in letters)
    if isinstance(op, ArgReduceOp) and [dst[k] for k in moved] != letters:
        return None  # the flat index would count the reduced axes in another order
    if get_opt_ints(props, "axis") is not None:
        new["axis"] = ints(moved)
        new["exclude"] = bool_(False)
    if get_bool(props, "keepdims"):
        return Remapped(new, src, dst)
    dropped = set(letters)
    return Remapped(new, _without(src, dropped), _without(dst, dropped))


def _strided_slice(
    op: StridedSliceOp, props: dict[str, Attribute], src: str, dst: str
) -> Remapped | None:
    if get_str(props, "slice_mode") != "end":
        return None
    axes = get_opt_ints(props, "axes")
    if axes is not None:
        props["axes"] = ints([_moved(a, src, dst) for a in axes])
        return Remapped(props, src, dst)
    shape = shape_of(op.operands[0].type)
    begin, end = list(get_ints(props, "begin")), list(get_ints(props, "end"))
    strides = list(get_opt_ints(props, "strides") or ())
    rank = len(src)
    strides += [1] * (rank - len(strides))
    given = min(len(begin), len(end))
    if any(d == ANY for d in shape[len(end) :]) or any(s < 0 for s in strides[given:]):
        return None  # the filled-in bounds would not be 0 and the dim
    begin += [0] * (rank - len(begin))
    end += list(shape[len(end) :])
    order = [src.index(a) for a in dst]
    props["begin"] = ints([begin[k] for k in order])
    props["end"] = ints([end[k] for k in order])
    props["strides"] = ints([strides[k] for k in order])
    return Remapped(props, src, dst)
