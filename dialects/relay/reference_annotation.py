"""Reference semantics of `relay.annotation.stop_fusion`: the value itself."""

from __future__ import annotations

from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import annotation


@reference(annotation.StopFusionOp)
def _stop_fusion(ev: Evaluator, op: annotation.StopFusionOp, args: list[Value]) -> Value:
    return args[0]
