"""`xrelay.relay.image`: builder functions for `relay.image.*` ops (mirrors `tvm.relay.image`)."""

from __future__ import annotations

from xrelay.dialects.builder.image import *  # noqa: F403
from xrelay.dialects.builder.image_sample import *  # noqa: F403
