"""`xrelay.ir`: the part of TVM's `tvm.ir` BYOC code uses (`tvm.ir.register_op_attr`)."""

from __future__ import annotations

from xrelay.passes.byoc_registry import register_op_attr

__all__ = ["register_op_attr"]
