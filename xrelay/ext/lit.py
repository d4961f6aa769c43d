"""A reusable lit configuration for suites testing xrelay plugins (and xrelay itself).

An out-of-tree package's `tests/lit.cfg.py` is three lines:

    from xrelay.ext.lit import configure

    configure(config, lit_config, __file__, plugins=["myacc"])

`configure` makes the suite run `.mlir` files (lit's internal shell) with the
tools of the Python that runs lit (its venv's `xrelay-opt`, `xrelay-run`,
`filecheck`; lit's shell provides `not`); skips `Inputs/` folders; writes
outputs under `.lit_out/` beside the config; and, when `plugins` are given
(module names, or `.py` paths relative to the config's folder), turns
`xrelay-opt` and `xrelay-run` in RUN lines into the tools with one
`--load-plugin` per plugin (`XRELAY_PLUGINS` is those flags alone). Macros:
`XRELAY_ROUNDTRIP` (custom -> generic -> custom form, checked by
`filecheck %s`) and `XRELAY_GENERIC_ROUNDTRIP` (generic -> generic, prefix
`GENERIC`).
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from collections.abc import Sequence
from typing import Any

from xrelay.plugins import is_path_spec

TOOLS = ("xrelay-opt", "xrelay-run", "filecheck")
"""The tools a suite needs, found beside the Python running lit or on PATH."""


def _tool_pattern(tool: str) -> str:
    """The tool's name as a word of a RUN line (not part of a path or a longer name)."""
    return rf"(?<![\w./-]){tool}(?![\w./-])"


def configure(
    config: Any,
    lit_config: Any,
    cfg_file: str,
    *,
    name: str | None = None,
    plugins: Sequence[str] = (),
    pythonpath: Sequence[str] = (),
    suffixes: Sequence[str] = (".mlir",),
    excludes: Sequence[str] = ("Inputs",),
) -> None:
    """Set up a lit suite for xrelay's tools (module docstring).

    `config` and `lit_config` are the objects lit gives `lit.cfg.py`;
    `cfg_file` is its `__file__` (the suite's root is its folder). `name`
    defaults to that folder's name. `pythonpath` folders (relative to the
    root) go on `PYTHONPATH`, for plugin modules that are not installed. A
    tool that cannot be found is a fatal lit error naming it.
    """
    formats: Any = importlib.import_module("lit.formats")  # lit ships no type stubs
    root = os.path.dirname(os.path.abspath(cfg_file))
    config.name = name or os.path.basename(root)
    config.test_format = formats.ShTest(execute_external=False)
    config.suffixes = list(suffixes)
    config.excludes = [*excludes, os.path.basename(cfg_file)]
    config.test_source_root = root
    config.test_exec_root = os.path.join(root, ".lit_out")

    path = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    config.environment["PATH"] = path
    if pythonpath:
        folders = [os.path.join(root, folder) for folder in pythonpath]
        config.environment["PYTHONPATH"] = os.pathsep.join(
            [*folders, os.environ.get("PYTHONPATH", "")]
        )
    found: dict[str, str] = {}
    for tool in TOOLS:
        where = shutil.which(tool, path=path)
        if where is None:
            lit_config.fatal(
                f"'{tool}' not found next to {sys.executable} nor on PATH: run lit from the "
                "venv where xrelay is installed"
            )
            return
        found[tool] = where

    flags = " ".join(
        f"--load-plugin {os.path.join(root, p) if is_path_spec(p) else p}" for p in plugins
    )
    # Substitutions apply in order: the macros expand to `xrelay-opt`, which is then
    # given the plugins.
    config.substitutions.append(
        (
            "XRELAY_ROUNDTRIP",
            "xrelay-opt %s --split-input-file --print-op-generic | "
            "xrelay-opt --split-input-file | filecheck %s",
        )
    )
    config.substitutions.append(
        (
            "XRELAY_GENERIC_ROUNDTRIP",
            "xrelay-opt %s --split-input-file --print-op-generic | "
            "xrelay-opt --split-input-file --print-op-generic | "
            "filecheck %s --check-prefix=GENERIC",
        )
    )
    config.substitutions.append(("XRELAY_PLUGINS", flags))
    if flags:
        for tool in ("xrelay-opt", "xrelay-run"):
            config.substitutions.append((_tool_pattern(tool), f"{found[tool]} {flags}"))
