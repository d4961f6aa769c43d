"""Compiled objects shared between the builds of one process: units that depend on their
own text only.

Most of a library's translation units are its model's, but some come out the same in
every build with the same flags: `isa_required.c` and `isa.c` (`codegen/c/isa.py`), and
generated kernel libraries that include nothing of the model's. A process that builds
many models (ONNX's conformance suite builds 1,700; a test session, a benchmark) compiles
each such unit once instead of once per build: for a small model that is two of the four
compiler processes its build runs.

A unit is shared when its text names no other file of the build (no `#include
"model.h"`, no `.incbin` of a data file): what it compiles to then depends only on its
text, the runtime header (`xrelay_runtime.h`, on the include path), the compiler and the
command line, all of which its key hashes (naming a file it does not use only costs the
reuse). The objects are kept in memory, the most recently used `CAPACITY` of them (a few
KB each); the on-disk cache holds whole libraries (`build.py`, `cache.py`).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from xrelay.codegen.runtime import HEADER

CAPACITY = 64
"""How many objects a process keeps."""

_KEY_SCHEMA = b"xrelay-object-1"

_objects: OrderedDict[str, bytes] = OrderedDict()
_lock = threading.Lock()


def is_shared(unit: str, sources: Mapping[str, str | bytes]) -> bool:
    """Whether `unit`'s text names no other file of `sources` (so its object can be shared)."""
    text = sources[unit]
    if isinstance(text, bytes):
        return False
    return not any(name != unit and name in text for name in sources)


def object_key(text: str, compiler_identity: str, argv: Sequence[str]) -> str:
    """sha256 over what the unit's object depends on, each field length-prefixed."""
    digest = hashlib.sha256()
    for data in (_KEY_SCHEMA, HEADER.read_bytes(), compiler_identity, "\0".join(argv), text):
        raw = data.encode() if isinstance(data, str) else data
        digest.update(len(raw).to_bytes(8, "little"))
        digest.update(raw)
    return digest.hexdigest()


def lookup(key: str) -> bytes | None:
    """The object compiled under `key` in this process, if kept."""
    with _lock:
        found = _objects.get(key)
        if found is not None:
            _objects.move_to_end(key)
        return found


def keep(key: str, data: bytes) -> None:
    """Keep the object compiled under `key` (dropping the least recently used beyond
    `CAPACITY`)."""
    with _lock:
        _objects[key] = data
        _objects.move_to_end(key)
        while len(_objects) > CAPACITY:
            _objects.popitem(last=False)


def clear() -> None:
    """Forget every kept object."""
    with _lock:
        _objects.clear()
