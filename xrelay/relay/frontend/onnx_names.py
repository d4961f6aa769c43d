"""Name hints for ONNX value names: sanitized to what xrelay text accepts, unique, predictable.

The rule (docs/onnx.md): every character outside `[A-Za-z0-9_$.-]` becomes
`_`; a name that is empty or starts with a digit gets a `v` prefix; a final
`_<digits>` becomes `.<digits>` (xDSL drops a `_<digits>` suffix from name
hints: it is the printer's own suffix for repeated names); a name already
taken gets `.1`, `.2`, ... (the first free one). Names are given in this
order: graph inputs, initializers, then node outputs in node order.
"""

from __future__ import annotations

import re

_INVALID = re.compile(r"[^A-Za-z0-9_$.-]")
_NUMBER_SUFFIX = re.compile(r"_(\d+)$")


def sanitize(name: str) -> str:
    """`gpu_0/conv1_w_0` -> `gpu_0_conv1_w.0`; `0` -> `v0`; `` -> `v`."""
    cleaned = _INVALID.sub("_", name)
    if not cleaned or cleaned[0].isdigit():
        cleaned = "v" + cleaned
    return _NUMBER_SUFFIX.sub(r".\1", cleaned)


class Namer:
    """Gives each ONNX value name a unique name hint, in the order asked."""

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self.hints: dict[str, str] = {}

    def hint(self, onnx_name: str) -> str:
        """The name hint of `onnx_name` (the same one when asked again)."""
        if onnx_name in self.hints:
            return self.hints[onnx_name]
        base = sanitize(onnx_name)
        candidate, n = base, 0
        while candidate in self.taken:
            n += 1
            candidate = f"{base}.{n}"
        self.taken.add(candidate)
        self.hints[onnx_name] = candidate
        return candidate
