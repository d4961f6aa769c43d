"""Compile C translation units with the system compiler into one cached shared library.

`compile_library(sources)` takes the generated C (file name -> text; `.c`
files are translation units, `.h` files are written beside them for
`#include "..."`, `.bin` files are bytes written beside them for the
assembler's `.incbin`), compiles every translation unit in parallel, one compiler
process each, and links one `.so` implementing `xrelay_runtime.h` (whose
directory is on the include path). Everything is compiled with
`-fvisibility=hidden`: the translation unit that defines the ABI functions
must include the header, whose declarations export them; nothing else is
exported.

- Compiler: `$CC` (default `cc`, split like a shell word list, so `ccache gcc`
  works), run with argument lists, never through a shell.
- Flags: `BASE_CFLAGS`, then a unit's own flags (the build's `-march`, a
  target's `-O3`), then `shlex.split($CFLAGS)` + `extra_cflags` for every
  compile and the link (so `-fsanitize=...` reaches both, and `-O1` or `-O0 -g`
  wins over every unit's own level); the link adds `-shared`,
  `shlex.split($LDFLAGS)` and `-lm`.
- Cache: the library is named by a sha256 of the sources, the header, every
  flag and the compiler's identity (resolved path and `--version` output), in
  `cache_dir`, else `$XRELAY_CACHE_DIR`, else `~/.cache/xrelay`. The directory
  is created with mode 0700 and refused when another user owns it or others
  may write to it (they could plant a library we would load). A build happens
  in a private temporary directory inside the cache and its result is moved in
  place with `os.replace`, so concurrent builds of one model are safe. The
  entries' checksums, last use and eviction (`$XRELAY_CACHE_MAX_MB`) are
  `cache.py`'s: a hit that does not match its checksum is built again, with a
  `CacheWarning`.
- The whole build (passes, emission and this compile) has its own cache
  entries beside these libraries (`build_cache.py`), naming the library they load.
- A unit that names no other file of the build (`isa.c`, `isa_required.c`, the
  kernel library's units) is compiled once for each text, compiler and command
  line, and its object reused by the next builds, in this process or from the
  cache's `object-<key>.o` entries (`object_cache.py`).
- Failures: a failed compile or link, or an interrupted one (KeyboardInterrupt:
  the compilers still running are killed), removes its build directory, unless
  `keep_failed` or `$XRELAY_KEEP_FAILED=1` asks to keep it (renamed
  `.kept-<name>-*`, named in the error). A build killed outright (SIGTERM,
  SIGKILL) cannot clean up: the next build, or `xrelay-cache prune`, removes
  build directories whose process is gone.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shlex
import shutil
import stat
import subprocess
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from xrelay.codegen import cache as cache_entries
from xrelay.codegen import object_cache
from xrelay.codegen.runtime import HEADER, INCLUDE_DIR

BASE_CFLAGS: tuple[str, ...] = (
    "-std=c11",
    "-O2",
    "-fPIC",
    "-fvisibility=hidden",
    "-Wall",
    "-Wextra",
    "-Werror",
)
"""Flags of every compile and link; `-fvisibility=hidden` keeps all but the ABI private."""

_FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")
_KEY_SCHEMA = b"xrelay-build-3"  # 2: entries have a checksum file; 3: user flags last


class BuildError(RuntimeError):
    """The C compiler is missing, the cache directory is unsafe, or compiling or linking failed."""


@dataclass(frozen=True)
class Compiler:
    """The C compiler `$CC` names, and what identifies it in cache keys."""

    command: tuple[str, ...]
    """The argument list that starts it (`$CC` split into words)."""
    path: str
    """The resolved path of the executable."""
    version: str
    """Its `--version` output (exit status and both streams)."""

    @property
    def identity(self) -> str:
        """What changes when the compiler does: its command, resolved path and version."""
        return "\0".join((*self.command, self.path, self.version))


def find_compiler() -> Compiler:
    """The compiler of `$CC` (default `cc`); `BuildError` if it cannot be found or started."""
    spec = os.environ.get("CC", "").strip() or "cc"
    command = tuple(shlex.split(spec))
    found = shutil.which(command[0]) if command else None
    if found is None:
        raise BuildError(f"C compiler {spec!r} not found; set $CC")
    path = os.path.realpath(found)
    info = os.stat(path)
    try:
        version = _version(command, path, info.st_mtime_ns, info.st_size, info.st_ino)
    except (OSError, subprocess.SubprocessError) as error:
        raise BuildError(f"C compiler {spec!r} cannot be run ({error}); set $CC") from error
    return Compiler(command, path, version)


@functools.lru_cache(maxsize=32)
def _version(command: tuple[str, ...], path: str, mtime_ns: int, size: int, inode: int) -> str:
    """`command --version`, asked once per process for each state of the executable's file."""
    del path, mtime_ns, size, inode  # only part of the memo key
    env = {**os.environ, "LC_ALL": "C"}
    result = subprocess.run(
        [*command, "--version"], capture_output=True, env=env, check=False, timeout=60
    )
    out = result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")
    return f"exit {result.returncode}\n{out}"


