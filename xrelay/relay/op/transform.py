"""`xrelay.relay.op.transform`: TVM's `relay.op.transform` (shape and data movement ops)."""

from __future__ import annotations

from xrelay.dialects.builder.movement import *  # noqa: F403
from xrelay.dialects.builder.tensor import *  # noqa: F403
