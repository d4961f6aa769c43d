"""`xrelay.ir.instrument`: TVM's `tvm.ir.instrument` (the same as `xrelay.instrument`)."""

from __future__ import annotations

from xrelay.instrument import *  # noqa: F403
from xrelay.instrument import __all__ as __all__
