"""Names from the IR made safe for C: identifiers, string literals and comments.

Nothing read from the IR (function names, parameter names) is pasted into C
as is. Identifiers keep only `[A-Za-z0-9_]` (anything else becomes `_`), are
prefixed (so no keyword, no reserved `_X`/`__` name and no clash with the
generated code's own names), bounded in length and made unique; string
literals escape every byte outside a plain printable set as three-digit
octal (so `"`, `\\`, `?` (trigraphs) and newlines cannot end or change them);
comments hold op names, which the dialects fix, and source locations, whose
characters outside that plain set (which has no `*`) become `_`.
"""

from __future__ import annotations

import re

from xdsl.ir import Operation
from xrelay.dialects.locations import location_text

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]+")
_PLAIN = frozenset(
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,:;/+=()[]<>@#"
)

MAX_IDENTIFIER = 60
"""Longest identifier made from an IR name (C guarantees 63 significant characters)."""


def c_identifier(text: str, prefix: str) -> str:
    """`prefix` + `text` with every run of non-identifier characters as one `_`, bounded."""
    body = _NOT_IDENTIFIER.sub("_", text).strip("_") or "anon"
    return (prefix + body)[:MAX_IDENTIFIER]


class NameTable:
    """Unique C identifiers within one scope: a taken name gets `_1`, `_2`, ..."""

    def __init__(self, reserved: frozenset[str] = frozenset()) -> None:
        self._taken: set[str] = set(reserved)

    def unique(self, text: str, prefix: str) -> str:
        """A fresh identifier for the IR name `text`."""
        base = c_identifier(text, prefix)
        name, count = base, 0
        while name in self._taken:
            count += 1
            suffix = f"_{count}"
            name = base[: MAX_IDENTIFIER - len(suffix)] + suffix
        self._taken.add(name)
        return name


def c_string(text: str) -> str:
    """A C string literal holding the UTF-8 bytes of `text`."""
    out = ['"']
    for byte in text.encode("utf-8"):
        out.append(chr(byte) if byte in _PLAIN else f"\\{byte:03o}")
    out.append('"')
    return "".join(out)


def source_comment(op: Operation) -> str:
    """` /* loc: file:line:col */`, where `op` came from in the source (its location, fused
    ones joined: `location_text`), or empty when it has none. A comment rather than `#line`:
    C diagnostics, debuggers and profiles stay on the generated C, which is what they show."""
    text = location_text(op.location)
    if not text:
        return ""
    plain = "".join(c if c.isascii() and (ord(c) in _PLAIN or c == "'") else "_" for c in text)
    return f" /* loc: {plain} */"  # no `*` in `_PLAIN`: nothing can end the comment early
