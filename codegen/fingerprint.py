"""Fast digests of what decides a build's result, for the whole-build cache (`build_cache.py`).

- `module_digest(module)`: the module's structure without printing it: every
  op's name, its operands (by definition order), results, block arguments and
  successors, their types and name hints, its properties and attributes (a dense
  constant by its type and a blake2b of its bytes; any other attribute by its
  text, printed once per distinct attribute), regions and blocks.
  DenseNet-121's 1670 ops take ~25 ms where printing takes ~120 ms.
- `params_digest(params)`: each bound array's name, dtype, shape and bytes.
- `source_stamp()`: a digest of xrelay's own files (`.py`, `.h`, `.c`, every
  file of its packages but bytecode), of the Python, xDSL and numpy versions
  and of the CPU (its `/proc/cpuinfo` model and flags: `-march=native` code is
  the CPU's), computed once per process, so an edited xrelay never serves a
  library an older one built.
- `callable_identity(fn)`: a name for a BYOC predicate, pattern table or hook
  that is the same in every process: xrelay's own functions by module and
  qualified name (their code is in the source stamp) and the plain values they
  close over; None for anything else (a user's function: the cache cannot
  know what it does, so such a build is not cached).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.metadata
import platform
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

_PACKAGES = ("xrelay", "xrelay.dialects", "xrelay.passes", "xrelay.codegen", "xrelay.tools")
"""The top-level packages of xrelay (pyproject.toml maps each to a folder)."""


class _Hasher:
    """blake2b with length-prefixed fields, so no two field lists hash alike by concatenation."""

    def __init__(self) -> None:
        self.digest = hashlib.blake2b(digest_size=32)

    def field(self, data: str | bytes) -> None:
        raw = data.encode() if isinstance(data, str) else data
        self.digest.update(len(raw).to_bytes(8, "little"))
        self.digest.update(raw)

    def hexdigest(self) -> str:
        return self.digest.hexdigest()


class _ModuleWalker:
    """Feeds one module's structure to a hasher (`module_digest`)."""

    def __init__(self, hasher: _Hasher) -> None:
        self.hasher = hasher
        self.values: dict[SSAValue, int] = {}
        self.blocks: dict[Block, int] = {}
        self.attributes: dict[Attribute, str] = {}

    def value(self, value: SSAValue) -> str:
        number = self.values.setdefault(value, len(self.values))
        return f"{number}:{value.name_hint or ''}"

    def block(self, block: Block) -> int:
        return self.blocks.setdefault(block, len(self.blocks))

    def attribute(self, attr: Attribute) -> str:
        try:
            known = self.attributes.get(attr)
        except TypeError:  # an unhashable attribute: not memoized
            return _attribute_text(attr)
        if known is None:
            known = self.attributes[attr] = _attribute_text(attr)
        return known

    def operation(self, op: Operation) -> None:
        field = self.hasher.field
        field(op.name)
        field(" ".join(self.value(v) for v in op.operands))
        field(" ".join(str(self.block(b)) for b in op.successors))
        for name in sorted(op.properties):
            field(f"p:{name}={self.attribute(op.properties[name])}")
        for name in sorted(op.attributes):
            field(f"a:{name}={self.attribute(op.attributes[name])}")
        results = (f"{self.value(r)}:{self.attribute(r.type)}" for r in op.results)
        field(" ".join(results))
        for region in op.regions:
            field("{")
            for block in region.blocks:
                args = (f"{self.value(a)}:{self.attribute(a.type)}" for a in block.args)
                field(f"^{self.block(block)}({' '.join(args)})")
                for inner in block.ops:
                    self.operation(inner)
            field("}")


def _attribute_text(attr: Attribute) -> str:
    """A dense constant's type and a digest of its bytes; any other attribute's text."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        data = hashlib.blake2b(attr.data.data, digest_size=32).hexdigest()
        return f"dense<{data}>:{attr.get_type()}"
    return str(attr)


def module_digest(module: ModuleOp) -> str:
    """A digest of `module`'s structure (see the module docstring)."""
    hasher = _Hasher()
    _ModuleWalker(hasher).operation(module)
    return hasher.hexdigest()


def params_digest(params: Mapping[str, npt.ArrayLike] | None) -> str:
    """A digest of bound params: each name, dtype, shape and bytes, by name."""
    hasher = _Hasher()
    for name in sorted(params or {}):
        array = np.ascontiguousarray(np.asarray((params or {})[name]))
        hasher.field(name)
        hasher.field(f"{array.dtype.str}{array.shape}")
        raw = array.reshape(-1).view(np.uint8).data
        hasher.field(hashlib.blake2b(raw, digest_size=32).digest())
    return hasher.hexdigest()


@functools.cache
def source_stamp() -> str:
    """A digest of xrelay's files, the Python, xDSL and numpy versions and the CPU (once)."""
    hasher = _Hasher()
    for package in _PACKAGES:
        root = Path(importlib.import_module(package).__file__ or "").parent
        files = sorted(
            path
            for path in root.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
        )
        for path in files:
            hasher.field(f"{package}/{path.relative_to(root).as_posix()}")
            hasher.field(path.read_bytes())
    hasher.field(sys.version)
    for distribution in ("xdsl", "numpy"):
        hasher.field(f"{distribution} {importlib.metadata.version(distribution)}")
    hasher.field(platform.machine())
    hasher.field(_cpu())
    return hasher.hexdigest()


def _cpu() -> str:
    """The first CPU's model and flags lines of `/proc/cpuinfo` ("" where there is none)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor()
    keys = ("model name", "flags", "Features", "CPU part")
    first = text.split("\n\n", 1)[0]
    return "\n".join(line for line in first.splitlines() if line.startswith(keys))


def callable_identity(fn: object) -> str | None:
    """xrelay's function `fn` as `module:qualname[closure values]`; None for anything else."""
    if isinstance(fn, bool | int | float | str | None):
        return repr(fn)
    if isinstance(fn, tuple | list):
        items: tuple[object, ...] | list[object] = fn  # pyright: ignore[reportUnknownVariableType]
        parts = [callable_identity(item) for item in items]
        return None if None in parts else f"({','.join(p or '' for p in parts)})"
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        return None
    if module != "xrelay" and not module.startswith("xrelay."):
        return None
    cells: Any = getattr(fn, "__closure__", None) or ()
    closure: list[str] = []
    for cell in cells:
        try:
            content: object = cell.cell_contents
        except ValueError:  # an empty cell
            content = None
        identity = callable_identity(content)
        if identity is None:
            return None
        closure.append(identity)
    return f"{module}:{qualname}[{','.join(closure)}]"


def identities(functions: Mapping[str, Callable[..., Any] | object]) -> str | None:
    """`name=identity` of each function, sorted by name; None if one has no identity."""
    parts: list[str] = []
    for name in sorted(functions):
        identity = callable_identity(functions[name])
        if identity is None:
            return None
        parts.append(f"{name}={identity}")
    return ";".join(parts)