def cache_directory(path: str | os.PathLike[str] | None = None) -> Path:
    """The build cache: `path`, else `$XRELAY_CACHE_DIR`, else `~/.cache/xrelay`.

    Created with mode 0700 if missing (so are its missing parents). `BuildError`
    if it is not a directory, is owned by another user, or is writable by group
    or others.
    """
    if path is None:
        env = os.environ.get("XRELAY_CACHE_DIR", "")
        path = env if env else Path.home() / ".cache" / "xrelay"
    path = Path(path).expanduser().absolute()
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for directory in reversed(missing):  # outermost first, each private like ~/.cache should be
        try:
            directory.mkdir(mode=0o700)
            directory.chmod(0o700)  # whatever the umask
        except FileExistsError:
            pass  # another process made it: checked below like any existing directory
        except OSError as error:
            raise BuildError(f"cannot create cache directory {path}: {error}") from error
    try:
        info = path.stat()
    except OSError as error:
        raise BuildError(f"cannot use cache directory {path}: {error}") from error
    if not stat.S_ISDIR(info.st_mode):
        raise BuildError(f"cache directory {path} is not a directory")
    if info.st_uid != os.getuid():
        raise BuildError(
            f"refusing cache directory {path}: owned by uid {info.st_uid}, not by you "
            f"(uid {os.getuid()}); set $XRELAY_CACHE_DIR to a private directory"
        )
    if info.st_mode & 0o022:
        raise BuildError(
            f"refusing cache directory {path}: writable by group or others "
            f"(mode {info.st_mode & 0o777:04o}); chmod 700 it or set $XRELAY_CACHE_DIR"
        )
    return path


def compile_library(
    sources: Mapping[str, str | bytes],
    *,
    name: str = "model",
    extra_cflags: Sequence[str] = (),
    extra_ldflags: Sequence[str] = (),
    unit_cflags: Mapping[str, Sequence[str]] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    keep_failed: bool | None = None,
) -> Path:
    """Compile and link `sources` into `<cache>/<name>-<sha256>.so`, or reuse the cached one.

    `sources` maps file names (`[A-Za-z0-9_][A-Za-z0-9_.-]*`, ending in `.c` or
    `.h`) to C text, or (ending in `.bin`) to bytes; at least one must be a `.c`
    file. `extra_cflags` apply to every unit and the link, `unit_cflags[unit]`
    to that unit only (the build's `-march`, a target's `-O3`: after
    `BASE_CFLAGS`, before `$CFLAGS` and `extra_cflags`, which the user sets last),
    `extra_ldflags` to the link (after the objects: `-ldnnl`). Returns the
    library's path. A cached library is used only if it matches its checksum
    (else a `CacheWarning` and it is built again). A failed or interrupted
    build leaves nothing behind unless `keep_failed` (default:
    `$XRELAY_KEEP_FAILED`) keeps its directory, which the error names. Raises
    `BuildError` (no compiler, unsafe cache directory, a bad
    `$XRELAY_CACHE_MAX_MB`, a compile or link error: the message names the
    file and holds the compiler's output) and `ValueError` for bad names.
    """
    units = _check_names(name, sources)
    per_unit = {unit: tuple(flags) for unit, flags in (unit_cflags or {}).items()}
    unknown = sorted(set(per_unit) - set(units))
    if unknown:
        raise ValueError(f"unit_cflags names {unknown}, which are not .c files of the sources")
    compiler = find_compiler()
    user_cflags = (*shlex.split(os.environ.get("CFLAGS", "")), *extra_cflags)
    ldflags = (*shlex.split(os.environ.get("LDFLAGS", "")), *extra_ldflags)
    cache = cache_directory(cache_dir)
    try:
        bound = cache_entries.max_bytes()
    except ValueError as error:
        raise BuildError(str(error)) from None
    unit_flags = [f"{unit}\0{' '.join(flags)}" for unit, flags in sorted(per_unit.items())]
    key = _cache_key(
        sources, compiler, (*BASE_CFLAGS, *user_cflags, "\0units", *unit_flags), ldflags
    )
    target = cache / f"{name}-{key}.so"
    if _cached(cache, target):
        return target
    keep = _keep_failed() if keep_failed is None else keep_failed
    cache_entries.remove_stale(cache)
    build = cache_entries.new_build_directory(cache, name)
    try:
        for file_name, text in sources.items():
            if isinstance(text, bytes):
                (build / file_name).write_bytes(text)
            else:
                (build / file_name).write_text(text, encoding="utf-8")
        shared = {u: str(sources[u]) for u in units if object_cache.is_shared(u, sources)}
        library = _compile(
            build, f"{name}.so", units, per_unit, compiler, user_cflags, ldflags, shared, bound
        )
        with cache_entries.lock(cache):
            cache_entries.publish(library, target)
            cache_entries.record(cache, target, bound, keep=(target,))
    except _Failed as failure:
        if keep:
            kept = cache_entries.keep_build_directory(build)
            raise BuildError(failure.message(f"{failure.kept} kept in {kept}")) from None
        cache_entries.remove_directory(build)
        hint = f"keep_failed=True or XRELAY_KEEP_FAILED=1 keeps the {failure.kept}"
        raise BuildError(failure.message(hint)) from None
    except BaseException:  # interrupted (KeyboardInterrupt), or an unexpected error
        if keep:
            cache_entries.keep_build_directory(build)
        else:
            cache_entries.remove_directory(build)
        raise
    cache_entries.remove_directory(build)
    return target


