"""The build cache's entries: checksums, last use, eviction, and what builds leave behind.

An entry is a library `<name>-<key>.so` (`build.compile_library` names it) and
beside it `<name>-<key>.so.sha256`, its checksum in `sha256sum`'s format
(`sha256sum -c` in the cache checks it), or a whole build `<name>-<key>.build`
(`build_cache.py`: JSON naming the library it loads, with its checksum file
and two payloads, `.build.sources` and `.build.mlir`, whose sizes and sha256
the JSON holds; `verify_build_entry`), or a compiled object `object-<key>.o`
that builds share (`object_cache.py`), with its checksum file as a library's.
A hit is verified before it is used (`verify`): a library that is missing its
checksum, cannot be read or does not match it (truncated, overwritten, another
model's library copied over it) is reported, and the build makes it again. The
checksum file's modification time is the entry's last use: a hit touches it
(`touch`), and `evict` removes the least recently used entries until the cache
is under a size bound (`$XRELAY_CACHE_MAX_MB`, default 2048, `max_bytes`).

`evict` stats every file of every entry, so a build that ran it after each publish
would cost time in proportion to the cache's size (a process building ONNX's 1,700
conformance cases spent a third of its time there). The cache's running size is kept
in a ledger instead (`.size`, `record`): each publish adds its entry's bytes, and only
when the ledger says the bound may be passed (or it is missing, unreadable, or its last
full count is `RESCAN_SECONDS` old) does a publish scan and evict, writing the exact
size back. The ledger can only over-count through xrelay (an entry removed or replaced
counts until the next scan), which scans early, never evicts late; files put in the
cache by anything else are counted at the next periodic scan.

Builds happen in `.build-<name>-*` directories holding an `owner` file (host
and process id); `remove_stale` removes those whose process is gone (killed by
SIGTERM or SIGKILL, where no cleanup could run) or that are older than a day,
and `.kept-<name>-*` directories (failed builds kept on request). Publishing an
entry, verifying one and evicting hold `lock` on the cache directory (`flock`:
exclusive to change, shared to read), so a library and its checksum are
changed together and a reader never sees one without the other.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import socket
import tempfile
import time
import warnings
from collections.abc import Collection, Generator
from dataclasses import dataclass
from pathlib import Path

BUILD_ENTRY_SUFFIX = ".build"
"""A whole build's entry: `<name>-<key>.build` (`build_cache.py`)."""
PAYLOADS = (".sources", ".mlir")
"""The files of a whole build's entry beside its metadata: `<name>-<key>.build.sources`, ..."""
LIBRARY_GONE = "loads a library that is gone"
"""How `verify_build_entry` begins when the entry's library was evicted (no warning)."""
CHECKSUM_SUFFIX = ".sha256"
"""The checksum file of `<entry>.so` is `<entry>.so.sha256`."""
BUILD_PREFIX = ".build-"
"""A build in progress (or abandoned): `.build-<name>-<random>`."""
KEPT_PREFIX = ".kept-"
"""A failed build kept on request (`keep_failed`, `$XRELAY_KEEP_FAILED`)."""
OWNER_FILE = "owner"
"""The file in a build directory naming the host and process building there."""
STALE_SECONDS = 24 * 3600
"""A build directory older than this is removed even if its process seems alive."""
LEDGER = ".size"
"""The cache's running size in bytes and the time of its last full count (JSON)."""
RESCAN_SECONDS = 600.0
"""How old the ledger's full count may be before a publish counts every entry again."""
DEFAULT_MAX_MB = 2048.0
"""The size bound without `$XRELAY_CACHE_MAX_MB`."""
MEGABYTE = 1 << 20

_ENTRY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*-[0-9a-f]{64}\.(so|build|o)\Z")
_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64})  (\S+)\n?\Z")
_CHUNK = 1 << 20


class CacheWarning(UserWarning):
    """A cache entry was corrupt or foreign (it is rebuilt), or could not be removed."""


