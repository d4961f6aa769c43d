"""`xrelay.relay.transform`: TVM's `relay.transform`, the same as `xrelay.transform`."""

from __future__ import annotations

from xrelay.transform import *  # noqa: F403
from xrelay.transform import __all__ as __all__
