"""Reference semantics of `relay.contrib_reverse_reshape`: numpy's row-major reshape to the
shape `reverse_reshape.reverse_reshape_shape` gives for the actual input shape."""

from __future__ import annotations

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import reverse_reshape as rr
from xrelay.dialects.relay.base import get_ints
from xrelay.dialects.relay.reference_tensor import checked_reference


@checked_reference(rr.ReverseReshapeOp)
def _reverse_reshape(ev: Evaluator, op: rr.ReverseReshapeOp, args: list[Value]) -> Value:
    x = np.asarray(args[0])
    shape = tuple(int(d) for d in x.shape)
    return x.reshape(rr.reverse_reshape_shape(shape, get_ints(dict(op.properties), "newshape")))
