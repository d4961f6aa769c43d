"""Builder function for `relay.einsum` (TVM's `tvm.relay.einsum(data, equation)`)."""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.builder.tensor import _fields  # pyright: ignore[reportPrivateUsage]
from xrelay.dialects.relay import einsum as e


def einsum(data: Expr | Sequence[Expr], equation: str) -> Call:
    """`relay.einsum(data, equation)`: `data` is a list/tuple of exprs or a tuple expr."""
    return Call(e.EinsumOp, _fields(data), {"equation": attrs.str_(equation)})
