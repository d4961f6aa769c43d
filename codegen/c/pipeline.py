"""`xrelay.build(mod, target="c")`: from a relay module to a loaded model library.

The steps, on a clone of the caller's module (which is never changed):

1. bind `params` (name -> array) into `main` as constants (TVM's `bind_params_by_name`);
2. `optimize` at `opt_level` (default 3; relay.build's passes, then FuseOps), unless
   the option `optimize` is false (then every op is emitted as written);
3. `plan-memory` (the static arena: where every value lives);
4. print C (`CEmitter`): `model.c` with the C ABI, kernels, `constants.bin`;
5. `compile_library` (`$CC`, `$CFLAGS`, cached by a hash of all of it);
6. load it (`BuiltLibrary`, a `Library` that also keeps the sources and the lowered module).

Functions marked for a `Compiler` target other than the one being built are
host code here like any function. Options: `opt_level` (int 0-3), `optimize`
(bool, default true), `cflags` (extra compiler flags, after `$CFLAGS`, e.g.
`["-O1"]` for faster compiles), `cache_dir` (else `$XRELAY_CACHE_DIR`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy.typing as npt
from xrelay.codegen.build import compile_library
from xrelay.codegen.c.emitter import CEmitter, CSources
from xrelay.codegen.runtime.loader import Library
from xrelay.dialects.ir_module import IRModule

OPTIONS = ("opt_level", "optimize", "cflags", "cache_dir")
"""The keys `options` may hold."""


class BuiltLibrary(Library):
    """A model library made by `build`: callable like any `Library`, plus what it came from."""

    def __init__(self, path: str | os.PathLike[str], sources: CSources, module: IRModule) -> None:
        super().__init__(path)
        self.sources = sources
        """The generated files (`sources.files["model.c"]`, ...)."""
        self.module = module
        """The module as emitted: optimized, fused and planned."""


def lower(
    mod: IRModule, params: Mapping[str, npt.ArrayLike] | None = None, opt_level: int | None = 3
) -> IRModule:
    """A planned copy of `mod`: params bound, optimized at `opt_level` (None: not
    optimized), memory planned."""
    from xrelay.passes.optimize import OptimizePass
    from xrelay.passes.partition_for import bind_params_by_name
    from xrelay.passes.plan_memory import PlanMemory

    lowered = mod.clone()
    if params:
        bind_params_by_name(lowered, params)
    if opt_level is not None:
        lowered = OptimizePass(opt_level=opt_level).build()(lowered)
    return PlanMemory()(lowered)


def check_options(options: Mapping[str, Any] | None) -> tuple[int | None, list[str], Any]:
    """(opt_level or None for no optimization, cflags, cache_dir) from `options`.

    `ValueError` for what is not understood.
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown build options {unknown}; expected some of {list(OPTIONS)}")
    opt_level = options.get("opt_level", 3)
    if not isinstance(opt_level, int) or isinstance(opt_level, bool) or not 0 <= opt_level <= 3:
        raise ValueError(f"option opt_level must be an int from 0 to 3, got {opt_level!r}")
    optimize = options.get("optimize", True)
    if not isinstance(optimize, bool):
        raise ValueError(f"option optimize must be a bool, got {optimize!r}")
    cflags = options.get("cflags", [])
    if isinstance(cflags, str) or not isinstance(cflags, Sequence):
        raise ValueError(f"option cflags must be a list of strings, got {cflags!r}")
    flags: list[str] = []
    for flag in cflags:  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(flag, str):
            raise ValueError(f"option cflags must be a list of strings, got {cflags!r}")
        flags.append(flag)
    return (opt_level if optimize else None), flags, options.get("cache_dir")


def build(
    mod: IRModule,
    params: Mapping[str, npt.ArrayLike] | None = None,
    options: Mapping[str, Any] | None = None,
) -> BuiltLibrary:
    """Compile `mod` for the host into a loaded library (see the module docstring)."""
    opt_level, cflags, cache_dir = check_options(options)
    lowered = lower(mod, params, opt_level)
    sources = CEmitter(lowered.module).emit()
    path = compile_library(sources.files, name="model", extra_cflags=cflags, cache_dir=cache_dir)
    return BuiltLibrary(Path(path), sources, lowered)
