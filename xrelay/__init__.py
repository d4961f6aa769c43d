"""xrelay: TVM Relay's compiler rebuilt MLIR-style on xDSL.

The public face only: `relay` (the builder), `IRModule`, `parse`, `evaluate`,
`optimize`, `build` (compile to a model library),
`transform` (the pass manager), `instrument` (pass instruments), `byoc`
(partitioning for external codegens), `ir` (`ir.register_op_attr`) and
`runtime` (loading and running built model libraries).
"""

from __future__ import annotations

import os as _os

# In a checkout, the design card's top-level folders (dialects/, passes/,
# codegen/, tools/) sit beside this package; installed, pyproject.toml maps them
# to xrelay.<folder>. When this package is imported from a checkout (the current
# directory shadows site-packages), search the checkout root for subpackages too.
_here = _os.path.dirname(_os.path.abspath(__file__))
_root = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "dialects")) and _os.path.isfile(
    _os.path.join(_root, "dialects", "__init__.py")
):
    __path__.append(_root)

from xrelay import (  # noqa: E402
    byoc,
    codegen,
    error,
    instrument,
    ir,
    relay,
    runtime,
    tir,
    transform,
)
from xrelay.api import build, evaluate, optimize, parse  # noqa: E402
from xrelay.devices import Device, cpu, device  # noqa: E402
from xrelay.dialects.ir_module import IRModule  # noqa: E402

__all__ = [
    "Device",
    "IRModule",
    "build",
    "byoc",
    "codegen",
    "cpu",
    "device",
    "error",
    "evaluate",
    "instrument",
    "ir",
    "optimize",
    "parse",
    "relay",
    "runtime",
    "tir",
    "transform",
]
