"""`simplify-expr`'s transpose and layout_transform rewrites (TVM's `SimplifyTranspose` and
`SimplifyNoOpTranspose`), kept apart so `simplify_expr.py` stays small.

A *permutation* is a `relay.transpose`, or a `relay.layout_transform` whose two layouts
have the same axes and factors in another order (`NCHW` -> `NHWC`, `NCHW4c` -> `NHWC4c`:
dim `i` of the result is dim `src.index(dst[i])` of the input). For an op
`outer(inner(x))`, each a transpose or a layout_transform:

- both permutations: one `relay.transpose` of `x` with the composed axes, or `x` itself
  when they compose to the identity (TVM emits a transpose even for two layout
  transforms, `NCHW->NHWC->CHWN` is `transpose(x, [1, 2, 3, 0])`);
- a rank-increasing layout_transform after a permutation (`transpose` to `NCHW`, then
  `NCHW -> NCHW4c`): one layout_transform of `x` from the source layout permuted back
  (`NHWC -> NCHW4c`); a permutation after a rank-decreasing one (`NCHW4c -> NCHW`, then
  transpose to `NHWC`): one layout_transform to the permuted layout (`NCHW4c -> NHWC`);
- two layout transforms that chain (the outer's source is the inner's destination) and
  are not both permutations (blocked layouts): one `src -> dst` transform, or `x` when
  `src == dst` (xrelay's layout transforms never pad, so each is a bijection and the
  composition exact: `NCHW4c -> NCHW8c -> NCHW4c` is `x`).

TVM also folds pairs where a permutation acts on the blocked side of a rank-changing
transform, reading axes past the permutation's rank, and composes two same-rank
transforms with different factors (`NCHW4c -> NCHW8c`) as if they were permutations,
which is right only when they cancel; here such pairs fold only when they chain. A transpose
with the identity permutation (`axes` `[0, 1, ..., n-1]`, or none on a tensor of rank 0
or 1) and a layout_transform with `src_layout == dst_layout` vanish (`SimplifyNoOpTranspose`).
Every rewrite keeps the replaced value's type exactly, else it is skipped.
"""

from __future__ import annotations

import functools

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xrelay.dialects.builder.attrs import ints, str_
from xrelay.dialects.relay.base import RelayTypeError, get_opt_ints, get_str
from xrelay.dialects.relay.tensor import (
    LayoutTransformOp,
    TransposeOp,
    parse_layout,
    transpose_axes,
)
from xrelay.dialects.relay.types import rank_of
from xrelay.passes.simplify_common import forward, rebuild

Transform = TransposeOp | LayoutTransformOp


def _layouts(op: LayoutTransformOp) -> tuple[str, str]:
    props = op.properties
    return get_str(props, "src_layout"), get_str(props, "dst_layout")


@functools.lru_cache(maxsize=256)
def _primal(layout: str) -> bool:
    try:
        return all(factor == 0 for _, factor in parse_layout(layout))
    except RelayTypeError:
        return False


def _permutation(op: Operation) -> list[int] | None:
    """The axes of a transpose, or of a layout_transform between primal-only layouts."""
    if isinstance(op, TransposeOp):
        return transpose_axes(rank_of(op.data.type), get_opt_ints(op.properties, "axes"))
    if isinstance(op, LayoutTransformOp):
        perm = _layout_permutation(*_layouts(op))
        return None if perm is None else list(perm)
    return None


@functools.lru_cache(maxsize=256)
def _layout_permutation(src_layout: str, dst_layout: str) -> tuple[int, ...] | None:
    src, dst = parse_layout(src_layout), parse_layout(dst_layout)
    if sorted(src) != sorted(dst):
        return None  # not the same dims (and factors), reordered
    return tuple(src.index(axis) for axis in dst)


def _rank_change(op: Operation) -> int:
    """-1 / 0 / 1: a layout_transform that lowers / keeps / raises the rank (0: others)."""
    if not isinstance(op, LayoutTransformOp):
        return 0
    return _rank_step(*_layouts(op))


@functools.lru_cache(maxsize=256)
def _rank_step(src_layout: str, dst_layout: str) -> int:
    src, dst = len(parse_layout(src_layout)), len(parse_layout(dst_layout))
    return (dst > src) - (dst < src)


def _layout_transform(
    rewriter: PatternRewriter, op: Transform, x: SSAValue, src: str, dst: str
) -> None:
    if src == dst:
        if x.type == op.results[0].type:
            forward(rewriter, op, x)
        return
    rebuild(rewriter, op, LayoutTransformOp, x, {"src_layout": str_(src), "dst_layout": str_(dst)})


class SimplifyTranspose(RewritePattern):
    """Two adjacent transposes or layout transforms -> one, or none (module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Transform, rewriter: PatternRewriter, /) -> None:
        inner = op.data.owner
        if not isinstance(inner, TransposeOp | LayoutTransformOp):
            _drop_no_op(op, rewriter)
            return
        x = inner.data
        outer_perm, inner_perm = _permutation(op), _permutation(inner)
        if outer_perm is not None and inner_perm is not None:
            composed = [inner_perm[axis] for axis in outer_perm]
            if composed == list(range(len(composed))):
                if x.type == op.result.type:
                    forward(rewriter, op, x)
            else:
                rebuild(rewriter, op, TransposeOp, x, {"axes": ints(composed)})
            return
        if isinstance(op, LayoutTransformOp) and inner_perm is not None:
            src, dst = _layouts(op)
            if _rank_change(op) > 0 and _primal(src):
                inverse = [0] * len(inner_perm)
                for position, axis in enumerate(inner_perm):
                    inverse[axis] = position
                _layout_transform(rewriter, op, x, "".join(src[a] for a in inverse), dst)
                return
        if isinstance(inner, LayoutTransformOp) and outer_perm is not None:
            src, dst = _layouts(inner)
            if _rank_change(inner) < 0 and _primal(dst):
                _layout_transform(rewriter, op, x, src, "".join(dst[a] for a in outer_perm))
                return
        if isinstance(op, LayoutTransformOp) and isinstance(inner, LayoutTransformOp):
            (src, mid), (start, dst) = _layouts(inner), _layouts(op)
            if mid == start:
                _layout_transform(rewriter, op, x, src, dst)
                return
        _drop_no_op(op, rewriter)


def _drop_no_op(op: Transform, rewriter: PatternRewriter) -> None:
    """A transpose with the identity permutation, or a layout_transform A->A -> its input."""
    if isinstance(op, LayoutTransformOp):
        src, dst = _layouts(op)
        if src != dst:
            return
    else:
        perm = _permutation(op)
        if perm != list(range(len(perm or []))):
            return
    if op.data.type == op.result.type:
        forward(rewriter, op, op.data)
