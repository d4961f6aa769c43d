"""The whole-build cache: `xrelay.build` of a model it has built before, without passes or C.

`build_key` digests everything that decides a build's result before any pass
runs: the module (`fingerprint.module_digest`), the bound params, the target
list, the options that change the library (`settings`: opt_level, optimize,
cflags, num_threads, profile), the current PassContext's opt_level,
required and disabled passes and config, the BYOC registry of the build's
targets (their predicates, pattern tables, partition hooks and code
generators), the C compiler's identity, `$CFLAGS`, `$LDFLAGS`, and xrelay's own
files (`fingerprint.source_stamp`). It is None, and the build is neither served
nor stored, when a PassContext instrument is set (instruments must see the
passes run) or a target's registry holds a function that is not xrelay's (a
user's predicate: the cache cannot know what it does).

An entry, beside the libraries in the cache directory, is `<name>-<key>.build`
(JSON: the library entry it loads, `<name>-<ckey>.so`, with its sha256; the
targets; the cold build's step times; the sources' manifest; each payload's
size and sha256), its checksum `<name>-<key>.build.sha256` (as a library's,
`cache.py`), and two payloads: `.build.sources` (the generated files, one
after the other, as the manifest says) and `.build.mlir` (the lowered module's
text). A hit (`lookup`) verifies all of it and the library under the cache's
shared lock, then counts as a use of the entry and of its library; the
sources and the module are read from the payloads when first asked for. An
entry that does not verify, or whose library was evicted, is reported with a
`CacheWarning` (the library's eviction without one) and built again. `store`
writes the payloads in a private build directory and moves them in place
under the exclusive lock, the metadata and its checksum last, then evicts.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy.typing as npt
from xrelay.codegen import cache as cache_entries
from xrelay.codegen.build import find_compiler
from xrelay.codegen.c.emitter import CSources
from xrelay.codegen.fingerprint import (
    identities,
    module_digest,
    params_digest,
    source_stamp,
)
from xrelay.dialects.ir_module import IRModule

SCHEMA = "xrelay-whole-build-1"
"""Changes when the entry format or the key's fields do."""


def _registry_identity(targets: Sequence[str]) -> str | None:
    """The BYOC registry of `targets` as text; None if a function in it is not xrelay's."""
    from xrelay.codegen.targets import get_codegen
    from xrelay.passes import byoc_registry as registry

    parts: list[str] = []
    for target in targets:
        predicates = {
            f"{op}:{arity}": fn
            for (op, owner), (fn, arity) in registry._PREDICATES.items()  # pyright: ignore[reportPrivateUsage]
            if owner == target
        }
        tables = registry._PATTERN_TABLES  # pyright: ignore[reportPrivateUsage]
        hooks = registry._PARTITION_HOOKS  # pyright: ignore[reportPrivateUsage]
        codegen = get_codegen(target)
        described = identities(
            {
                **predicates,
                "~table": tables.get(target),
                "~hook": hooks.get(target),
                "~emitter": None if codegen is None else codegen.function_emitter,
            }
        )
        if described is None:
            return None
        if codegen is not None:
            fields = (codegen.name, codegen.lowering, codegen.cflags, codegen.ldflags)
            described += f";{fields!r};{codegen.prelude!r}"
        parts.append(f"{target}:{described}")
    return "\n".join(parts)


def _pass_context_identity() -> str | None:
    """The current PassContext's settings as text; None if it has instruments."""
    from xrelay.passes.pass_context import PassContext

    context = PassContext.current()
    if context.instruments:
        return None
    config = sorted((key, repr(value)) for key, value in context.config.items())
    return repr((context.opt_level, context.required_pass, context.disabled_pass, config))


def build_key(
    mod: IRModule,
    params: Mapping[str, npt.ArrayLike] | None,
    targets: Sequence[str],
    settings: str,
) -> str | None:
    """The whole-build cache key of a build (module docstring); None: not cacheable."""
    context = _pass_context_identity()
    registry = _registry_identity(targets)
    if context is None or registry is None:
        return None
    fields = (
        SCHEMA,
        source_stamp(),
        module_digest(mod.module),
        params_digest(params),
        repr(tuple(targets)),
        settings,
        context,
        registry,
        find_compiler().identity,
        repr(shlex.split(os.environ.get("CFLAGS", ""))),
        repr(shlex.split(os.environ.get("LDFLAGS", ""))),
    )
    return _digest(fields)


def _digest(fields: Sequence[str]) -> str:
    """sha256 (hex) over length-prefixed fields."""
    digest = hashlib.sha256()
    for text in fields:
        raw = text.encode()
        digest.update(len(raw).to_bytes(8, "little"))
        digest.update(raw)
    return digest.hexdigest()


