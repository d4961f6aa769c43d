"""Reference semantics of `relay.slice_like`: numpy slicing from 0 to the shape rule's
extents (`slice_like.slice_like_shape`, on the operands' actual shapes)."""

from __future__ import annotations

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import slice_like as sl
from xrelay.dialects.relay.base import get_opt_ints
from xrelay.dialects.relay.reference_tensor import checked_reference


@checked_reference(sl.SliceLikeOp)
def _slice_like(ev: Evaluator, op: sl.SliceLikeOp, args: list[Value]) -> Value:
    x, like = np.asarray(args[0]), np.asarray(args[1])
    axes = get_opt_ints(dict(op.properties), "axes")
    ends = sl.slice_like_shape(x.shape, like.shape, axes)
    return x[tuple(slice(0, e) for e in ends)]
