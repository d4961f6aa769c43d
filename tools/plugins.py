"""`--load-plugin MODULE|PATH` (aliases MLIR's `--load-pass-plugin`, `--load-dialect-plugin`).

The tools import each plugin before reading a registry (`xrelay.plugins.load_plugin`:
by module name, or a file imported under its own name; once per process).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

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