def _cached(cache: Path, target: Path) -> bool:
    """Whether `target` is in the cache and matches its checksum (then it counts as used);
    a `CacheWarning` for an entry that does not (it is then built again)."""
    if not target.exists():
        return False
    with cache_entries.lock(cache, shared=True):
        problem = cache_entries.verify(target)
    if problem is None:
        cache_entries.touch(target)
        return True
    warnings.warn(
        f"cache entry {target} {problem}; building it again", cache_entries.CacheWarning, 3
    )
    return False


def _keep_failed() -> bool:
    """`$XRELAY_KEEP_FAILED`: set and not empty, 0, false, no or off."""
    value = os.environ.get("XRELAY_KEEP_FAILED", "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


class _Failed(Exception):
    """A compile or link failed (`compile_library` makes it a `BuildError`)."""

    def __init__(self, what: str, kept: str, output: str) -> None:
        super().__init__(what)
        self.what = what
        """`compiling a.c failed with cc`."""
        self.kept = kept
        """What the build directory holds for inspection: `sources` or `objects`."""
        self.output = output
        """The compiler's output."""

    def message(self, note: str) -> str:
        return f"{self.what} ({note}):\n{self.output}"


def _compile(
    build: Path,
    library: str,
    units: Sequence[str],
    per_unit: Mapping[str, Sequence[str]],
    compiler: Compiler,
    user_cflags: Sequence[str],
    ldflags: Sequence[str],
    shared: Mapping[str, str],
    bound: int,
) -> Path:
    """Compile every unit in `build` (in parallel) and link `library`; its path, or `_Failed`.

    A unit's flags are `BASE_CFLAGS`, its own, then `user_cflags` (`$CFLAGS`, the
    build's `cflags`), so what the user asks for wins. `shared` names the units (name
    -> text) whose objects this process or the cache (`build`'s parent) may already have
    (`object_cache.py`): those are not compiled again, the others are published (`bound`:
    the cache's size bound).
    """
    compile_argv = [*compiler.command, "-I", str(INCLUDE_DIR), *BASE_CFLAGS]
    commands = {
        unit: [*compile_argv, *per_unit.get(unit, ()), *user_cflags, "-c", unit, "-o", unit + ".o"]
        for unit in units
    }
    keys = {
        unit: object_cache.object_key(text, compiler.identity, commands[unit])
        for unit, text in shared.items()
    }
    to_compile: list[str] = []
    for unit in units:
        data = object_cache.lookup(keys[unit], build.parent) if unit in keys else None
        if data is None:
            to_compile.append(unit)
        else:
            (build / f"{unit}.o").write_bytes(data)
    results = _run_all(build, [commands[unit] for unit in to_compile], os.cpu_count() or 1)
    failed = [(unit, output) for unit, output in zip(to_compile, results, strict=True) if output]
    if failed:
        raise _Failed(
            f"compiling {', '.join(unit for unit, _ in failed)} failed with {compiler.command[0]}",
            "sources",
            "\n".join(output for _, output in failed),
        )
    # The cache's entries only for objects that other libraries can reuse: a library of
    # shared units alone is itself the entry its next build hits.
    publish = len(keys) < len(units)
    for unit in to_compile:
        if unit in keys:
            object_cache.keep(keys[unit], (build / f"{unit}.o").read_bytes())
            if publish:
                object_cache.store(build.parent, keys[unit], build / f"{unit}.o", bound)
    link_argv = [*compiler.command, *BASE_CFLAGS, *user_cflags, "-shared", "-o", library]
    link = [*link_argv, *(unit + ".o" for unit in units), *ldflags, "-lm"]
    (error,) = _run_all(build, [link], 1)
    if error:
        raise _Failed(f"linking {library} failed with {compiler.command[0]}", "objects", error)
    return build / library


def _check_names(name: str, sources: Mapping[str, str | bytes]) -> list[str]:
    """The translation units of `sources`, sorted; `ValueError` for unsafe or unknown names."""
    if not _FILE_NAME.match(name):
        raise ValueError(f"library name {name!r} must match [A-Za-z0-9_][A-Za-z0-9_.-]*")
    for file_name, content in sources.items():
        binary = isinstance(content, bytes)
        if not _FILE_NAME.match(file_name) or not file_name.endswith(
            (".bin",) if binary else (".c", ".h")
        ):
            raise ValueError(
                f"source name {file_name!r} must be a plain file name ending in .c or .h "
                "(text) or .bin (bytes)"
            )
    units = sorted(n for n in sources if n.endswith(".c"))
    if not units:
        raise ValueError("sources hold no .c translation unit")
    return units


def _cache_key(
    sources: Mapping[str, str | bytes],
    compiler: Compiler,
    cflags: Sequence[str],
    ldflags: Sequence[str],
) -> str:
    """sha256 over everything the library depends on, each field length-prefixed."""
    digest = hashlib.sha256()

    def field(data: str | bytes) -> None:
        raw = data.encode() if isinstance(data, str) else data
        digest.update(len(raw).to_bytes(8, "little"))
        digest.update(raw)

    field(_KEY_SCHEMA)
    field(HEADER.read_bytes())
    field(compiler.identity)
    for flags in (cflags, ldflags):
        field("\0".join(flags))
    for file_name in sorted(sources):
        field(file_name)
        field(sources[file_name])
    return digest.hexdigest()


def _run_all(cwd: Path, commands: Sequence[list[str]], parallel: int) -> list[str]:
    """Run `commands` in `cwd`, at most `parallel` at once; for each, "" on success, else its
    output and exit status.

    Interrupted (KeyboardInterrupt), the compilers still running are killed. The processes
    are waited for from this thread, not from worker threads: a signal that arrives while a
    worker thread is being started cannot leave a thread behind that the interpreter waits
    for at exit. Their output goes to files, so no pipe fills while another is waited for.
    """
    results = [""] * len(commands)
    pending = list(range(len(commands)))
    running: list[tuple[int, subprocess.Popen[bytes], IO[bytes]]] = []
    try:
        while pending or running:
            while pending and len(running) < max(1, parallel):
                index = pending.pop(0)
                log = tempfile.TemporaryFile()  # noqa: SIM115  (closed when waited for)
                try:
                    process = subprocess.Popen(
                        commands[index], cwd=cwd, stdout=log, stderr=subprocess.STDOUT
                    )
                except OSError as error:
                    log.close()
                    results[index] = f"cannot run {commands[index][0]}: {error}"
                    continue
                running.append((index, process, log))
            if not running:
                break
            index, process, log = running[0]
            process.wait()  # (interrupted here, it is still in `running`, so it is killed)
            running.pop(0)
            with log:
                if process.returncode != 0:
                    log.seek(0)
                    output = log.read().decode(errors="replace").rstrip()
                    argv = shlex.join(commands[index])
                    results[index] = f"{output}\n[{argv} exited with status {process.returncode}]"
    except BaseException:
        for _, process, log in running:
            with contextlib.suppress(OSError):
                process.kill()
            process.wait()
            log.close()
        raise
    return results