@dataclass(frozen=True)
class Entry:
    """One cached library, whole build or shared object."""

    library: Path
    """The `.so` file, a whole build's `.build` metadata, or a shared `.o` object."""
    size: int
    """Bytes of the library (or metadata and payloads) and its checksum file."""
    last_used: float
    """When it was built or last hit (seconds since the epoch)."""

    @property
    def checksum(self) -> Path:
        """The checksum file beside the library."""
        return checksum_path(self.library)

    def problem(self) -> str | None:
        """`verify(self.library)`, or `verify_build_entry` for a whole build."""
        if is_build_entry(self.library):
            return verify_build_entry(self.library)
        return verify(self.library)


def is_build_entry(path: Path) -> bool:
    """Whether `path` is a whole build's metadata (`<name>-<key>.build`)."""
    return path.name.endswith(BUILD_ENTRY_SUFFIX)


def payload_paths(entry: Path) -> list[Path]:
    """The payload files of a whole build's entry."""
    return [entry.with_name(entry.name + suffix) for suffix in PAYLOADS]


def verify_build_entry(entry: Path) -> str | None:
    """None if a whole build's metadata matches its checksum, its payloads match the sizes
    and sha256 it records and its library is there and sound; else what is wrong."""
    data, problem = read_verified(entry)
    if data is None:
        return problem
    try:
        meta = json.loads(data.decode("utf-8"))
        library = entry.with_name(str(meta["library"]))
        recorded = {str(s): (int(v[0]), str(v[1])) for s, v in meta["payloads"].items()}
        library_sha256 = str(meta["library_sha256"])
        for field in ("targets", "manifest", "unit_cflags", "ldflags"):
            meta[field]
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        return f"has malformed metadata ({error})"
    named = _ENTRY.match(library.name) and library.suffix == ".so"
    if not named or set(recorded) != set(PAYLOADS):
        return "has malformed metadata (library or payloads)"
    for path in payload_paths(entry):
        size, sha256 = recorded[path.name.removeprefix(entry.name)]
        try:
            if path.stat().st_size != size or file_sha256(path) != sha256:
                return f"has a payload {path.name} that does not match its checksum"
        except OSError as error:
            return f"has a payload {path.name} that cannot be read ({error.strerror or error})"
    if not library.exists():
        return f"{LIBRARY_GONE} ({library.name})"
    problem = verify(library)
    if problem is not None:
        return f"loads a library that {problem}"
    line = _CHECKSUM_LINE.match(checksum_path(library).read_text(encoding="ascii"))
    if line is None or line.group(1) != library_sha256:
        return "loads a library other than the one it was built with"
    return None


def checksum_path(library: Path) -> Path:
    """Where the checksum of `library` is kept."""
    return library.with_name(library.name + CHECKSUM_SUFFIX)


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (`OSError` if it cannot be read)."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def write_checksum(library: Path, published_name: str) -> Path:
    """Write `library`'s checksum file (naming the library as `published_name`) beside it."""
    checksum = checksum_path(library)
    checksum.write_text(f"{file_sha256(library)}  {published_name}\n", encoding="ascii")
    return checksum


def _recorded_sha256(library: Path) -> tuple[str | None, str | None]:
    """The sha256 `library`'s checksum file records, else None and what is wrong with it."""
    try:
        text = checksum_path(library).read_text(encoding="ascii")
    except FileNotFoundError:
        return None, "has no checksum file"
    except (OSError, UnicodeDecodeError) as error:
        return None, f"has an unreadable checksum file ({error})"
    line = _CHECKSUM_LINE.match(text)
    if line is None or line.group(2) != library.name:
        return None, "has a malformed checksum file"
    return line.group(1), None


_MISMATCH = "does not match its checksum (corrupt, or another library was put in its place)"


def verify(library: Path) -> str | None:
    """None if `library` matches its checksum file, else what is wrong with it."""
    recorded, problem = _recorded_sha256(library)
    if recorded is None:
        return problem
    try:
        actual = file_sha256(library)
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    return None if actual == recorded else _MISMATCH


