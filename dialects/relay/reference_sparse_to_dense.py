"""Reference semantics of `relay.sparse_to_dense`: a fill, then one write per index in order
(the scatter rule of docs/semantics.md: negative once from the end, out of range dropped)."""

from __future__ import annotations

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import sparse_to_dense as sd
from xrelay.dialects.relay.base import get_ints
from xrelay.dialects.relay.reference_scan import convert
from xrelay.dialects.relay.reference_tensor import checked_reference
from xrelay.dialects.relay.types import numpy_dtype, tensor_element_type


@checked_reference(sd.SparseToDenseOp)
def _sparse_to_dense(ev: Evaluator, op: sd.SparseToDenseOp, args: list[Value]) -> Value:
    indices, values, default = (np.asarray(a) for a in args)
    shape = get_ints(dict(op.properties), "output_shape")
    sd.sparse_to_dense_check(indices.shape, values.shape, shape)
    dtype = numpy_dtype(tensor_element_type(op.result.type))
    out = np.full(shape, convert(default, dtype), dtype=dtype)
    rows = indices.reshape(-1, 1) if indices.ndim < 2 else indices
    flat = np.broadcast_to(values, (rows.shape[0],))
    for row, value in zip(rows, flat, strict=True):
        at: list[int] = []
        for q, n in zip(row.tolist(), shape, strict=True):
            q = q + n if q < 0 else q
            if not 0 <= q < n:
                break
            at.append(q)
        else:
            out[tuple(at)] = value
    return out
