"""`xrelay.build(mod, target=...)`: from a relay module to a loaded model library.

`target` is `"c"` (everything on the host) or a list of BYOC targets ending in
`"c"`, e.g. `["accel", "c"]`: the regions the targets take are partitioned off
and lowered to their kernels, the rest is host code. The steps, on a clone of
the caller's module (which is never changed):

- first, the whole-build cache (`codegen/build_cache.py`): a key over the
  module, params, targets, options, PassContext, the targets' BYOC registry,
  the compiler and xrelay's own files, computed before any pass; a hit loads
  the library it built before and runs none of the steps below (`lib.cache_hit`;
  `lib.sources` and `lib.module` are read from the entry when first asked
  for). A build under a PassContext with instruments, or for a target whose
  registry holds a user's function, is neither served nor stored;
1. bind `params` (name -> array) into `main` as constants (TVM's `bind_params_by_name`);
2-5. the steps of `build_steps.py`, the one list the pass
   `build-pipeline{target=accel,c opt-level=3}` runs too (so
   `xrelay-opt -p 'build-pipeline{...}'` prints what `lib.module` holds):
   reject recursion (`codegen/c/recursion.py`: the arena is static);
2. with BYOC targets: `build_steps.PARTITION_PRELUDE` (CanonicalizeOps, SimplifyInference,
   FoldConstant, FoldScaleAxis, SimplifyExpr, FoldConstant: what TVM's
   `partition_for_dnnl` runs first, so a batch norm folds into its convolution's
   weights and bias before the targets see it; and xrelay's SplitConcatConv after
   FoldScaleAxis: a convolution over a channel concatenation as a sum of
   convolutions, `passes/split_concat_conv.py`; and FoldChannelShuffle,
   `passes/fold_channel_shuffle.py`), then each target's `prelude`
   (`codegen/targets.py`; dnnl's converts convolutions to NHWC), then
   `partition-for{target=...}`;
3. `optimize` at `opt_level` (default 3; relay.build's passes, then FuseOps,
   which skips the partitioned functions);
4. each BYOC target's lowering passes (`codegen/targets.py`; for accel,
   `convert-relay-to-accel`, `accel-fuse-residual`, `accel-winograd`), as a
   `Sequential` at the build's opt_level (0 without `optimize`: only the
   conversions), so `PassContext(disabled_pass=[...])` turns one off;
5. `widen_half_floats` (every host op on f16 or bf16 computes on f32 between
   casts: `codegen/c/half_floats.py`), then `plan-memory` (the static arena:
   where every value lives);
6. print C (`CEmitter`): `model.c` with the C ABI, host kernels, each target's
   functions in its own translation unit, `constants.bin`; a partition for one
   of the build's targets that still holds ops the target does not take (its
   lowering disabled) is a located error, never host code;
7. `compile_library` (`$CC`, `$CFLAGS`, cached by a hash of all of it);
8. load it (`BuiltLibrary`, a `Library` that also keeps the sources, the lowered
   module and the time of each step), and keep the build in the whole-build cache.

Every pass runs under the current PassContext (its instruments, disabled
passes and config apply). The option `optimize=False` skips the `optimize`
runs (the ops are partitioned and emitted as written). Options: `opt_level`
(int 0-3), `optimize` (bool, default true), `cflags` (extra compiler flags,
after `$CFLAGS`, e.g. `["-O1"]` for faster compiles), `cache_dir` (else
`$XRELAY_CACHE_DIR`), `num_threads` (int >= 1: the threads of the kernels
that split, accel's; absent: OpenMP's default when the library runs, i.e.
`OMP_NUM_THREADS` as set when the process loads OpenMP, else the CPU count),
`profile` (bool, default false: time every kernel, i.e. each call and op of
`main` and each op of a BYOC target's functions, into counters read with
`Library.profile()` or the C ABI's `xrelay_profile_*`; `codegen/c/profile.py`),
`keep_failed` (bool; default `$XRELAY_KEEP_FAILED`: keep the directory of a
failed compile in the cache, named in the `BuildError`), `march` (str, default
`native`: any value of GCC's `-march=`, e.g. `x86-64` for a library that runs
on every x86-64 CPU, `x86-64-v3`, `skylake-avx512`; every unit is compiled
with it, the library records the features it enabled and refuses to load on a
CPU that lacks one: `codegen/c/isa.py`; a value the compiler does not know is
a `BuildError` naming it). As in TVM, the host target may carry it:
`target="c -mcpu=x86-64-v3"` (or the last entry of a target list) is
`march="x86-64-v3"`.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, cast

import numpy.typing as npt
from xrelay.codegen.build import cache_directory, compile_library
from xrelay.codegen.build_cache import build_key, lookup, store
from xrelay.codegen.c.build_steps import run_build_steps
from xrelay.codegen.c.emitter import CEmitter, CSources
from xrelay.codegen.c.isa import check_march
from xrelay.codegen.cache import CacheWarning
from xrelay.codegen.runtime.loader import Library
from xrelay.codegen.targets import codegen_names, get_codegen
from xrelay.dialects.ir_module import IRModule

HOST = "c"
"""The host target: last in every target list."""

LIBRARY_NAME = "model"
"""The name of the libraries and whole-build entries in the cache (`model-<key>.so`)."""

OPTIONS = (
    "opt_level",
    "optimize",
    "cflags",
    "cache_dir",
    "num_threads",
    "profile",
    "keep_failed",
    "march",
)
"""The keys `options` may hold."""


@dataclass(frozen=True)
class BuildOptions:
    """The build options, checked (`check_options`)."""

    opt_level: int | None
    """The optimization level; None for no optimization (`optimize=False`)."""
    cflags: list[str]
    """Extra compiler flags."""
    cache_dir: Any
    """The library cache (None: `$XRELAY_CACHE_DIR` or `~/.cache/xrelay`)."""
    num_threads: int | None
    """Threads for kernels that split (accel's); None: OpenMP's default at run time."""
    profile: bool = False
    """Time every kernel (`codegen/c/profile.py`; read with `Library.profile()`)."""
    keep_failed: bool | None = None
    """Keep a failed compile's directory (None: `$XRELAY_KEEP_FAILED`; `compile_library`)."""
    march: str = "native"
    """The `-march` of every unit (`codegen/c/isa.py`)."""


class BuiltLibrary(Library):
    """A model library made by `build`: callable like any `Library`, plus what it came from.

    `sources` and `module` may be given as functions making them (a whole-build cache
    hit reads them from the cache entry): each is called once, when first asked for.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        sources: CSources | Callable[[], CSources],
        module: IRModule | Callable[[], IRModule],
        targets: Sequence[str] = (HOST,),
        timings: Mapping[str, float] | None = None,
        cache_hit: bool = False,
    ) -> None:
        super().__init__(path)
        self._sources = sources
        self._module = module
        self.targets = tuple(targets)
        """The targets it was built for, host last (e.g. `("accel", "c")`)."""
        self.timings = dict(timings or {})
        """Seconds spent in each step: `passes`, `emit`, `compile` (~0 when only the C compile
        was cached), `cache_key` (the whole-build cache key); a whole-build cache hit has
        `cache_hit` (its seconds) and 0 for the others."""
        self.cache_hit = cache_hit
        """Whether the whole build came from the cache (no pass, emission or compile ran)."""

    @property
    def sources(self) -> CSources:
        """The generated files (`sources.files["model.c"]`, ...)."""
        if not isinstance(self._sources, CSources):
            self._sources = self._sources()
        return self._sources

    @property
    def module(self) -> IRModule:
        """The module as emitted: partitioned, optimized, fused, lowered and planned."""
        if not isinstance(self._module, IRModule):
            self._module = self._module()
        return self._module


def check_targets(target: str | Sequence[str]) -> tuple[str, ...]:
    """The BYOC targets of a `target` argument (those before the final `"c"`).

    `ValueError` naming what is wrong: not `"c"` or a list ending in `"c"`, a
    repeated target, or a target with no code generator.
    """
    candidate = cast(object, target)
    if isinstance(candidate, str):
        targets: list[Any] = [candidate]
    elif isinstance(candidate, Sequence):
        targets = list(candidate)  # pyright: ignore[reportUnknownArgumentType]
    else:
        raise ValueError(f"target must be a string or a list of strings, got {target!r}")
    available = [HOST, *([t, HOST] for t in codegen_names())]
    hint = f"available: {', '.join(repr(a) for a in available)}"
    if not targets or not all(isinstance(t, str) for t in targets):
        raise ValueError(f"target must be a string or a list of strings, got {target!r}")
    if targets[-1] != HOST:
        raise ValueError(f"unsupported target {target!r}: the last target must be 'c' ({hint})")
    byoc: list[str] = targets[:-1]
    for name in byoc:
        if name == HOST or byoc.count(name) > 1:
            raise ValueError(f"target {target!r} names '{name}' twice")
        if get_codegen(name) is None:
            raise ValueError(f"unsupported target '{name}': it has no code generator ({hint})")
    return tuple(byoc)


def lower(
    mod: IRModule,
    params: Mapping[str, npt.ArrayLike] | None = None,
    opt_level: int | None = 3,
    targets: Sequence[str] = (),
) -> IRModule:
    """A planned copy of `mod`: params bound, partitioned for `targets` and lowered,
    optimized at `opt_level` (None: not optimized), memory planned (steps 0-5).

    The steps after binding are `build_steps.build_steps`, the list the pass
    `build-pipeline` runs too. They run on a private copy, so a failing one has
    nothing to roll back that anyone sees: unless the current PassContext sets
    `transform.transactional`, they run without snapshots (a third of the pass
    time on DenseNet-121).
    """
    from xrelay.passes.partition_for import bind_params_by_name

    lowered = mod.clone()
    if params:
        bind_params_by_name(lowered, params)
    return run_build_steps(lowered, targets, opt_level)


def check_options(options: Mapping[str, Any] | None) -> BuildOptions:
    """The `BuildOptions` of `options`; `ValueError` for what is not understood."""
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
    num_threads = options.get("num_threads")
    if num_threads is not None and (
        not isinstance(num_threads, int) or isinstance(num_threads, bool) or num_threads < 1
    ):
        raise ValueError(f"option num_threads must be an int of at least 1, got {num_threads!r}")
    cache_dir = options.get("cache_dir")
    profile = options.get("profile", False)
    if not isinstance(profile, bool):
        raise ValueError(f"option profile must be a bool, got {profile!r}")
    keep_failed = options.get("keep_failed")
    if keep_failed is not None and not isinstance(keep_failed, bool):
        raise ValueError(f"option keep_failed must be a bool, got {keep_failed!r}")
    march = options.get("march", "native")
    if not isinstance(march, str):
        raise ValueError(f"option march must be a string like 'x86-64-v3', got {march!r}")
    level = opt_level if optimize else None
    return BuildOptions(level, flags, cache_dir, num_threads, profile, keep_failed, march)


def host_march(target: str | Sequence[str]) -> tuple[str | Sequence[str], str | None]:
    """`target` without the attributes of its host entry, and the `-mcpu` they set.

    TVM writes target attributes after the kind: `"c -mcpu=x86-64-v3"` (alone or
    last in a list) is the host target with `march="x86-64-v3"`. `ValueError` for
    an attribute other than `-mcpu` or `-march`.
    """
    candidate = cast(object, target)
    if isinstance(candidate, str):
        last: object = candidate
    elif isinstance(candidate, list | tuple) and candidate:
        last = cast(Sequence[object], candidate)[-1]
    else:
        return target, None  # check_targets says what is wrong
    if not isinstance(last, str) or not last.startswith(HOST + " "):
        return target, None
    march: str | None = None
    for attribute in last.split()[1:]:
        key, _, value = attribute.partition("=")
        if key not in ("-mcpu", "-march") or not value:
            raise ValueError(
                f"target {last!r}: the host target takes only -mcpu=<cpu> "
                f"(a -march= value), got {attribute!r}"
            )
        march = value
    host = HOST if isinstance(target, str) else [*target[:-1], HOST]
    return host, march


def build(
    mod: IRModule,
    target: str | Sequence[str] = HOST,
    params: Mapping[str, npt.ArrayLike] | None = None,
    options: Mapping[str, Any] | None = None,
) -> BuiltLibrary:
    """Compile `mod` for `target` into a loaded library (see the module docstring)."""
    target, target_march = host_march(target)
    targets = check_targets(target)
    checked = check_options(options)
    march = checked.march
    if target_march is not None:
        if options is not None and "march" in options and march != target_march:
            raise ValueError(
                f"target says -mcpu={target_march} but option march is {march!r}; give one"
            )
        march = target_march
    check_march(march)
    begin = time.perf_counter()
    cache = cache_directory(checked.cache_dir)
    key = build_key(mod, params, targets, _settings(replace(checked, march=march)))
    key_seconds = time.perf_counter() - begin
    if key is not None:
        hit = _cached_build(cache, key, key_seconds)
        if hit is not None:
            return hit
    start = time.perf_counter()
    lowered = lower(mod, params, checked.opt_level, targets)
    planned = time.perf_counter()
    sources = CEmitter(
        lowered.module,
        num_threads=checked.num_threads,
        profile=checked.profile,
        march=march,
        targets=targets,
    ).emit()
    emitted = time.perf_counter()

    def load() -> BuiltLibrary:
        path = compile_library(
            sources.files,
            name=LIBRARY_NAME,
            extra_cflags=checked.cflags,
            extra_ldflags=sources.ldflags,
            unit_cflags=sources.unit_cflags,
            cache_dir=checked.cache_dir,
            keep_failed=checked.keep_failed,
        )
        timings = {
            "passes": planned - start,
            "emit": emitted - planned,
            "compile": time.perf_counter() - emitted,
            "cache_key": key_seconds,
        }
        library = BuiltLibrary(Path(path), sources, lowered, (*targets, HOST), timings)
        if key is not None:
            _store(cache, key, Path(path), (*targets, HOST), sources, lowered)
        return library

    try:
        return load()
    except OSError as error:
        if not _vanished(error):
            raise
        # Another process evicted the entry between the cache's check and this load
        # (a cache bound smaller than the libraries in use): build it again, once.
        return load()


def _settings(checked: BuildOptions) -> str:
    """The options that change the library, as text (all but where it is cached and kept)."""
    unrelated = ("cache_dir", "keep_failed")
    return repr(
        [(f.name, getattr(checked, f.name)) for f in fields(checked) if f.name not in unrelated]
    )


def _cached_build(cache: Path, key: str, key_seconds: float) -> BuiltLibrary | None:
    """The library of the whole-build cache entry `key`, or None (missing, corrupt, evicted)."""
    start = time.perf_counter()
    hit = lookup(cache, LIBRARY_NAME, key)
    if hit is None:
        return None
    try:
        library = BuiltLibrary(hit.library, hit.read_sources, hit.read_module, hit.targets)
    except OSError as error:
        if not _vanished(error):
            raise
        return None  # evicted by another process since the lookup: built again
    library.cache_hit = True
    seconds = key_seconds + time.perf_counter() - start
    library.timings = {"passes": 0.0, "emit": 0.0, "compile": 0.0, "cache_hit": seconds}
    return library


def _store(
    cache: Path,
    key: str,
    library: Path,
    targets: Sequence[str],
    sources: CSources,
    lowered: IRModule,
) -> None:
    """Keep the build in the whole-build cache; a `CacheWarning` if it cannot be written."""
    try:
        store(cache, LIBRARY_NAME, key, library, targets, sources, lowered)
    except FileNotFoundError:
        pass  # the library was evicted meanwhile (a bound smaller than the libraries in use)
    except (OSError, ValueError) as error:
        warnings.warn(f"cannot keep the build in the cache {cache}: {error}", CacheWarning, 3)


def _vanished(error: OSError) -> bool:
    """Whether `error` says the library file is not there (FileNotFoundError underneath)."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, FileNotFoundError):
            return True
        cause = cause.__cause__
    return False
