"""The runtime side of a built model: the C ABI header and the Python loader.

`HEADER` is `xrelay_runtime.h`, the documented C ABI every model library
implements (it ships in the wheel as package data); `INCLUDE_DIR` is its
directory, which the build step puts on the compiler's include path.
`loader` holds `Library` and `load`, re-exported as `xrelay.runtime`; `elf`
checks a library file before it is loaded.
"""

from __future__ import annotations

from pathlib import Path

INCLUDE_DIR: Path = Path(__file__).resolve().parent
"""The directory that holds `xrelay_runtime.h` (`-I` for C that includes it)."""

HEADER: Path = INCLUDE_DIR / "xrelay_runtime.h"
"""The C ABI header."""

ABI_VERSION = 2
"""`XRELAY_ABI_VERSION` of the header: the version a loaded library must report (2: the
library records the ISA it needs, `xrelay_required_isa` and `xrelay_missing_isa`)."""

__all__ = ["ABI_VERSION", "HEADER", "INCLUDE_DIR"]
