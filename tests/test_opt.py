"""`xrelay-opt` end to end: exit status, one-line errors without tracebacks, -o atomicity."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, f32
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException
from xrelay.passes import transaction
from xrelay.tools import opt_main
from xrelay.tools.diagnostics import NOWHERE, parse_expectations
from xrelay.tools.files import Chunk, split_input, write_atomically
from xrelay.tools.opt_main import OptMain

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
    "too_many_operands": "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = relay.add %x, %x, %x : tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n",
    "generic_operand_count": 'func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = "relay.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n',
    "ill_typed": "func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {\n  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<3xf32>\n  func.return %0 : tensor<3xf32>\n}\n",
    "wrong_return_type": "func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {\n  func.return %x : tensor<2xf32>\n}\n",
    "bad_attr": "func.func @f(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {\n  %0 = relay.nn.conv2d %x, %w {strides = [0, 1]} : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>\n  func.return %0 : tensor<1x2x4x4xf32>\n}\n",
    "bad_layout": 'func.func @f(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {\n  %0 = relay.nn.conv2d %x, %w {data_layout = "CHWN"} : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>\n  func.return %0 : tensor<1x2x4x4xf32>\n}\n',
    "undefined_value": "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  func.return %nope : tensor<2xf32>\n}\n",
    "bad_dense": "func.func @f() -> tensor<2xf32> {\n  %0 = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n",
    "duplicate_symbol": "func.func @f() {\n  func.return\n}\nfunc.func @f() {\n  func.return\n}\n",
    "unknown_callee": "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = func.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n",
    "garbage": "\x00\x01 this is not IR }}}\n",
}


def opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xrelay.tools.opt", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def run_in_process(
    capsys: pytest.CaptureFixture[str], *args: str, main: type[OptMain] = OptMain
) -> tuple[int, str, str]:
    code = main.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ------------------------------------------------------------ user errors


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_is_one_located_error(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.mlir"
    path.write_text(BAD_INPUTS[name])
    result = opt(str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith(f"{path}:"), lines[0]
    assert ": error: " in lines[0]
    # As mlir-opt: then the source line (if printable) and a caret under the column, then
    # notes only.
    line, column = (int(n) for n in lines[0][len(f"{path}:") :].split(":")[:2])
    source = BAD_INPUTS[name].splitlines()[line - 1]
    if source.isprintable():
        assert lines[1:3] == [source, " " * (column - 1) + "^"], result.stderr
    notes = lines[3:] if source.isprintable() else lines[1:]
    assert all(": note: " in rest for rest in notes), result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "nope"], "error: unknown pass 'nope'; available passes: "),
        (["-p", "cse{bogus=1}"], "error: pass 'cse' has no option 'bogus'; the pass takes no"),
        (["-p", "cse{"], "error: malformed pass pipeline 'cse{' at column 5: Expected argument"),
        (["-p", "cse,,dce"], "error: malformed pass pipeline 'cse,,dce' at column 5"),
        (["--frobnicate"], "error: unrecognized arguments: --frobnicate (see --help)"),
        (["-t", "nope"], "error: unknown target 'nope'; available targets: c, dot, mlir"),
        (["-t", "mlir{generic=yes}"], "error: option 'generic' of target 'mlir' expects bool"),
        (["-t", "mlir{"], "error: malformed target 'mlir{'"),
    ],
)
def test_usage_errors(args: list[str], message: str, tmp_path: Path) -> None:
    path = tmp_path / "good.mlir"
    path.write_text(GOOD)
    result = opt(str(path), *args)
    assert result.returncode == 1
    assert result.stderr.startswith(message), result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file() -> None:
    result = opt("/nonexistent/model.mlir")
    assert result.returncode == 1
    assert (
        result.stderr == "error: cannot open '/nonexistent/model.mlir': No such file or directory\n"
    )


def test_directory_and_binary_input(tmp_path: Path) -> None:
    result = opt(str(tmp_path))
    assert result.returncode == 1
    assert result.stderr == f"error: cannot open '{tmp_path}': Is a directory\n"
    binary = tmp_path / "model.mlir"
    binary.write_bytes(b"\xff\xfe\x00junk")
    result = opt(str(binary))
    assert result.returncode == 1
    assert result.stderr == f"error: cannot read '{binary}': not UTF-8 text (byte 0)\n"


def test_help_exits_zero() -> None:
    result = opt("--help")
    assert result.returncode == 0
    assert "--split-input-file" in result.stdout


# ------------------------------------------------------------ happy paths


def test_pipeline_and_stdin() -> None:
    result = opt("-p", "cse,dce", stdin=GOOD)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("relay.exp") == 1


def test_empty_input_is_an_empty_module(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "empty.mlir"
    path.write_text("// nothing but a comment\n\n")
    code, out, err = run_in_process(capsys, str(path))
    assert (code, err) == (0, "")
    assert out == "builtin.module {\n}\n"


def test_split_input_keeps_line_numbers() -> None:
    text = "a\n// -----\nb\nc\n// ----- trailing words\nd"
    chunks = split_input(text)
    assert [c.text.strip() for c in chunks] == ["a", "b\nc", "d"]
    # Each chunk's first line, counted from line_offset, is its line in the whole file.
    for chunk, (first, line) in zip(chunks, [("a", 1), ("b", 3), ("d", 6)], strict=True):
        padded = ("\n" * chunk.line_offset + chunk.text).splitlines()
        assert padded.index(first) + 1 == line
    assert split_input("x") == [Chunk("x", 0)]


def test_in_process_main_exits_with_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xrelay.tools.opt import main

    path = tmp_path / "good.mlir"
    path.write_text(GOOD)
    with pytest.raises(SystemExit) as info:
        main([str(path), "--print-op-generic"])
    assert info.value.code == 0
    assert '"relay.add"' in capsys.readouterr().out


# ------------------------------------------------------------ -o atomicity


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
    split = tmp_path / "split.mlir"
    split.write_text(GOOD + "// -----\n" + BAD_INPUTS["ill_typed"])
    assert opt(str(split), "--split-input-file", "-o", str(out)).returncode == 1
    assert out.read_text() == "previous contents\n"
    assert opt(str(good), "-o", str(out)).returncode == 0
    assert "relay.add" in out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.mlir",
        "good.mlir",
        "out.mlir",
        "split.mlir",
    ]


def test_failed_run_creates_no_output_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD_INPUTS["malformed"])
    assert opt(str(bad), "-o", str(tmp_path / "new.mlir")).returncode == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir"]


def test_output_keeps_permissions_and_follows_symlinks(tmp_path: Path) -> None:
    target = tmp_path / "real.mlir"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    write_atomically(str(link), "new\n")
    assert link.is_symlink()
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_new_output_file_gets_umask_permissions(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomically(str(tmp_path / "new.mlir"), "x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.mlir").stat().st_mode) == 0o640


def test_interrupted_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out.mlir"
    out.write_text("old\n")

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(transaction.os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(str(out), "new\n")
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]


def test_pipes_are_written_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomically(str(fifo), "through the pipe\n")
        assert os.read(reader, 100) == b"through the pipe\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)


# ------------------------------------------------------------ passes: failures and options


@dataclass(frozen=True)
class BreakIrPass(ModulePass):
    """Leaves IR that does not verify (a function whose block args mismatch its type)."""

    name = "break-ir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp):
                function.body.block.insert_arg(TensorType(f32, [3]), 0)


@dataclass(frozen=True)
class FailingPass(ModulePass):
    """Gives up the way passes report failures in xDSL."""

    name = "fail"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise PassFailedException("cannot partition: no pattern table for target 'npu'\nmore")


@dataclass(frozen=True)
class CrashingPass(ModulePass):
    """Has a bug."""

    name = "crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise ZeroDivisionError("division by zero")


@dataclass(frozen=True)
class TunedPass(ModulePass):
    """Takes options of several kinds."""

    name = "tuned"

    level: int
    depth: int = 2
    tags: tuple[str, ...] = ()
    verbose: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


class ExtendedOpt(OptMain):
    """What a later issue does: register more passes by overriding a method."""

    def register_passes(self) -> None:
        super().register_passes()
        for pass_class in (BreakIrPass, FailingPass, CrashingPass, TunedPass):
            self.available_passes[pass_class.name] = lambda c=pass_class: c


@pytest.fixture
def good_file(tmp_path: Path) -> Path:
    path = tmp_path / "good.mlir"
    path.write_text(GOOD)
    return path


def test_ir_broken_by_a_pass_names_the_pass(
    capsys: pytest.CaptureFixture[str], good_file: Path
) -> None:
    code, out, err = run_in_process(capsys, str(good_file), "-p", "cse,break-ir", main=ExtendedOpt)
    assert code == 1
    assert out == ""
    assert err == (
        f"{good_file}:1:1: error: 'func.func' op Expected entry block arguments to have the "
        "same types as the function input types (after pass 'break-ir')\n"
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n^\n"
    )


def test_disable_verify_lets_broken_ir_through(
    capsys: pytest.CaptureFixture[str], good_file: Path
) -> None:
    code, out, err = run_in_process(
        capsys, str(good_file), "-p", "break-ir", "--disable-verify", main=ExtendedOpt
    )
    assert (code, err) == (0, "")
    assert "func.func @f(%0: tensor<3xf32>, %x: tensor<2xf32>)" in out


def test_failing_pass_is_one_error_line(
    capsys: pytest.CaptureFixture[str], good_file: Path
) -> None:
    code, _, err = run_in_process(capsys, str(good_file), "-p", "fail", main=ExtendedOpt)
    assert code == 1
    assert err == "error: pass 'fail' failed: cannot partition: no pattern table for target 'npu'\n"


def test_failing_pass_in_a_split_names_the_split(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(GOOD + "// -----\n" + GOOD)
    code, out, err = run_in_process(
        capsys, str(path), "--split-input-file", "-p", "fail", main=ExtendedOpt
    )
    assert code == 1
    assert out == "// -----\n"
    assert err.splitlines() == [
        f"error: pass 'fail' failed: cannot partition: no pattern table for target 'npu' "
        f"(in the split at {path}:{line})"
        for line in (1, 7)
    ]


def test_crashing_pass_is_an_internal_error(
    capsys: pytest.CaptureFixture[str], good_file: Path
) -> None:
    code, _, err = run_in_process(capsys, str(good_file), "-p", "crash", main=ExtendedOpt)
    assert code == 2
    assert "Traceback" in err
    assert "ZeroDivisionError" in err
    assert err.splitlines()[-1].startswith(
        "error: internal error: pass 'crash' crashed: ZeroDivisionError('division by zero')"
    )


def test_internal_error_outside_a_pass(capsys: pytest.CaptureFixture[str]) -> None:
    # A crash outside any pass (here: a target that cannot be constructed) is an internal error too.
    class Broken(OptMain):
        def make_target(self) -> opt_main.Target:
            raise RuntimeError("boom")

    assert Broken.main(["-"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: internal error: RuntimeError('boom') (a bug in xrelay-opt or a pass, not in the input)"
    )


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("tuned", "error: pass 'tuned' requires option 'level'"),
        ("tuned{level=x}", "error: option 'level' of pass 'tuned' expects int, got 'x'"),
        ("tuned{level}", "error: option 'level' of pass 'tuned' expects int, got no value"),
        (
            "tuned{level=1 verbose=1}",
            "error: option 'verbose' of pass 'tuned' expects bool, got '1'",
        ),
        (
            "tuned{level=1 colour=red}",
            "error: pass 'tuned' has no option 'colour'; its options are: level, depth, tags, "
            "verbose",
        ),
    ],
)
def test_bad_pass_options(
    capsys: pytest.CaptureFixture[str], good_file: Path, pipeline: str, message: str
) -> None:
    code, _, err = run_in_process(capsys, str(good_file), "-p", pipeline, main=ExtendedOpt)
    assert code == 1
    assert err == message + "\n"


def test_good_pass_options(capsys: pytest.CaptureFixture[str], good_file: Path) -> None:
    main = ExtendedOpt([str(good_file), "-p", "tuned{level=3 tags=a,b verbose=true},cse"])
    assert main.make_pipeline() == (
        TunedPass(level=3, depth=2, tags=("a", "b"), verbose=True),
        main.available_passes["cse"]()(),
    )
    code, out, _ = run_in_process(capsys, str(good_file), "-p", "tuned{level=1}", main=ExtendedOpt)
    assert code == 0
    assert "relay.add" in out


def test_list_passes_shows_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_in_process(capsys, "--list-passes", main=ExtendedOpt)
    assert code == 0
    lines = out.splitlines()
    start = lines.index("tuned (Tuned): module pass, opt_level 0")
    assert lines[start + 1 : start + 6] == [
        "    Takes options of several kinds.",
        "    option level: int (required)",
        "    option depth: int = 2",
        "    option tags: tuple[str, ...] = (empty)",
        "    option verbose: bool = false",
    ]
    cse = lines.index("cse (CSE): module pass, opt_level 0")
    assert lines[cse + 1] == "    Merge identical pure ops computing the same value (xDSL)"


# ------------------------------------------------------------ --verify-diagnostics


def test_expectation_designators() -> None:
    text = "\n".join(
        [
            "op0",  # line 11
            "// expected-error@above {{a}}",
            "// expected-note@above {{b}}",  # skips the expectation above it
            "op3 // expected-remark {{c}}",
            "// expected-warning@below {{d}}",
            "// expected-error@+2 {{e}}",
            "",
            "op7",
            "// expected-error@-7 {{f}}",
            "// expected-error-re@below {{g{{[0-9]}}}}",
        ]
    )
    got = [(e.severity, e.text, e.line, e.comment_line) for e in parse_expectations(text, 10)]
    assert got == [
        ("error", "a", 11, 12),
        ("note", "b", 11, 13),
        ("remark", "c", 14, 14),
        ("warning", "d", 17, 15),
        ("error", "e", 18, 16),
        ("error", "f", 12, 19),
        ("error", "g{{[0-9]}}", NOWHERE, 20),
    ]
    regex = parse_expectations("// expected-error-re {{a{{[0-9]+}}.b}}")[0]
    assert regex.pattern is not None
    assert regex.pattern.search("xx a12.b")
    assert not regex.pattern.search("a12xb")


def test_verify_diagnostics_passes_and_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "diag.mlir"
    lines = BAD_INPUTS["ill_typed"].splitlines()
    lines.insert(1, "  // expected-error@+1 {{'relay.exp' op}}")
    path.write_text("\n".join(lines) + "\n// -----\n" + GOOD)
    code, out, err = run_in_process(capsys, str(path), "--split-input-file", "--verify-diagnostics")
    assert (code, err) == (0, "")
    assert out.startswith("// -----\nbuiltin.module {\n  func.func @f")
    path.write_text(path.read_text().replace("'relay.exp' op", "'relay.log' op"))
    code, out, err = run_in_process(capsys, str(path), "--split-input-file", "--verify-diagnostics")
    assert code == 1
    assert err.splitlines() == [
        f"{path}:3:8: error: unexpected error: 'relay.exp' op "
        + err.splitlines()[0].split("'relay.exp' op ", 1)[1],
        f"{path}:2:6: error: expected error \"'relay.log' op\" was not produced",
    ]


def test_bad_expectation_regex_is_a_user_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "diag.mlir"
    path.write_text("// expected-error-re {{a{{[}}}}\n" + GOOD)
    code, _, err = run_in_process(capsys, str(path), "--verify-diagnostics")
    assert code == 1
    assert err.startswith(f"error: bad expected-*-re pattern in {path}:")
    assert len(err.splitlines()) == 1


# ------------------------------------------------------------ pass manager switches


def test_time_passes_prints_one_tree_per_split(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(GOOD + "// -----\n" + GOOD)
    code, out, err = run_in_process(
        capsys, str(path), "--split-input-file", "-p", "cse,dce", "--time-passes"
    )
    assert code == 0
    assert out.count("relay.exp") == 2  # cse merged the two exps of each chunk
    trees = [line for line in err.splitlines() if line.startswith("pipeline: ")]
    assert len(trees) == 2
    assert len([line for line in err.splitlines() if line.startswith("\tCSE: ")]) == 2


def test_crash_reproducer_is_written_for_the_first_failure_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(GOOD + "// -----\n" + GOOD.replace("@f", "@g"))
    repro = tmp_path / "repro.mlir"
    code, _, err = run_in_process(
        capsys,
        str(path),
        "--split-input-file",
        "-p",
        "cse,fail",
        f"--crash-reproducer={repro}",
        main=ExtendedOpt,
    )
    assert code == 1
    assert err.count("note: crash reproducer written to") == 1
    text = repro.read_text()
    assert "//   xrelay-opt <this file> -p 'fail' --opt-level 3" in text
    assert "func.func @f" in text
    assert "func.func @g" not in text
    assert text.count("relay.exp") == 1  # the module before `fail`: after cse


def test_failed_pass_leaves_the_module_and_the_output_file_untouched(
    capsys: pytest.CaptureFixture[str], good_file: Path, tmp_path: Path
) -> None:
    out_file = tmp_path / "out.mlir"
    out_file.write_text("old\n")
    code, _, err = run_in_process(
        capsys, str(good_file), "-p", "cse,fail", "-o", str(out_file), main=ExtendedOpt
    )
    assert code == 1
    assert "pass 'fail' failed" in err
    assert out_file.read_text() == "old\n"


def test_pass_manager_flag_errors_come_before_reading_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run_in_process(capsys, "/no/such/file.mlir", "-c", "transform.transactional=2")
    assert code == 1
    assert err == "error: config option 'transform.transactional' expects bool, got '2'\n"
