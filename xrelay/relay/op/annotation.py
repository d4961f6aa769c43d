"""`xrelay.relay.op.annotation`: TVM's `relay.op.annotation` (BYOC region boundaries,
the fusion barrier)."""

from __future__ import annotations

from xrelay.dialects.builder.annotation import compiler_begin, compiler_end, stop_fusion

__all__ = ["compiler_begin", "compiler_end", "stop_fusion"]
