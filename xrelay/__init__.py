"""xrelay: TVM Relay's compiler rebuilt MLIR-style on xDSL.

The public face only: `relay` (the builder), `IRModule`, `parse`, `evaluate`,
`optimize`, `build` (compile to a model library),
`transform` (the pass manager), `instrument` (pass instruments), `byoc`
(partitioning for external codegens), `ir` (`ir.register_op_attr`) and
`runtime` (loading and running built model libraries).
"""

from __future__ import annotations

import importlib as _importlib
import os as _os
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from xrelay import (
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
    from xrelay.api import build, evaluate, optimize, parse
    from xrelay.devices import Device, cpu, device
    from xrelay.dialects.ir_module import IRModule

_HOMES = {
    "build": "xrelay.api",
    "evaluate": "xrelay.api",
    "optimize": "xrelay.api",
    "parse": "xrelay.api",
    "Device": "xrelay.devices",
    "cpu": "xrelay.devices",
    "device": "xrelay.devices",
    "IRModule": "xrelay.dialects.ir_module",
}
"""Where each public function and class is defined."""


def __getattr__(name: str) -> object:
    """Import the public names on first use: a tool that needs only the dialects and the
    pass registry (`xrelay-opt`) does not pay for the builder, the runtime and the code
    generators at startup."""
    if name in _SUBMODULES:
        return _importlib.import_module(f"xrelay.{name}")
    if name in _HOMES:
        return getattr(_importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'xrelay' has no attribute '{name}'")


def __dir__() -> list[str]:
    """The public names too, before their first use (completion in a REPL)."""
    return sorted({*globals(), *__all__})


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

_SUBMODULES = frozenset(__all__) - _HOMES.keys()
"""The public subpackages (the rest of `__all__`)."""
