"""Reference semantics of `relay.einsum`, in numpy.

The equation is resolved by the op's own `einsum_spec` (so the interpreter and
type inference agree on every label), operands are broadcast to the labels'
extents, and the sum is taken in float64 (floats) or wrapping int64 (integers),
then cast to the element type, as `relay.matmul` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay import einsum as e
from xrelay.dialects.relay.base import get_str
from xrelay.dialects.relay.reference_tensor import checked_reference

Array = npt.NDArray[Any]


def einsum_array(equation: str, operands: list[Array]) -> Array:
    """`equation` over `operands`: the reference computation."""
    spec = e.einsum_spec(equation, [tuple(int(d) for d in x.shape) for x in operands])
    dtype = operands[0].dtype
    acc = np.float64 if dtype.kind == "f" else np.int64
    args: list[Any] = []
    for x, labels in zip(operands, spec.inputs, strict=True):
        full = np.broadcast_to(x.astype(acc), [spec.extents[label] for label in labels])
        args += [full, list(labels)]
    with np.errstate(over="ignore"):
        out = np.einsum(*args, list(spec.output))
    return np.asarray(out).astype(dtype)


@checked_reference(e.EinsumOp)
def _einsum(ev: Evaluator, op: e.EinsumOp, args: list[Value]) -> Value:
    return einsum_array(get_str(dict(op.properties), "equation"), [np.asarray(a) for a in args])
