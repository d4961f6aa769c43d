"""`simplify-expr`'s cast and clip rewrites (TVM's `SimplifyConsecutiveCast`,
`SimplifyClipAndConsecutiveCast` and `SimplifyClip`), kept apart so `simplify_expr.py`
stays small. (`SimplifySameCast`, a cast to the input's dtype, is `simplify_expr.py`'s
identity rule; `cast_like` is first made a `cast`, `simplify_like.py`.)

- **Consecutive casts.** `cast(cast(x, A), B)` becomes `cast(x, B)` when the first cast
  widens: A is of x's kind (int, uint, float) with at least as many bits, or of a later
  kind (int < uint < float) with at least as many bits, neither being bfloat16 (TVM's
  `IsWidenCast`; bool counts as a 1-bit uint). A narrowing first cast stays.
- **Casts after a clip.** In `cast(...cast(clip(x, lo, hi))...)`, a cast to a dtype whose
  range holds `[lo, hi]` changes no value: those casts go, the others stay in their
  order, and one cast to the chain's final dtype is added when the last one kept does
  not end there (`clip` int32 to uint8 to int32 is the clip alone). Beyond TVM, a
  cast to an integer between a float clip and a float result stays: it truncates.
- **Clips that clip nothing.** `clip(x, lo, hi)` whose `[lo, hi]` holds every value of
  x's dtype is x (a clip of uint8 to `[0, 255]`).

Ranges are numpy's `iinfo` / `finfo` (bfloat16's largest finite value for it, `[0, 1]`
for bool), compared in double as TVM does.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xrelay.dialects.relay.base import get_float
from xrelay.dialects.relay.elementwise import CastOp, ClipOp
from xrelay.dialects.relay.types import dtype_of, is_float, tensor_element_type
from xrelay.passes.simplify_common import forward, make, replace_by

_KIND = {"int": 0, "uint": 1, "float": 2, "bfloat": 4}
"""TVM's DataType codes, whose order `IsWidenCast` reads as a hierarchy."""


def _kind_bits(value: SSAValue) -> tuple[int, int]:
    """TVM's (type code, bits) of a tensor value's dtype (bool: a 1-bit uint)."""
    name = dtype_of(tensor_element_type(value.type))
    if name == "bool":
        return _KIND["uint"], 1
    for prefix in ("bfloat", "float", "uint", "int"):
        if name.startswith(prefix):
            return _KIND[prefix], int(name[len(prefix) :])
    raise AssertionError(name)


def widens(origin: tuple[int, int], cast: tuple[int, int]) -> bool:
    """TVM's `IsWidenCast`: casting from `origin` to `cast` keeps every value."""
    if origin[0] == cast[0] and origin[1] <= cast[1]:
        return True
    if _KIND["bfloat"] in (origin[0], cast[0]):
        return False
    return origin[0] < cast[0] and origin[1] <= cast[1]


def dtype_range(element: Attribute) -> tuple[float, float]:
    """The lowest and highest value of a dtype."""
    name = dtype_of(element)
    if name == "bool":
        return 0.0, 1.0
    if name == "bfloat16":
        return -3.3895313892515355e38, 3.3895313892515355e38
    dtype = np.dtype(name)
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else np.finfo(dtype)
    return float(info.min), float(info.max)


def _bounds(clip: ClipOp) -> tuple[float, float]:
    return get_float(clip.properties, "a_min"), get_float(clip.properties, "a_max")


class SimplifyConsecutiveCast(RewritePattern):
    """`cast(cast(x, A), B)` -> `cast(x, B)` when the first cast widens."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CastOp, rewriter: PatternRewriter, /) -> None:
        inner = op.data.owner
        if not isinstance(inner, CastOp) or not widens(
            _kind_bits(inner.data), _kind_bits(inner.result)
        ):
            return
        new = make(CastOp, [inner.data], {"dtype": op.dtype})
        if new is not None:
            replace_by(rewriter, op, [new])


class SimplifyClipAndConsecutiveCast(RewritePattern):
    """Casts after a clip that change no clipped value go (module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CastOp, rewriter: PatternRewriter, /) -> None:
        chain: list[CastOp] = [op]  # outermost first
        source = op.data.owner
        while isinstance(source, CastOp):
            chain.append(source)
            source = source.data.owner
        if not isinstance(source, ClipOp):
            return
        low, high = _bounds(source)
        final = tensor_element_type(op.result.type)
        # A float clip ending in a float: a cast to an integer in between truncates.
        truncating = is_float(tensor_element_type(source.data.type)) and is_float(final)
        kept: list[Attribute] = []  # innermost first
        for cast in reversed(chain):
            lo, hi = dtype_range(cast.dtype)
            if not (high <= hi and low >= lo) or (truncating and not is_float(cast.dtype)):
                kept.append(cast.dtype)
        last = kept[-1] if kept else tensor_element_type(source.results[0].type)
        if last != final:
            kept.append(final)
        if kept == [cast.dtype for cast in reversed(chain)]:
            return  # nothing to drop
        value: SSAValue = source.results[0]
        new: list[CastOp] = []
        for dtype in kept:
            cast = make(CastOp, [value], {"dtype": dtype})
            if cast is None:
                return
            assert isinstance(cast, CastOp)
            new.append(cast)
            value = cast.result
        if new:
            replace_by(rewriter, op, new)
        elif value.type == op.result.type:
            forward(rewriter, op, value)


class SimplifyClip(RewritePattern):
    """`clip(x, lo, hi)` whose bounds hold all of x's dtype -> x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ClipOp, rewriter: PatternRewriter, /) -> None:
        low, high = _bounds(op)
        lo, hi = dtype_range(tensor_element_type(op.data.type))
        if high >= hi and low <= lo and op.data.type == op.results[0].type:
            forward(rewriter, op, op.data)
