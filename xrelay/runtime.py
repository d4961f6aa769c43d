"""`xrelay.runtime`: load and run a model library (TVM's `tvm.runtime.load_module`).

`load(path)` loads a library written by `export_library`, in this process or
any other; the `Library` it returns is called with numpy arrays. The C ABI the
library implements is `xrelay_runtime.h` (`HEADER`). A library built with the
option `profile` reports its kernels' times as `ProfileEntry` records (`Library.profile()`).
"""

from __future__ import annotations

from xrelay.codegen.runtime import ABI_VERSION, HEADER, INCLUDE_DIR
from xrelay.codegen.runtime.loader import Library, TensorInfo, UnsupportedCPUError, load
from xrelay.codegen.runtime.profile import ProfileEntry

__all__ = [
    "ABI_VERSION",
    "HEADER",
    "INCLUDE_DIR",
    "Library",
    "ProfileEntry",
    "TensorInfo",
    "UnsupportedCPUError",
    "load",
]
