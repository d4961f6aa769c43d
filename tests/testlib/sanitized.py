"""Run a generated library from C under ASan and UBSan: `tests/c/main.c` or another driver.

The library is compiled again with the sanitizers (not loaded into Python: the
sanitizer runtimes must come first), linked into the driver, and run with leak
detection on and every report fatal. `run_main` returns the driver's stdout
after asserting it exited 0 with nothing on stderr; `main_outputs` reads the
numbers `tests/c/main.c` prints and `main_inputs` makes the inputs it feeds.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xrelay.codegen import runtime
from xrelay.codegen.build import BASE_CFLAGS, compile_library, find_compiler
from xrelay.codegen.c import CSources

SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
"""The sanitizer flags, for the library and the driver."""

MAIN_C = Path(__file__).resolve().parents[1] / "c" / "main.c"
"""The driver that runs a model's `main` on `main_inputs` and prints its outputs."""


def run_main(
    sources: CSources,
    cache: Path,
    tmp_path: Path,
    driver: Path = MAIN_C,
    target_flags: bool = True,
) -> str:
    """Build `sources` and `driver` with the sanitizers, run it; its stdout (asserted clean).

    `target_flags`: the targets' own unit and link flags (`-march=native`, accel's `-O3`,
    OpenMP), else the host's only."""
    library = compile_library(
        sources.files,
        extra_cflags=SANITIZE,
        extra_ldflags=sources.ldflags if target_flags else (),
        unit_cflags=sources.unit_cflags if target_flags else None,
        cache_dir=cache,
    )
    compiler = find_compiler().command
    exe = tmp_path / driver.stem
    compile_main = [*compiler, *BASE_CFLAGS, *SANITIZE, "-I", str(runtime.INCLUDE_DIR)]
    subprocess.run([*compile_main, str(driver), str(library), "-o", str(exe)], check=True)
    env = {
        **os.environ,
        "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    }
    result = subprocess.run([str(exe)], capture_output=True, text=True, env=env, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    return result.stdout


def main_inputs(values: Sequence[np.ndarray[Any, Any]]) -> list[np.ndarray[Any, Any]]:
    """The inputs `tests/c/main.c` feeds, shaped like `values`: `((i % 7) - 3) * 0.75`."""
    inputs: list[np.ndarray[Any, Any]] = []
    for value in values:
        k = (np.arange(value.size) % 7) - 3
        inputs.append((k * 0.75).astype("float32").reshape(value.shape))
    return inputs


def main_outputs(stdout: str) -> list[list[str]]:
    """The numbers of each `output` line `tests/c/main.c` printed."""
    lines = stdout.splitlines()
    return [line.split("]", 1)[1].split() for line in lines if line.startswith("output ")]