def read_verified(entry: Path) -> tuple[bytes | None, str | None]:
    """`entry`'s bytes, read once, if they match its checksum file; else None and what is
    wrong with it (as `verify` says)."""
    recorded, problem = _recorded_sha256(entry)
    if recorded is None:
        return None, problem
    try:
        data = entry.read_bytes()
    except OSError as error:
        return None, f"cannot be read ({error.strerror or error})"
    if hashlib.sha256(data).hexdigest() != recorded:
        return None, _MISMATCH
    return data, None


def touch(library: Path) -> None:
    """Record a use of the entry (its checksum file's modification time); best effort."""
    with contextlib.suppress(OSError):
        os.utime(checksum_path(library))


@contextlib.contextmanager
def lock(cache: Path, *, shared: bool = False) -> Generator[None]:
    """Hold the cache directory's `flock` (shared: reading entries; exclusive: changing them)."""
    descriptor = os.open(cache, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def publish(built: Path, target: Path) -> None:
    """Move the library `built` (its checksum file beside it) to `target`; hold `lock`."""
    checksum = write_checksum(built, target.name)
    os.replace(built, target)
    os.replace(checksum, checksum_path(target))


def remove_entry(library: Path) -> None:
    """Delete a library (or whole build) and its checksum file (missing files are fine)."""
    payloads = payload_paths(library) if is_build_entry(library) else []
    for path in (library, checksum_path(library), *payloads):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def entries(cache: Path) -> list[Entry]:
    """The cached libraries, least recently used first (a missing checksum: the library's time)."""
    found: list[Entry] = []
    for library in cache.iterdir():
        if not _ENTRY.match(library.name):
            continue
        try:
            info = library.stat()
        except OSError:
            continue  # removed meanwhile
        try:
            mark = checksum_path(library).stat()
            size, used = info.st_size + mark.st_size, mark.st_mtime
        except OSError:
            size, used = info.st_size, info.st_mtime
        found.append(Entry(library, size + _payload_bytes(library), used))
    return sorted(found, key=lambda entry: (entry.last_used, entry.library.name))


def entry_bytes(library: Path) -> int:
    """The bytes of an entry's files (those missing count 0), as `entries` counts them."""
    total = _payload_bytes(library)
    for path in (library, checksum_path(library)):
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return total


def _payload_bytes(library: Path) -> int:
    total = 0
    if is_build_entry(library):
        for payload in payload_paths(library):
            with contextlib.suppress(OSError):
                total += payload.stat().st_size
    return total


def orphan_checksums(cache: Path) -> list[Path]:
    """Checksum files whose library is gone, and whole builds' files whose metadata is."""
    found: list[Path] = []
    for entry_suffix in (".so", ".o", BUILD_ENTRY_SUFFIX):
        extras = (CHECKSUM_SUFFIX, *(PAYLOADS if entry_suffix == BUILD_ENTRY_SUFFIX else ()))
        for extra in extras:
            for path in cache.glob(f"*{entry_suffix}{extra}"):
                if not path.with_name(path.name.removesuffix(extra)).exists():
                    found.append(path)
    return found


def max_bytes(text: str | None = None, source: str = "XRELAY_CACHE_MAX_MB") -> int:
    """The size bound: `text` (default `$XRELAY_CACHE_MAX_MB`) megabytes (MiB), default 2048.

    `ValueError` naming `source` unless it is a number of at least 0.
    """
    if text is None:
        text = os.environ.get("XRELAY_CACHE_MAX_MB", "")
    if not text.strip():
        return int(DEFAULT_MAX_MB * MEGABYTE)
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = -1.0
    if not 0 <= megabytes < float("inf"):
        raise ValueError(f"{source} must be a number of megabytes >= 0, got {text!r}")
    return int(megabytes * MEGABYTE)


def evict(cache: Path, bound: int, keep: Path | Collection[Path] | None = None) -> list[Entry]:
    """Remove least recently used entries (never those in `keep`) until the cache holds at
    most `bound` bytes of entries; the entries removed. The caller holds `lock`."""
    kept: set[Path] = set() if keep is None else {keep} if isinstance(keep, Path) else set(keep)
    current = entries(cache)
    total = sum(entry.size for entry in current)
    removed: list[Entry] = []
    for entry in current:
        if total <= bound:
            break
        if entry.library in kept:
            continue
        remove_entry(entry.library)
        total -= entry.size
        removed.append(entry)
    _write_ledger(cache, total, time.time())
    return removed


def record(cache: Path, library: Path, bound: int, keep: Collection[Path]) -> list[Entry]:
    """Count the entry `library`, just published, in the ledger; `evict` (counting every
    entry) only when the cache may now hold more than `bound` bytes, or the ledger is
    missing, unreadable or its full count `RESCAN_SECONDS` old. The entries removed; the
    caller holds `lock`."""
    ledger = _read_ledger(cache)
    if ledger is not None:
        size, counted = ledger
        size += entry_bytes(library)
        if size <= bound and 0 <= time.time() - counted < RESCAN_SECONDS:
            _write_ledger(cache, size, counted)
            return []
    return evict(cache, bound, keep)


def _read_ledger(cache: Path) -> tuple[int, float] | None:
    try:
        data = json.loads((cache / LEDGER).read_text(encoding="utf-8"))
        size, counted = int(data["bytes"]), float(data["counted"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (size, counted) if size >= 0 else None


def _write_ledger(cache: Path, size: int, counted: float) -> None:
    """Best effort: a ledger that cannot be written makes the next publish count again."""
    with contextlib.suppress(OSError):
        (cache / LEDGER).write_text(json.dumps({"bytes": size, "counted": counted}), "utf-8")


def new_build_directory(cache: Path, name: str) -> Path:
    """A private build directory in `cache`, with its `owner` file written."""
    build = Path(tempfile.mkdtemp(prefix=f"{BUILD_PREFIX}{name}-", dir=cache))
    owner = {"host": socket.gethostname(), "pid": os.getpid()}
    (build / OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")
    return build


def keep_build_directory(build: Path) -> Path:
    """Rename a failed build's directory to `.kept-*` (which builds leave alone); its new path."""
    kept = build.with_name(KEPT_PREFIX + build.name.removeprefix(BUILD_PREFIX))
    try:
        build.rename(kept)
    except OSError:
        return build
    return kept


def remove_directory(path: Path) -> None:
    """Delete a build directory; a warning (not an error) if it cannot be."""

    def failed(_function: object, failing: str, info: tuple[type, BaseException, object]) -> None:
        if not isinstance(info[1], FileNotFoundError):
            warnings.warn(f"cannot remove {failing}: {info[1]}", CacheWarning, stacklevel=4)

    shutil.rmtree(path, onerror=failed)


def is_stale(build: Path, now: float | None = None) -> bool:
    """Whether a `.build-*` directory was abandoned: its process is gone, or it is a day old."""
    now = time.time() if now is None else now
    try:
        age = now - build.stat().st_mtime
    except OSError:
        return False
    if age > STALE_SECONDS:
        return True
    try:
        owner = json.loads((build / OWNER_FILE).read_text(encoding="utf-8"))
        host, pid = str(owner["host"]), int(owner["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return False  # just created (no owner yet) or not ours: left to the age rule
    if host != socket.gethostname() or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, someone else's
    return False


def remove_stale(cache: Path, *, kept: bool = False) -> list[Path]:
    """Remove abandoned build directories (and with `kept`, kept failed builds); those removed."""
    removed: list[Path] = []
    now = time.time()
    for path in cache.iterdir():
        abandoned = path.name.startswith(BUILD_PREFIX) and is_stale(path, now)
        unwanted = kept and path.name.startswith(KEPT_PREFIX)
        if (abandoned or unwanted) and path.is_dir():
            remove_directory(path)
            removed.append(path)
    return removed
