"""`xrelay.relay.vision`: builder functions for `relay.vision.*` ops (as `tvm.relay.vision`)."""

from __future__ import annotations

from xrelay.dialects.builder.vision import *  # noqa: F403
