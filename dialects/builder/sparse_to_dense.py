"""Builder of `relay.sparse_to_dense`, with TVM's signature (`tvm.relay.sparse_to_dense`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xrelay.dialects.builder import attrs, dyn
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import sparse_to_dense as sd

__all__ = ["sparse_to_dense"]


def sparse_to_dense(
    sparse_indices: Expr,
    output_shape: Sequence[int] | Expr,
    sparse_values: Expr,
    default_value: Expr | float = 0,
) -> Call:
    """`relay.sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0)`.

    `output_shape` is a list of ints or a `relay.const` of them; a computed expression is
    refused (TVM builds `dyn.sparse_to_dense` there, which xrelay does not have yet)."""
    shape = dyn.static_ints(output_shape)
    if isinstance(shape, Expr):
        raise TypeError("output_shape must be a list of ints or a relay.const of them")
    if isinstance(shape, int):
        shape = [shape]
    default = default_value if isinstance(default_value, Expr) else const(np.asarray(default_value))
    props = {"output_shape": attrs.ints(shape)}
    return Call(sd.SparseToDenseOp, [sparse_indices, sparse_values, default], props)
