"""`xrelay-opt` end to end: exit codes, one-line errors without tracebacks, -o atomicity."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GOOD = """func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  %1 = relay.exp %x : tensor<2xf32>
  %2 = relay.add %0, %1 : tensor<2xf32>
  func.return %2 : tensor<2xf32>
}
"""

BAD_INPUTS = {
    "malformed": "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = relay.exp %x : tensor<2xf32\n}\n",
    "unknown_op": "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = relay.bogus %x : tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n",
    "operand_count": "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = relay.add %x : tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n",
    "ill_typed": "func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {\n  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<3xf32>\n  func.return %0 : tensor<3xf32>\n}\n",
    "bad_attr": "func.func @f(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {\n  %0 = relay.nn.conv2d %x, %w {strides = [0, 1]} : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>\n  func.return %0 : tensor<1x2x4x4xf32>\n}\n",
    "bad_layout": 'func.func @f(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {\n  %0 = relay.nn.conv2d %x, %w {data_layout = "CHWN"} : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>\n  func.return %0 : tensor<1x2x4x4xf32>\n}\n',
    "undefined_value": "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  func.return %nope : tensor<2xf32>\n}\n",
    "bad_dense": "func.func @f() -> tensor<2xf32> {\n  %0 = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n",
}


def opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xrelay.tools.opt", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_is_one_located_error(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.mlir"
    path.write_text(BAD_INPUTS[name])
    result = opt(str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{path}:"), lines[0]
    assert ": error: " in lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "nope"], "error: unknown pass 'nope'; available passes: canonicalize, cse, dce"),
        (["-p", "cse{bogus=1}"], "error: bad options for pass 'cse'"),
        (["-p", "cse{"], "error: malformed pass pipeline"),
        (["--frobnicate"], "error: unrecognized arguments: --frobnicate; options are:"),
        (["-t", "nope"], "error: unknown target 'nope'"),
    ],
)
def test_usage_errors(args: list[str], message: str, tmp_path: Path) -> None:
    path = tmp_path / "good.mlir"
    path.write_text(GOOD)
    result = opt(str(path), *args)
    assert result.returncode == 1
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file() -> None:
    result = opt("/nonexistent/model.mlir")
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "error: cannot open '/nonexistent/model.mlir': No such file or directory"
    )


def test_pipeline_and_stdin() -> None:
    result = opt("-p", "cse,dce", stdin=GOOD)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("relay.exp") == 1


def test_output_file_is_replaced_only_on_success(tmp_path: Path) -> None:
    good = tmp_path / "good.mlir"
    good.write_text(GOOD)
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD_INPUTS["ill_typed"])
    out = tmp_path / "out.mlir"
    out.write_text("previous contents\n")
    assert opt(str(bad), "-o", str(out)).returncode == 1
    assert out.read_text() == "previous contents\n"
    assert opt(str(good), "-p", "nope", "-o", str(out)).returncode == 1
    assert out.read_text() == "previous contents\n"
    assert opt(str(good), "-o", str(out)).returncode == 0
    assert "relay.add" in out.read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".xrelay-opt-")] == []


def test_in_process_main_exits_with_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xrelay.tools.opt import main

    path = tmp_path / "good.mlir"
    path.write_text(GOOD)
    with pytest.raises(SystemExit) as info:
        main([str(path), "--print-op-generic"])
    assert info.value.code == 0
    assert '"relay.add"' in capsys.readouterr().out
