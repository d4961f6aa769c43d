"""Reference semantics of the fast math ops: the exact functions, computed as `exp`, `tanh`,
`erf` and `nn.softmax` are (so a FastMath rewrite leaves the reference's numbers as they were)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import fast_math as fm
from xrelay.dialects.relay.base import get_int

_erf = np.vectorize(math.erf, otypes=[np.float64])


@reference(fm.FastExpOp, fm.FastTanhOp, fm.FastErfOp)
def _fast_unary(ev: Evaluator, op: Any, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    with np.errstate(all="ignore"):
        if isinstance(op, fm.FastExpOp):
            return np.exp(x)
        if isinstance(op, fm.FastTanhOp):
            return np.tanh(x)
        return _erf(x).astype(x.dtype)


@reference(fm.FastSoftmaxOp)
def _fast_softmax(ev: Evaluator, op: fm.FastSoftmaxOp, args: list[Value]) -> Value:
    if np.asarray(args[0]).size == 0:
        return np.asarray(args[0]).copy()
    x = np.asarray(args[0]).astype(np.float64)
    axis = get_int(dict(op.properties), "axis")
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return np.exp(shifted) / np.sum(np.exp(shifted), axis=axis, keepdims=True)
