"""`xrelay.relay.op.nn`: TVM's `relay.op.nn` (the same builders as `relay.nn`)."""

from __future__ import annotations

from xrelay.relay.nn import *  # noqa: F403
