"""Reference semantics of `relay.stack` and `relay.repeat`: numpy's `stack` and `repeat`
after the shape rules of `stack_repeat` (so bad operands fail as the verifier does)."""

from __future__ import annotations

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import stack_repeat as sr
from xrelay.dialects.relay.base import get_int
from xrelay.dialects.relay.reference_tensor import checked_reference


@checked_reference(sr.StackOp)
def _stack(ev: Evaluator, op: sr.StackOp, args: list[Value]) -> Value:
    xs = [np.asarray(a) for a in args]
    axis = get_int(dict(op.properties), "axis")
    sr.stack_shape([x.shape for x in xs], axis)
    return np.stack(xs, axis=sr.stack_axis(axis, xs[0].ndim))


@checked_reference(sr.RepeatOp)
def _repeat(ev: Evaluator, op: sr.RepeatOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    props = dict(op.properties)
    repeats, axis = get_int(props, "repeats"), get_int(props, "axis")
    sr.repeat_shape(x.shape, repeats, axis)
    return np.repeat(x, repeats, axis=axis)