@dataclass(frozen=True)
class Hit:
    """A verified whole-build cache entry."""

    library: Path
    """The compiled library (a compile cache entry)."""
    targets: tuple[str, ...]
    """The targets it was built for, host last."""
    sources: Path
    """The `.build.sources` payload."""
    module: Path
    """The `.build.mlir` payload."""
    manifest: list[tuple[str, str, int]]
    """Each generated file: name, `text` or `bytes`, length in bytes, in order."""
    unit_cflags: dict[str, list[str]]
    ldflags: list[str]

    def read_sources(self) -> CSources:
        """The generated files, as the cold build's `CSources`."""
        sources = CSources(unit_cflags=self.unit_cflags, ldflags=self.ldflags)
        with self.sources.open("rb") as stream:
            for name, kind, length in self.manifest:
                data = stream.read(length)
                sources.files[name] = data if kind == "bytes" else data.decode("utf-8")
        return sources

    def read_module(self) -> IRModule:
        """The lowered module, parsed (and verified) from its text."""
        from xrelay.dialects.diagnostics import check_module
        from xrelay.dialects.parser import parse_module

        text = self.module.read_text(encoding="utf-8")
        module = parse_module(text, str(self.module))
        check_module(module)
        return IRModule(module=module)


def entry_path(cache: Path, name: str, key: str) -> Path:
    """Where the entry of `key` is kept: `<cache>/<name>-<key>.build`."""
    return cache / f"{name}-{key}{cache_entries.BUILD_ENTRY_SUFFIX}"


def lookup(cache: Path, name: str, key: str) -> Hit | None:
    """The verified entry of `key` (counted as used), or None: missing, or corrupt (warned)."""
    entry = entry_path(cache, name, key)
    if not entry.exists():
        return None
    hit: Hit | None = None
    with cache_entries.lock(cache, shared=True):
        problem = cache_entries.verify_build_entry(entry)
        if problem is None:
            hit = _read_hit(entry)
    if hit is None:
        problem = problem or "is unreadable"
        if not problem.startswith(cache_entries.LIBRARY_GONE):
            warnings.warn(
                f"cache entry {entry} {problem}; building it again",
                cache_entries.CacheWarning,
                3,
            )
        return None
    cache_entries.touch(entry)
    cache_entries.touch(hit.library)
    return hit


def _read_hit(entry: Path) -> Hit:
    """The entry's metadata (already verified) as a `Hit`."""
    meta: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
    payloads = {suffix: entry.with_name(entry.name + suffix) for suffix in cache_entries.PAYLOADS}
    return Hit(
        library=entry.with_name(str(meta["library"])),
        targets=tuple(str(t) for t in meta["targets"]),
        sources=payloads[".sources"],
        module=payloads[".mlir"],
        manifest=[(str(n), str(k), int(size)) for n, k, size in meta["manifest"]],
        unit_cflags={str(u): [str(f) for f in fs] for u, fs in meta["unit_cflags"].items()},
        ldflags=[str(f) for f in meta["ldflags"]],
    )


def store(
    cache: Path,
    name: str,
    key: str,
    library: Path,
    targets: Sequence[str],
    sources: CSources,
    module: IRModule,
) -> None:
    """Add the entry of `key` for a build that made `library` (module docstring)."""
    bound = cache_entries.max_bytes()
    build = cache_entries.new_build_directory(cache, name)
    try:
        manifest: list[tuple[str, str, int]] = []
        with (build / "sources").open("wb") as stream:
            for file_name, content in sources.files.items():
                data = content if isinstance(content, bytes) else content.encode("utf-8")
                kind = "bytes" if isinstance(content, bytes) else "text"
                manifest.append((file_name, kind, len(data)))
                stream.write(data)
        (build / "mlir").write_text(str(module), encoding="utf-8")
        payloads = {suffix: build / suffix.removeprefix(".") for suffix in cache_entries.PAYLOADS}
        meta = {
            "schema": SCHEMA,
            "library": library.name,
            "library_sha256": cache_entries.file_sha256(library),
            "targets": list(targets),
            "manifest": manifest,
            "unit_cflags": sources.unit_cflags,
            "ldflags": sources.ldflags,
            "payloads": {
                suffix: [path.stat().st_size, cache_entries.file_sha256(path)]
                for suffix, path in payloads.items()
            },
        }
        metadata = build / "meta"
        metadata.write_text(json.dumps(meta), encoding="utf-8")
        target = entry_path(cache, name, key)
        with cache_entries.lock(cache):
            for suffix, path in payloads.items():
                os.replace(path, target.with_name(target.name + suffix))
            cache_entries.publish(metadata, target)
            cache_entries.record(cache, target, bound, keep=(target, library))
    finally:
        cache_entries.remove_directory(build)
