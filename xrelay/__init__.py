"""xrelay: TVM Relay's compiler rebuilt MLIR-style on xDSL.

The public face only: `relay` (the builder), `IRModule`, `parse`, `evaluate`.
"""

from __future__ import annotations

from xrelay import relay
from xrelay.api import evaluate, parse
from xrelay.dialects.ir_module import IRModule

__all__ = ["IRModule", "evaluate", "parse", "relay"]
