"""`build-pipeline{target=...}`: exactly what `xrelay.build` runs before emission.

The pass and `xrelay.build` share one list (`codegen/c/build_steps.py`): on tinyres
(`examples/tinyres.mlir`), the pass's output is `lib.module` of the build, for
`accel,c`, `dnnl,c` and `c`, at two opt levels and without optimization; from the
command line too (`xrelay-opt -p`); bad options are one-line errors.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.context import Context
from xrelay.codegen.c.build_steps import PARTITION_PRELUDE
from xrelay.passes import lookup_pass
from xrelay.passes.build_pipeline import BuildPipelinePass

import xrelay
from xrelay import IRModule, transform

ROOT = Path(__file__).resolve().parents[1]
TINYRES = ROOT / "examples" / "tinyres.mlir"


def tinyres() -> IRModule:
    return xrelay.parse(TINYRES.read_text(), str(TINYRES))


def run_pass(
    mod: IRModule, target: tuple[str, ...], opt_level: int = 3, optimize: bool = True
) -> str:
    copy = mod.clone()
    BuildPipelinePass(target, opt_level, optimize).apply(Context(), copy.module)
    return str(copy)


@pytest.mark.parametrize(
    ("target", "opt_level", "optimize"),
    [
        (("accel", "c"), 3, True),
        (("dnnl", "c"), 3, True),
        (("c",), 3, True),
        (("accel", "c"), 1, True),
        (("accel", "c"), 3, False),
    ],
)
def test_the_pass_prints_what_the_build_emits(
    target: tuple[str, ...], opt_level: int, optimize: bool, cache: Path
) -> None:
    mod = tinyres()
    options = {"opt_level": opt_level, "optimize": optimize, "cache_dir": cache}
    lib = xrelay.build(mod, target=list(target), options=options)
    got = run_pass(mod, target, opt_level, optimize)
    assert got == str(lib.module)
    if target[0] != "c":
        assert f"{target[0]}.conv2d" in got
    assert "xrelay.arena_size" in got


def test_disabled_passes_apply_as_in_the_build(cache: Path) -> None:
    mod = tinyres()
    with transform.PassContext(disabled_pass=["accel-winograd"]):
        lib = xrelay.build(mod, target=["accel", "c"], options={"cache_dir": cache})
        got = run_pass(mod, ("accel", "c"))
    assert got == str(lib.module)
    assert "accel.conv2d_winograd" not in got
    assert "accel.conv2d_winograd" in run_pass(mod, ("accel", "c"))


def test_its_steps_are_the_builds() -> None:
    steps = BuildPipelinePass(target=("accel", "c"), opt_level=2).steps()
    assert steps[0] == "check-no-recursion"
    assert steps[1].startswith("canonicalize-ops,simplify-inference,fold-constant")
    assert steps[1].count(",") >= len(PARTITION_PRELUDE) - 1
    assert steps[2:4] == ["partition-for{target=accel}", "optimize{opt-level=2}"]
    assert steps[4].startswith("convert-relay-to-accel,accel-fuse-residual")
    assert steps[-2:] == ["widen-half-floats", "plan-memory"]
    plain = BuildPipelinePass(optimize=False).steps()
    assert plain == [
        "check-no-recursion",
        "check-static-shapes",
        "widen-half-floats",
        "plan-memory",
    ]
    entry = lookup_pass("BuildPipeline")
    assert entry is not None
    assert entry.flag == "build-pipeline"


def xrelay_opt(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "xrelay.tools.opt", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_from_the_command_line(cache: Path) -> None:
    lib = xrelay.build(tinyres(), target=["dnnl", "c"], options={"cache_dir": cache})
    done = xrelay_opt(str(TINYRES), "-p", "build-pipeline{target=dnnl,c}")
    assert done.returncode == 0, done.stderr
    assert xrelay.parse(done.stdout).module.is_structurally_equivalent(lib.module.module)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("build-pipeline{target=accel}", "the last target must be 'c'"),
        ("build-pipeline{target=nope,c}", "unsupported target 'nope'"),
        ("build-pipeline{target=accel,c opt-level=7}", "opt_level must be an int from 0 to 3"),
    ],
)
def test_bad_options_are_one_line_errors(spec: str, message: str) -> None:
    done = xrelay_opt(str(TINYRES), "-p", spec)
    assert done.returncode == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
