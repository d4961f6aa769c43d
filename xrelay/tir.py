"""`xrelay.tir`: the scalars of TVM's `tvm.tir` that Relay code passes as attribute values."""

from __future__ import annotations

from xrelay.dialects.builder.tir import Any, FloatImm, IntImm, const

__all__ = ["Any", "FloatImm", "IntImm", "const"]
