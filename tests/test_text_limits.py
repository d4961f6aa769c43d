"""Text the tools must reject cleanly: too deep nesting and values used before their definition.

Through the real tools (subprocesses): exit status 1, one located line on
stderr, never a Python traceback. A module at the deepest allowed nesting
parses, verifies, prints and reads back through `xrelay-opt`, in both forms.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xrelay.dialects.parser import MAX_NESTING


def nested_ifs(levels: int) -> str:
    """`main` with `levels` nested `relay.if`s (the func region is one more level)."""
    lines = ["func.func @main(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {"]
    for i in range(levels):
        lines.append(f"%r{i} = relay.if %c : tensor<i1> -> tensor<2xf32> {{")
    lines.append("relay.yield %x : tensor<2xf32>")
    for i in reversed(range(levels)):
        lines += ["} else {", "relay.yield %x : tensor<2xf32>", "}"]
        if i > 0:
            lines.append(f"relay.yield %r{i} : tensor<2xf32>")
    lines += ["func.return %r0 : tensor<2xf32>", "}"]
    return "\n".join(lines) + "\n"


def nested_tuples(levels: int) -> str:
    """A parameter of `levels` nested tuple types around a tensor, returned."""
    ty = "tensor<2xf32>"
    for _ in range(levels):
        ty = f"tuple<{ty}>"
    return f"func.func @main(%x: {ty}) -> {ty} {{\n  func.return %x : {ty}\n}}\n"


def nested_brackets(levels: int) -> str:
    """A constant of rank `levels` written with `levels` nested brackets."""
    ty = f"tensor<{'2x' + '1x' * (levels - 1)}f32>"
    inner = "[" * (levels - 1) + "1.0" + "]" * (levels - 1)
    body = f"[{inner}, {inner}]"
    return f"func.func @main() -> {ty} {{\n  %0 = relay.constant dense<{body}> : {ty}\n  func.return %0 : {ty}\n}}\n"


# The deepest each construct may go: the func region, `tensor`, `dense` each take a level.
DEEPEST = {
    "if": (nested_ifs, MAX_NESTING - 2),
    "tuple": (nested_tuples, MAX_NESTING - 2),
    "dense": (nested_brackets, MAX_NESTING - 2),
}


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"xrelay.tools.{name}", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], where: str, text: str) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip("\n").splitlines()
    assert lines[0].startswith(where), lines[0]
    assert text in lines[0], lines[0]
    # One error; xrelay-opt follows it (as mlir-opt) by its source line and a caret.
    assert len(lines) in (1, 3), result.stderr
    if len(lines) == 3:
        assert lines[2].strip() == "^", result.stderr


@pytest.mark.parametrize("kind", DEEPEST)
@pytest.mark.parametrize("extra", [1, 60])
def test_too_deep_is_a_located_error(kind: str, extra: int, tmp_path: Path) -> None:
    make, deepest = DEEPEST[kind]
    path = tmp_path / "deep.mlir"
    path.write_text(make(deepest + extra))
    for name in ("opt", "run"):
        result = tool(name, str(path))
        assert_one_line_error(
            result, f"{path}:", f"error: nesting too deep (more than {MAX_NESTING} levels)"
        )


def test_nesting_the_counter_does_not_see_is_still_an_error(tmp_path: Path) -> None:
    """Function types in function types: the parser's RecursionError becomes the error."""
    levels = 3000
    path = tmp_path / "deep.mlir"
    arg = "(" * levels + "tensor<f32>" + ") -> ()" * levels
    path.write_text(f"func.func @main(%x: {arg}) {{\n  func.return\n}}\n")
    assert_one_line_error(tool("opt", str(path)), f"{path}:1:", "error: nesting too deep")


@pytest.mark.parametrize("kind", DEEPEST)
def test_deepest_allowed_module_round_trips(kind: str, tmp_path: Path) -> None:
    make, deepest = DEEPEST[kind]
    path = tmp_path / "deep.mlir"
    path.write_text(make(deepest))
    printed = tool("opt", str(path))
    assert printed.returncode == 0, printed.stderr
    again = tmp_path / "again.mlir"
    again.write_text(printed.stdout)
    assert tool("opt", str(again)).stdout == printed.stdout
    generic = tool("opt", str(again), "--print-op-generic")
    assert generic.returncode == 0, generic.stderr
    back = tmp_path / "back.mlir"
    back.write_text(generic.stdout)
    assert tool("opt", str(back)).stdout == printed.stdout


USE_BEFORE_DEF = """func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %1 = relay.add %0, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %0 = relay.exp %a : tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
"""

USE_IN_REGION_BEFORE_DEF = """func.func @main(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
    relay.yield %late : tensor<2xf32>
  } else {
    relay.yield %a : tensor<2xf32>
  }
  %late = relay.exp %a : tensor<2xf32>
  func.return %r : tensor<2xf32>
}
"""


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (USE_BEFORE_DEF, "2:8", "'relay.add' op operand #0 does not dominate this use"),
        (USE_IN_REGION_BEFORE_DEF, "3:5", "'relay.yield' op operand #0 does not dominate this use"),
    ],
)
def test_use_before_definition_is_rejected_by_the_tools(
    text: str, where: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(text)
    for result in (tool("opt", str(path)), tool("run", str(path), "--random")):
        assert_one_line_error(result, f"{path}:{where}: error: ", message)
