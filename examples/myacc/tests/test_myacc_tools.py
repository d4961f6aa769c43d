"""The command-line tools find the installed package by its entry point: no load flag."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import xrelay

BIN = Path(sys.executable).parent

MODEL = """\
func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %d = relay.nn.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %r = relay.nn.relu %d : tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}
"""


def run(
    tool: str, *args: str, stdin: str | None = None, cache: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XRELAY_CACHE_DIR=str(cache)) if cache is not None else None
    return subprocess.run(
        [str(BIN / tool), *args], input=stdin, capture_output=True, text=True, check=False, env=env
    )


def test_xrelay_run_builds_for_myacc_with_no_load_flag(tmp_path: Path) -> None:
    source = tmp_path / "model.mlir"
    source.write_text(MODEL)
    x = np.array([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]], dtype="float32")
    w = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype="float32")
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    out = tmp_path / "out.npy"
    done = run(
        "xrelay-run", str(source), "--target", "myacc,c", "--profile",
        "--input", f"x={tmp_path / 'x.npy'}", "--input", f"w={tmp_path / 'w.npy'}",
        "--output", str(out), cache=tmp_path / "cache",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "myacc.matmul_relu#0" in done.stdout + done.stderr
    expected = np.maximum(x @ w.T, 0)
    np.testing.assert_allclose(np.load(out), expected, rtol=1e-6)
    mod = xrelay.parse(MODEL)
    np.testing.assert_allclose(np.load(out), xrelay.evaluate(mod, x, w), rtol=1e-6)


def test_list_passes_shows_the_package_passes() -> None:
    done = run("xrelay-opt", "--list-passes")
    assert done.returncode == 0, done.stderr
    assert "myacc-fuse-matmul-relu (MyaccFuseMatmulRelu)" in done.stdout
    assert "convert-relay-to-myacc (ConvertRelayToMyacc)" in done.stdout


def test_xrelay_opt_runs_the_package_pass() -> None:
    done = run("xrelay-opt", "-p", "myacc-fuse-matmul-relu", stdin=MODEL)
    assert done.returncode == 0, done.stderr
    assert "%r = myacc.matmul_relu %x, %w" in done.stdout
    assert "relay.nn.dense" not in done.stdout
    # What it printed parses back (the dialect is found again in a fresh process).
    again = run("xrelay-opt", stdin=done.stdout)
    assert again.returncode == 0, again.stderr
    assert again.stdout == done.stdout


BAD = """\
func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x2xf32>) -> tensor<2x4xf32> {
  %r = myacc.matmul_relu %x, %w : (tensor<2x3xf32>, tensor<4x2xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}
"""


def test_a_bad_kernel_is_a_located_error() -> None:
    done = run("xrelay-opt", stdin=BAD)
    assert done.returncode == 1
    assert done.stderr.startswith("<stdin>:2:8: error: 'myacc.matmul_relu' op expected the weight")
    assert "Traceback" not in done.stderr
