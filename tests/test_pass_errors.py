"""Errors a pass raises on its input reach the user located, never as an internal error.

A `DiagnosticError` raised inside a pass (under `xrelay.build` or
`xrelay-opt`) propagates as a `PassDiagnosticError`: still a
`DiagnosticError` and a `PassError`, its message ending in
`(in pass '<flag>')`, after the module is rolled back. The tools print it as
one located line with exit status 1; any other exception stays an internal
error (exit 2, traceback), with its crash reproducer.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.passes.pass_manager import PassDiagnosticError, PassError, Sequential
from xrelay.passes.plan_memory import PlanMemory

import xrelay

DYNAMIC = """\
func.func @main(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = relay.exp %x : tensor<?x2xf32>
  func.return %0 : tensor<?x2xf32>
}
"""

RECURSIVE = """\
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @main(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""

# A partitioned accel function whose composite adds a (C,H,W) bias: accel has no kernel.
ACCEL_NO_KERNEL = """\
func.func @bad(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> \
attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.conv2d_bias" (%x, %w) : \
(tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> {
  ^bb0(%i: tensor<1x3x2x2xf32>, %k: tensor<4x3x1x1xf32>):
    %c = relay.constant dense<1.0> : tensor<4x2x2xf32>
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32>
    %2 = relay.add %1, %c : (tensor<1x4x2x2xf32>, tensor<4x2x2xf32>) -> tensor<1x4x2x2xf32>
    relay.yield %2 : tensor<1x4x2x2xf32>
  }
  func.return %0 : tensor<1x4x2x2xf32>
}
func.func @main(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> {
  %0 = func.call @bad(%x, %w) : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32>
  func.return %0 : tensor<1x4x2x2xf32>
}
"""

NO_KERNEL_MESSAGE = (
    "m.mlir:2:8: error: 'relay.composite' op cannot be lowered to target 'accel': its bias "
    "constant of shape (4, 2, 2) is not one value per output channel (axis 1) of the "
    "(1, 4, 2, 2) result (in pass 'convert-relay-to-accel')"
)

# (text, targets, the error, the pass that raised it or None)
CASES = {
    "dynamic": (
        DYNAMIC,
        "c",
        "cannot plan memory for a tensor of dynamic shape tensor<?x2xf32> (in pass 'plan-memory')",
        "plan-memory",
    ),
    "recursive": (
        RECURSIVE,
        "c",
        "m.mlir:2:8: error: 'func.call' op recursive call to @main: "
        "the C target does not support recursion",
        None,
    ),
    "accel": (ACCEL_NO_KERNEL, "accel,c", NO_KERNEL_MESSAGE, "convert-relay-to-accel"),
}


@pytest.mark.parametrize("case", CASES)
def test_build_raises_the_located_error(case: str, tmp_path: Path) -> None:
    text, targets, message, pass_name = CASES[case]
    mod = xrelay.parse(text, "m.mlir")
    before = str(mod)
    with pytest.raises(DiagnosticError) as info:
        xrelay.build(mod, target=targets.split(","), options={"cache_dir": str(tmp_path)})
    error = info.value
    assert message in str(error)
    assert str(error).startswith("m.mlir:2:8: error: ")  # the op's line (a fused call: its first)
    assert len(str(error).splitlines()) == 1
    if pass_name is None:  # raised by the build itself, before any pass
        assert not isinstance(error, PassError)
    else:
        assert isinstance(error, PassDiagnosticError)
        assert error.pass_name == pass_name
        assert isinstance(error.cause, DiagnosticError)
    assert str(mod) == before


def test_a_failing_pass_still_rolls_back() -> None:
    """Under the pass manager the module is restored before the DiagnosticError propagates."""
    mod = xrelay.parse(DYNAMIC, "m.mlir")
    before = str(mod)
    with pytest.raises(PassDiagnosticError) as info:
        Sequential([PlanMemory()])(mod)
    assert str(info.value) == (
        "m.mlir:2:8: error: 'relay.exp' op cannot plan memory for a tensor of dynamic shape "
        "tensor<?x2xf32> (in pass 'plan-memory')"
    )
    assert "relay.exp" in (info.value.module_before or "")
    assert str(mod) == before


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`xrelay-run` or `xrelay-opt` (`name`: run, opt) in a new process."""
    return subprocess.run(
        [sys.executable, "-m", f"xrelay.tools.{name}", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("case", CASES)
def test_xrelay_run_prints_one_located_line(case: str, tmp_path: Path) -> None:
    text, targets, message, _ = CASES[case]
    path = tmp_path / "m.mlir"
    path.write_text(text)
    run = tool("run", str(path), "--target", targets)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert len(run.stderr.splitlines()) == 1
    assert run.stderr.startswith(f"{path}:")
    assert message.removeprefix("m.mlir:") in run.stderr


@pytest.mark.parametrize(
    ("text", "pipeline", "message"),
    [
        (DYNAMIC, "plan-memory", CASES["dynamic"][2]),
        (RECURSIVE, "plan-memory", "cannot plan memory for a recursive call of @main"),
        (ACCEL_NO_KERNEL, "convert-relay-to-accel", NO_KERNEL_MESSAGE.removeprefix("m.mlir:")),
    ],
)
def test_xrelay_opt_prints_one_located_line(
    text: str, pipeline: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(text)
    run = tool("opt", str(path), "-p", pipeline)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    first, *rest = run.stderr.splitlines()
    assert first.startswith(f"{path}:")
    assert message in first
    line = int(first[len(f"{path}:") :].split(":")[0])
    source = text.splitlines()[line - 1]
    assert source.startswith("  %0 = ")
    assert first.startswith(f"{path}:{line}:8: error: ")  # at the op's name, as mlir-opt
    assert rest == [source, "       ^"]  # the source line, a caret under the name


def test_a_crash_in_a_pass_stays_an_internal_error_with_its_reproducer(tmp_path: Path) -> None:
    """Not a DiagnosticError: exit status 2, a traceback, and the crash reproducer."""
    path = tmp_path / "m.mlir"
    path.write_text(RECURSIVE)
    plugin = Path(__file__).parent / "testlib" / "passes.py"
    repro = tmp_path / "repro.mlir"
    run = tool(
        "opt",
        str(path),
        "--load-pass-plugin",
        str(plugin),
        "-p",
        "test-fail{kind=crash}",
        f"--crash-reproducer={repro}",
    )
    assert run.returncode == 2
    assert "Traceback" in run.stderr
    assert "internal error" in run.stderr
    assert f"crash reproducer written to {repro}" in run.stderr
    assert "func.call @main" in repro.read_text()
