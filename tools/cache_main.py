"""`xrelay-cache`: list, prune or clear the build cache of `xrelay.build` and `xrelay-run`.

    xrelay-cache list                  # entries (library, whole build, object): size, use, state
    xrelay-cache prune [--max-mb N]    # remove broken entries and leftovers, then evict to N MB
    xrelay-cache clear                 # remove every entry and leftover

The cache is `--cache-dir DIR`, else `$XRELAY_CACHE_DIR`, else `~/.cache/xrelay`,
with the build's safety checks (a directory of yours that others cannot write).
Entries are compiled libraries (`<name>-<key>.so`), whole builds
(`<name>-<key>.build`, with their payloads: `codegen/build_cache.py`) and the
objects builds share (`object-<key>.o`: `codegen/object_cache.py`); a whole
build is broken when its files do not match their checksums or its library is gone.
`prune` removes entries that do not match their checksum, checksum files
without a library, build directories whose process is gone and kept failed
builds (`.kept-*`), then the least recently used entries until the cache is
under `--max-mb` (default `$XRELAY_CACHE_MAX_MB`, else 2048). `clear` removes
all of that and every entry; builds in progress are left alone.

Exit status: 0 on success; 1 for a mistake (one line `xrelay-cache: error: ...`
on stderr); 2 for an internal error (a traceback: a bug in xrelay).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from xrelay.codegen import cache as entries
from xrelay.codegen.build import BuildError, cache_directory
from xrelay.tools.exit_status import exit_status

PROG = "xrelay-cache"


class CacheError(Exception):
    """A mistake on the command line: one `xrelay-cache: error: ...` line, exit 1."""


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is a `CacheError` (one line, exit status 1)."""

    def error(self, message: str) -> NoReturn:
        raise CacheError(f"{message} (see --help)")


def megabytes(size: float) -> str:
    """A size in bytes, KB or MB (binary units), with one decimal."""
    if size < 1024:
        return f"{size:.0f} B"
    if size < entries.MEGABYTE:
        return f"{size / 1024:.1f} KB"
    return f"{size / entries.MEGABYTE:.1f} MB"


def _user_error(error: Exception) -> str | None:
    """The line `xrelay-cache` prints for an error in its input, None for a bug."""
    if isinstance(error, CacheError | BuildError | ValueError | OSError):
        return f"{PROG}: error: {error}"
    return None


class CacheMain:
    """The `xrelay-cache` driver: one subcommand on one cache directory."""

    def __init__(self, args: Sequence[str] | None = None) -> None:
        self.args = self.make_parser().parse_args(args)
        self.out = sys.stdout

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> int:
        """Run on `argv` (default: the command line); the exit status (user errors never raise)."""
        return exit_status(PROG, lambda: cls(argv).run(), _user_error)

    def make_parser(self) -> argparse.ArgumentParser:
        """The command line: a subcommand, each taking `--cache-dir`."""
        parser = _ArgumentParser(
            prog=PROG,
            description="List, prune or clear xrelay's build cache: --cache-dir DIR, "
            "else $XRELAY_CACHE_DIR, else ~/.cache/xrelay.",
        )
        common = _ArgumentParser(add_help=False)
        common.add_argument(
            "--cache-dir",
            metavar="DIR",
            default=argparse.SUPPRESS,
            help="the cache (default: $XRELAY_CACHE_DIR, else ~/.cache/xrelay)",
        )
        parser.add_argument("--cache-dir", metavar="DIR", default=None, help=argparse.SUPPRESS)
        commands = parser.add_subparsers(
            dest="command",
            required=True,
            metavar="{list,prune,clear}",
            parser_class=_ArgumentParser,
        )
        commands.add_parser("list", parents=[common], help="the entries, their sizes and state")
        prune = commands.add_parser(
            "prune", parents=[common], help="remove broken entries and leftovers, evict to a bound"
        )
        prune.add_argument(
            "--max-mb",
            metavar="N",
            help="the size bound in MB (default: $XRELAY_CACHE_MAX_MB, else 2048)",
        )
        commands.add_parser("clear", parents=[common], help="remove every entry and leftover")
        return parser

    def run(self) -> int:
        """Do the subcommand; 0."""
        cache = cache_directory(self.args.cache_dir)
        command: str = self.args.command
        if command == "list":
            self.list(cache)
        elif command == "prune":
            max_mb: str | None = self.args.max_mb
            source = "XRELAY_CACHE_MAX_MB" if max_mb is None else "--max-mb"
            self.prune(cache, entries.max_bytes(max_mb, source))
        else:
            self.clear(cache)
        return 0

    def print(self, text: str) -> None:
        print(text, file=self.out)

    def list(self, cache: Path) -> None:
        """One line per entry (least recently used first), then the totals."""
        with entries.lock(cache, shared=True):
            found = [(entry, entry.problem()) for entry in entries.entries(cache)]
        self.print(f"cache {cache}")
        for entry, problem in found:
            used = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.last_used))
            state = "ok" if problem is None else f"corrupt: {problem}"
            self.print(f"{entry.library.name}  {megabytes(entry.size):>10}  {used}  {state}")
        total = sum(entry.size for entry, _ in found)
        broken = sum(problem is not None for _, problem in found)
        builds = [p for p in cache.iterdir() if p.name.startswith(entries.BUILD_PREFIX)]
        kept = [p for p in cache.iterdir() if p.name.startswith(entries.KEPT_PREFIX)]
        self.print(
            f"{len(found)} entries, {megabytes(total)} (bound {megabytes(entries.max_bytes())}), "
            f"{broken} corrupt; {len(builds)} build directories, {len(kept)} kept failed builds"
        )

    def prune(self, cache: Path, bound: int) -> None:
        """Remove broken entries and leftovers, then evict to `bound` bytes."""
        with entries.lock(cache):
            directories = entries.remove_stale(cache, kept=True)
            broken = [e for e in entries.entries(cache) if e.problem() is not None]
            for entry in broken:
                entries.remove_entry(entry.library)
            for orphan in entries.orphan_checksums(cache):
                orphan.unlink(missing_ok=True)
            evicted = entries.evict(cache, bound)
            left = entries.entries(cache)
        self.print(
            f"removed {len(broken)} corrupt entries, {len(evicted)} least recently used entries "
            f"({megabytes(sum(e.size for e in (*broken, *evicted)))}) and {len(directories)} "
            f"leftover build directories; {len(left)} entries, "
            f"{megabytes(sum(e.size for e in left))} left (bound {megabytes(bound)})"
        )

    def clear(self, cache: Path) -> None:
        """Remove every entry and leftover (builds in progress stay)."""
        with entries.lock(cache):
            directories = entries.remove_stale(cache, kept=True)
            removed = entries.entries(cache)
            for entry in removed:
                entries.remove_entry(entry.library)
            for orphan in entries.orphan_checksums(cache):
                orphan.unlink(missing_ok=True)
            (cache / entries.LEDGER).unlink(missing_ok=True)
        self.print(
            f"removed {len(removed)} entries ({megabytes(sum(e.size for e in removed))}) "
            f"and {len(directories)} leftover build directories from {cache}"
        )


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console entry point: run and exit with the status."""
    sys.exit(CacheMain.main(argv))
