"""Plugins: installed packages found by entry point, and modules or files loaded by name.

An installed package extends xrelay by declaring, in its `pyproject.toml`:

    [project.entry-points."xrelay.plugins"]
    myacc = "myacc"                 # import the module (it registers what it defines)
    myacc_extra = "myacc.ext:setup"  # import it, then call setup() with no argument

`load_installed_plugins()` imports every entry point of the `xrelay.plugins`
group, at most once per process. xrelay calls it itself, lazily, when one of
its registries is asked for a name it does not know (a pass, a dialect while
parsing, a code-generation target, a BYOC pattern table or op predicate, an
`xrelay-opt -t` output format) and before listing (`--list-passes`,
`--list-targets`); an xrelay that never meets an unknown name imports no plugin.

`load_plugin(spec)` imports one module by name (`myacc.plugin`) or one Python
file by path (`plugins/myacc.py`, imported as the module `myacc`): what the
tools' `--load-plugin` does. Loading the same module or file again is a no-op.

A plugin that fails to import raises `PluginError`, one line naming the
plugin and its exception; the tools print it as `error: ...` (exit 1).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from types import ModuleType

GROUP = "xrelay.plugins"
"""The entry-point group installed plugins declare."""

_IMPORTLIB = os.path.dirname(importlib.__file__ or "<importlib>") + os.sep

_installed: list[str] | None = None
"""The entry points loaded (`name = value`), once `load_installed_plugins` has run."""

_by_path: dict[str, str] = {}
"""Resolved file path -> the module name a `load_plugin` path was imported under."""

_loaded: list[str] = []
"""What `load_plugin` loaded, in order: module names and resolved file paths."""


class PluginError(ImportError):
    """A plugin that cannot be loaded: the message is one line naming it and the cause."""


def _cause(error: BaseException) -> str:
    frames = [  # the plugin's frames: importlib's own and this file's say nothing about it
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not f.filename.startswith(("<", _IMPORTLIB)) and f.filename != __file__
    ]
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}{where}" if text else f"{type(error).__name__}{where}"


def load_installed_plugins() -> bool:
    """Import every `xrelay.plugins` entry point, once per process; True if this call did.

    An entry point `module:function` has its function called (no argument)
    after the import. Every entry point is tried, so one broken plugin does not
    hide the others (xrelay's own backends are entry points too); then
    `PluginError` names the first that failed (it stays failed: later calls
    return False without retrying).
    """
    global _installed
    if _installed is not None:
        return False
    from importlib import metadata  # 40 ms to import: only when a registry misses a name

    _installed = []
    failures: list[str] = []
    for entry in sorted(metadata.entry_points(group=GROUP), key=lambda e: e.name):
        try:
            loaded = entry.load()
            if not isinstance(loaded, ModuleType) and callable(loaded):
                loaded()
        except Exception as error:
            failures.append(f"cannot load plugin '{entry.name}' ({entry.value}): {_cause(error)}")
            continue
        _installed.append(f"{entry.name} = {entry.value}")
    if failures:
        raise PluginError(failures[0])
    return True


def discover() -> bool:
    """Load the installed plugins unless done already; True if this call loaded them.

    What a registry calls on a miss: `if discover(): <look the name up again>`.
    """
    return _installed is None and load_installed_plugins()


def installed_plugins() -> list[str]:
    """The entry points loaded so far (`name = module[:function]`), in load order."""
    return list(_installed or [])


def is_path_spec(spec: str) -> bool:
    """Whether a `--load-plugin` argument names a file (`.py` or a `/` in it), not a module."""
    return spec.endswith(".py") or os.sep in spec or (os.altsep or os.sep) in spec


def load_plugin(spec: str) -> ModuleType:
    """Import a plugin module by name (`pkg.plugin`) or a plugin file by path (`dir/foo.py`).

    A file is imported as the module named after its file name (`foo`; dots
    and other non-identifier characters become `_`), which must not name a
    different module already imported. Loading the same module name or the
    same resolved path again returns the loaded module. `PluginError`
    (one line) for a missing file, an unknown module or a module that raises.
    """
    if not is_path_spec(spec):
        if spec in _loaded:
            return sys.modules[spec]
        try:
            module = importlib.import_module(spec)
        except Exception as error:
            raise PluginError(f"cannot load plugin '{spec}': {_cause(error)}") from None
        _loaded.append(spec)
        return module
    real = os.path.realpath(spec)
    known = _by_path.get(real)
    if known is not None and known in sys.modules:
        return sys.modules[known]
    if not os.path.isfile(real):
        raise PluginError(f"cannot load plugin '{spec}': no such file")
    stem = os.path.basename(real).removesuffix(".py")
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in stem)
    if not name.isidentifier():
        name = f"_{name}"
    if name in sys.modules:
        already = getattr(sys.modules[name], "__file__", None)
        if already is not None and os.path.realpath(already) == real:
            _by_path[real] = name  # the same file, imported by module name before
            return sys.modules[name]
        raise PluginError(
            f"cannot load plugin '{spec}': a different module named '{name}' is already imported"
        )
    module_spec = importlib.util.spec_from_file_location(name, real)
    if module_spec is None or module_spec.loader is None:
        raise PluginError(f"cannot load plugin '{spec}': not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise PluginError(f"cannot load plugin '{spec}': {_cause(error)}") from None
    _by_path[real] = name
    _loaded.append(real)
    return module


def loaded_plugins() -> list[str]:
    """What `load_plugin` loaded, in order: module names and resolved file paths (a crash
    reproducer passes them to `--load-plugin` again)."""
    return list(_loaded)
