"""`--load-pass-plugin FILE.py`: import a Python file that registers passes (as MLIR's flag).

The file registers what it defines with `xrelay.transform.register_pass`
(and may register config options); it is imported once per path, under a
module name derived from the path, before `xrelay-opt` reads the registry.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import traceback
from collections.abc import Iterable


def load_plugins(paths: Iterable[str]) -> None:
    """Import each plugin file; ImportError naming the file if one cannot be loaded."""
    for path in paths:
        real = os.path.realpath(path)
        digest = hashlib.sha1(real.encode()).hexdigest()[:12]
        name = f"xrelay_plugin_{digest}"
        if name in sys.modules:
            continue
        if not os.path.isfile(real):
            raise ImportError(f"cannot load pass plugin '{path}': no such file")
        spec = importlib.util.spec_from_file_location(name, real)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load pass plugin '{path}': not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as error:
            del sys.modules[name]
            where = traceback.extract_tb(error.__traceback__)[-1]
            raise ImportError(
                f"cannot load pass plugin '{path}': {type(error).__name__}: {error} "
                f"(at {where.filename}:{where.lineno})"
            ) from None
