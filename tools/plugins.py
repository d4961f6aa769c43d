"""`--load-plugin MODULE|PATH` (aliases MLIR's `--load-pass-plugin`, `--load-dialect-plugin`).

The tools import each plugin before reading a registry (`xrelay.plugins.load_plugin`:
by module name, or a file imported under its own name; once per process).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence

from xrelay.plugins import load_plugin


def add_argument(parser: argparse.ArgumentParser) -> None:
    """Add `--load-plugin` (repeatable) and its MLIR aliases, stored in `args.load_plugin`."""
    parser.add_argument(
        "--load-plugin",
        "--load-pass-plugin",
        "--load-dialect-plugin",
        dest="load_plugin",
        action="append",
        default=[],
        metavar="MODULE|FILE.py",
        help="import a plugin module or file that registers passes, dialects, targets, ... "
        "(repeatable; loading one twice is a no-op)",
    )


def load_plugins(specs: Iterable[str]) -> None:
    """Import each plugin; `PluginError` (an ImportError, one line) if one cannot be loaded."""
    for spec in specs:
        load_plugin(spec)


_OPTIONS = ("--load-plugin", "--load-pass-plugin", "--load-dialect-plugin")


def plugin_specs(argv: Sequence[str]) -> list[str]:
    """The plugins `argv` names (`--load-plugin X` or `--load-plugin=X`, and the aliases),
    read before the command line is parsed, so their passes get per-pass flags."""
    specs: list[str] = []
    for index, token in enumerate(argv):
        if token == "--":
            break
        name, _, value = token.partition("=")
        if name in _OPTIONS or (name[1:] in _OPTIONS and name.startswith("-")):
            if value:
                specs.append(value)
            elif index + 1 < len(argv):
                specs.append(argv[index + 1])
    return specs
