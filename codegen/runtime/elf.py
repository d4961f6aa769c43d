"""A structural check of a shared library before `dlopen` sees it.

The dynamic loader maps a library's segments without checking that the file
holds them, so a truncated library crashes the process on first access
(SIGBUS) instead of failing to load. `check_shared_object` reads the ELF
header and program headers (ELF spec, System V gABI) and refuses a file that
is not an ELF shared object for this machine, or whose loadable segments or
section headers lie past its end.
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from pathlib import Path

# ELF identification: e_ident (16 bytes), then e_type, e_machine as in the ELF spec.
_ELF_MAGIC = b"\x7fELF"
_ET_DYN = 3
_PT_LOAD = 1
_PT_DYNAMIC = 2


def check_shared_object(path: Path) -> None:
    """`OSError` naming `path` unless it is a whole ELF shared object for this machine (Linux)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        data = path.read_bytes()
    except OSError as error:
        raise OSError(f"cannot read model library {path}: {error.strerror}") from error
    problem = _elf_problem(data, _host_machine())
    if problem:
        raise OSError(f"{path} is not a valid model library: {problem}")


@dataclass(frozen=True)
class _Machine:
    ident: bytes
    """EI_CLASS and EI_DATA: word size and byte order."""
    machine: int
    """e_machine."""


def _host_machine() -> _Machine | None:
    """The ELF class, byte order and machine of this Python executable, if readable."""
    try:
        with open(sys.executable, "rb") as file:
            head = file.read(20)
    except OSError:
        return None
    if len(head) < 20 or head[:4] != _ELF_MAGIC:
        return None
    order = "<" if head[5] == 1 else ">"
    return _Machine(head[4:6], struct.unpack_from(order + "H", head, 18)[0])


def _elf_problem(data: bytes, host: _Machine | None) -> str:
    """What makes `data` unloadable as a shared object for `host`, or ""."""
    if len(data) < 64 or data[:4] != _ELF_MAGIC:
        return "not an ELF file"
    if data[4] not in (1, 2) or data[5] not in (1, 2):
        return "unknown ELF class or byte order"
    wide = data[4] == 2  # ELFCLASS64
    order = "<" if data[5] == 1 else ">"
    e_type, e_machine = struct.unpack_from(order + "HH", data, 16)
    if host is not None and (data[4:6] != host.ident or e_machine != host.machine):
        return f"built for another machine (ELF machine {e_machine}, class {data[4]})"
    if e_type != _ET_DYN:
        return f"not a shared object (ELF type {e_type})"
    # e_phoff, e_shoff, e_flags, e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx
    header = order + ("QQIHHHHHH" if wide else "IIIHHHHHH")
    phoff, shoff, _, _, phentsize, phnum, shentsize, shnum, _ = struct.unpack_from(
        header, data, 32 if wide else 28
    )
    # p_type, p_flags, p_offset, ..., p_filesz (64-bit); p_type, p_offset, ..., p_filesz (32-bit)
    entry, fields_at = (order + "II6Q", (0, 2, 5)) if wide else (order + "8I", (0, 1, 4))
    if phentsize < struct.calcsize(entry) or phnum == 0 or phoff + phnum * phentsize > len(data):
        return "truncated or corrupt program headers"
    for index in range(phnum):
        fields = struct.unpack_from(entry, data, phoff + index * phentsize)
        p_type, offset, size = (fields[k] for k in fields_at)
        if p_type in (_PT_LOAD, _PT_DYNAMIC) and offset + size > len(data):
            return f"truncated: a segment ends at byte {offset + size} of {len(data)}"
    if shoff + shnum * shentsize > len(data):
        return "truncated: the section headers lie past the end of the file"
    return ""
