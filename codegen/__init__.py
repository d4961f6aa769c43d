"""Code generation targets; importing this package registers the built-in backends.

Each backend lives in its own folder (`accel/`, `dnnl/`) and registers itself
through the public BYOC hooks (`xrelay.passes.byoc_registry`), exactly as an
out-of-tree backend would.
"""

from xrelay.codegen import accel, dnnl

__all__ = ["accel", "dnnl"]
