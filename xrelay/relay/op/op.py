"""`xrelay.relay.op.op`: TVM's operator handles (`relay.op.op.get("nn.conv2d")`) and hooks."""

from __future__ import annotations

from xrelay.dialects.builder.op_handle import Op, get
from xrelay.passes.alter_op_layout import register_alter_op_layout

__all__ = ["Op", "get", "register_alter_op_layout"]
