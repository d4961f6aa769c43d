"""`xrelay.relay.op.tensor`: TVM's `relay.op.tensor` (elementwise and creation ops)."""

from __future__ import annotations

from xrelay.dialects.builder.elementwise import *  # noqa: F403
from xrelay.dialects.builder.tensor import *  # noqa: F403
