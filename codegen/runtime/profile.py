"""Reading the kernel timers of a profiling build (`xrelay_profile_*` in `xrelay_runtime.h`).

A library built with the build option `profile` counts, per timed region
("entry"), its calls and their total time (see `codegen/c/profile.py` for
what is timed and how entries are named). `read_profile` returns the entries
as `ProfileEntry` records, `reset_profile` zeroes them, `ordered` arranges
them as a tree (each kernel under the call that ran it) and `format_profile`
prints that tree as a table. `Library.profile()` and `Library.reset_profile()`
are the usual way in.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

SYMBOLS = (
    "xrelay_profile_count",
    "xrelay_profile_name",
    "xrelay_profile_read",
    "xrelay_profile_reset",
)
"""The C functions only a profiling build exports."""


@dataclass(frozen=True)
class ProfileEntry:
    """One timed region of a profiling build: its calls and total seconds so far."""

    index: int
    """Its position in the library's table; 0 is the whole run."""
    name: str
    """`main` (the whole run), a callee (`fused_nn_softmax`), or `<function>/<op>#<n>`."""
    calls: int
    seconds: float
    parent: int | None
    """The entry it runs inside (a kernel: the call of its function, else entry 0); None for 0."""

    @property
    def mean(self) -> float:
        """Seconds per call (0 before any call)."""
        return self.seconds / self.calls if self.calls else 0.0


def has_profile(dll: Any) -> bool:
    """Whether the loaded library `dll` (a `ctypes.CDLL`) was built with `profile`."""
    return all(hasattr(dll, symbol) for symbol in SYMBOLS)


def _bind(dll: Any) -> None:
    u64 = ctypes.POINTER(ctypes.c_uint64)
    for symbol, restype, argtypes in (
        ("xrelay_profile_count", ctypes.c_int32, ()),
        ("xrelay_profile_name", ctypes.c_char_p, (ctypes.c_int32,)),
        ("xrelay_profile_read", ctypes.c_int32, (ctypes.c_int32, u64, u64)),
        ("xrelay_profile_reset", None, ()),
    ):
        function = getattr(dll, symbol)
        function.restype = restype
        function.argtypes = argtypes


def parents(names: list[str]) -> list[int | None]:
    """Each entry's parent: for `<function>/<op>#<n>`, the entry named `<function>` if there
    is one, else entry 0 (the run); entry 0 has none."""
    first: dict[str, int] = {}
    for index, name in enumerate(names):
        first.setdefault(name, index)
    result: list[int | None] = []
    for index, name in enumerate(names):
        if index == 0:
            result.append(None)
            continue
        owner = name.rsplit("/", 1)[0] if "/" in name else ""
        parent = first.get(owner, 0)
        result.append(parent if parent != index else 0)
    return result


def read_profile(dll: Any) -> list[ProfileEntry]:
    """The entries of a profiling build's counters, in table order."""
    _bind(dll)
    count = int(dll.xrelay_profile_count())
    names: list[str] = []
    for index in range(count):
        raw: bytes | None = dll.xrelay_profile_name(index)
        names.append(raw.decode(errors="replace") if raw else f"#{index}")
    entries: list[ProfileEntry] = []
    for index, (name, parent) in enumerate(zip(names, parents(names), strict=True)):
        calls, nanoseconds = ctypes.c_uint64(), ctypes.c_uint64()
        if dll.xrelay_profile_read(index, ctypes.byref(calls), ctypes.byref(nanoseconds)):
            raise RuntimeError(f"xrelay_profile_read({index}) failed")
        entries.append(ProfileEntry(index, name, calls.value, nanoseconds.value * 1e-9, parent))
    return entries


def reset_profile(dll: Any) -> None:
    """Zero every counter of a profiling build."""
    _bind(dll)
    dll.xrelay_profile_reset()


def ordered(entries: list[ProfileEntry]) -> list[tuple[int, ProfileEntry]]:
    """(depth, entry) in tree order: each entry after its parent, siblings by time, longest
    first (ties in table order)."""
    children: dict[int | None, list[ProfileEntry]] = {}
    for entry in entries:
        children.setdefault(entry.parent, []).append(entry)
    out: list[tuple[int, ProfileEntry]] = []
    stack = [(0, e) for e in sorted(children.get(None, []), key=_by_time)]
    while stack:  # depth first; the stack's last entry is the longest sibling
        depth, entry = stack.pop()
        out.append((depth, entry))
        below = sorted(children.get(entry.index, []), key=_by_time)
        stack.extend((depth + 1, child) for child in below)
    return out


def _by_time(entry: ProfileEntry) -> tuple[float, int]:
    return entry.seconds, -entry.index


def format_profile(entries: list[ProfileEntry]) -> list[str]:
    """A text table of `entries` (tree order, `ordered`): name (indented under its parent),
    calls, total ms, mean us per call, share of the whole run's time (entry 0)."""
    total = entries[0].seconds if entries else 0.0
    rows = [
        (
            "  " * depth + entry.name,
            str(entry.calls),
            f"{entry.seconds * 1e3:.3f}",
            f"{entry.mean * 1e6:.2f}",
            f"{100 * entry.seconds / total:.1f}%" if total > 0 else "-",
        )
        for depth, entry in ordered(entries)
    ]
    head = ("kernel", "calls", "total ms", "mean us", "% of run")
    width = max(len(row[0]) for row in [head, *rows])
    sizes = [max(len(row[k]) for row in [head, *rows]) for k in range(1, 5)]
    lines: list[str] = []
    for row in [head, *rows]:
        cells = [cell.rjust(size) for cell, size in zip(row[1:], sizes, strict=True)]
        lines.append("  ".join([row[0].ljust(width), *cells]).rstrip())
    return lines
