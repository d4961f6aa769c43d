"""Compiled objects shared between builds: units that depend on their own text only.

Most of a library's translation units are its model's, but some come out the same in
every build with the same flags: `isa_required.c` and `isa.c` (`codegen/c/isa.py`), and
the units of the shared kernel library (`kernels_gemm.c`, `kernels_rows.c`, ...: a few
seconds each at `-O3`), which include nothing of the model's (`abi.library_unit`). A
build compiles each such unit once: its object is kept in the process (the most recently
used `CAPACITY`) and in the build cache, as the entry `object-<key>.o` beside the
libraries (`cache.py`: checksum, last use, eviction, `xrelay-cache`), so the next build
of any model, in this process or another (a test run's workers, one `xrelay-run` per
model), links it instead. An entry that does not match its checksum is compiled again,
with a `CacheWarning`.

A unit is shared when its text names no other file of the build (no `#include
"model.h"`, no `.incbin` of a data file): what it compiles to then depends only on its
text, the runtime header (`xrelay_runtime.h`, on the include path), the compiler and the
command line, all of which its key hashes (naming a file it does not use only costs the
reuse).
"""

from __future__ import annotations

import hashlib
import shutil
import threading
import warnings
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path

from xrelay.codegen import cache as cache_entries
from xrelay.codegen.runtime import HEADER

CAPACITY = 64
"""How many objects a process keeps."""

ENTRY_PREFIX = "object-"
"""An object's cache entry is `object-<key>.o`."""

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


def entry_path(cache: Path, key: str) -> Path:
    """Where the build cache `cache` keeps the object compiled under `key`."""
    return cache / f"{ENTRY_PREFIX}{key}.o"


def lookup(key: str, cache: Path | None = None) -> bytes | None:
    """The object compiled under `key`: kept in this process, else `cache`'s entry (if it
    matches its checksum: then it counts as used and is kept in the process too)."""
    with _lock:
        found = _objects.get(key)
        if found is not None:
            _objects.move_to_end(key)
            return found
    if cache is None:
        return None
    path = entry_path(cache, key)
    if not path.exists():
        return None
    with cache_entries.lock(cache, shared=True):
        found, problem = cache_entries.read_verified(path)
    if found is None:
        warnings.warn(
            f"cache entry {path} {problem}; compiling it again", cache_entries.CacheWarning, 2
        )
        return None
    cache_entries.touch(path)
    keep(key, found)
    return found


def keep(key: str, data: bytes) -> None:
    """Keep the object compiled under `key` in this process (dropping the least recently
    used beyond `CAPACITY`)."""
    with _lock:
        _objects[key] = data
        _objects.move_to_end(key)
        while len(_objects) > CAPACITY:
            _objects.popitem(last=False)


def store(cache: Path, key: str, built: Path, bound: int) -> None:
    """Publish the object `built` (in a build directory inside `cache`) as `cache`'s entry
    for `key`, counted against the cache's size `bound` (`cache.record`)."""
    copy = built.with_name(built.name + ".entry")
    shutil.copyfile(built, copy)
    target = entry_path(cache, key)
    with cache_entries.lock(cache):
        cache_entries.publish(copy, target)
        cache_entries.record(cache, target, bound, keep=(target,))


def clear() -> None:
    """Forget every object kept in this process (the cache's entries stay)."""
    with _lock:
        _objects.clear()
