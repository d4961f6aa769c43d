"""`xrelay.relay.op`: TVM's `relay.op`, every op builder, and the `nn`, `tensor`, `transform`,
`annotation`, `vision` and `op` submodules (`relay.op.nn.conv2d`, `relay.op.op.get("add")`)."""

from __future__ import annotations

from xrelay.dialects.builder.algorithm import argsort, sort, topk
from xrelay.dialects.builder.einsum import einsum
from xrelay.dialects.builder.elementwise import *  # noqa: F403
from xrelay.dialects.builder.movement import *  # noqa: F403
from xrelay.dialects.builder.tensor import *  # noqa: F403
from xrelay.relay import vision
from xrelay.relay.op import annotation, nn, op, tensor, transform
from xrelay.relay.op.op import Op, get, register_alter_op_layout

__all__ = [
    "Op",
    "annotation",
    "argsort",
    "einsum",
    "get",
    "nn",
    "op",
    "register_alter_op_layout",
    "sort",
    "tensor",
    "topk",
    "transform",
    "vision",
]
