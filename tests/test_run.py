"""`xrelay-run`: the interpreter, built libraries (`--target c`, `--target accel,c`), `--params`,
`--output`, `--save`, `--repeat`, `--export`, and one-line errors with exit status 1.

Libraries go to a cache directory private to this module (`$XRELAY_CACHE_DIR`).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.tools.run_backends import LibraryRunner
from xrelay.tools.run_main import RunMain

import xrelay

Array = np.ndarray[Any, Any]

# relu(x + w) and a tuple of two halves of x * 2: a tensor result and a tuple result.
TWO_RESULTS = """\
func.func @main(%x: tensor<2x4xf32>, %w: tensor<2x4xf32>) -> (tensor<2x4xf32>, tuple<tensor<2x2xf32>, tensor<2x2xf32>>) {
  %0 = relay.add %x, %w : tensor<2x4xf32>
  %1 = relay.nn.relu %0 : tensor<2x4xf32>
  %2 = relay.multiply %x, %x : tensor<2x4xf32>
  %3 = relay.split %2 {indices_or_sections = 2, axis = 1} : (tensor<2x4xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>
  func.return %1, %3 : tensor<2x4xf32>, tuple<tensor<2x2xf32>, tensor<2x2xf32>>
}
"""

# conv2d + bias_add + relu (accel's composite once w and b are constants), then host ops.
CONV = """\
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x1x1xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32>
  %3 = relay.tanh %2 : tensor<1x4x8x8xf32>
  %4 = relay.nn.global_avg_pool2d %3 : (tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32>
  func.return %4 : tensor<1x4x1x1xf32>
}
"""


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(cache))


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = RunMain.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def saved(path: Path) -> dict[str, Array]:
    with np.load(path) as archive:
        return {key: archive[key] for key in archive.files}


def conv_params(path: Path) -> tuple[str, dict[str, Array]]:
    rng = np.random.default_rng(3)
    params = {
        "w": rng.standard_normal((4, 3, 3, 3)).astype("float32"),
        "b": rng.standard_normal(4).astype("float32"),
    }
    np.savez(path, **params)  # pyright: ignore[reportArgumentType]
    return str(path), params


# ------------------------------------------------------------ the interpreter


def test_interpreter_prints_one_summary_per_output_array(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = write(tmp_path / "m.mlir", TWO_RESULTS)
    code, out, err = run(capsys, model, "--random")
    assert (code, err) == (0, "")
    names = [line.split(":")[0] for line in out.splitlines()]
    assert names == ["output0", "output1.0", "output1.1"]
    assert re.fullmatch(r"output0: float32\[2, 4\] min=\S+ max=\S+ mean=\S+", out.splitlines()[0])


def test_input_files_and_save(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    model = write(tmp_path / "m.mlir", TWO_RESULTS)
    x = np.arange(8, dtype="float32").reshape(2, 4) - 4
    w = np.ones((2, 4), "float32")
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    args = [model, "--input", f"x={tmp_path / 'x.npy'}", "--input", f"w={tmp_path / 'w.npy'}"]
    code, _, err = run(capsys, *args, "--save", str(tmp_path / "out.npz"))
    assert (code, err) == (0, "")
    out = saved(tmp_path / "out.npz")
    np.testing.assert_array_equal(out["output0"], np.maximum(x + w, 0))
    np.testing.assert_array_equal(out["output1.0"], (x * x)[:, :2])
    np.testing.assert_array_equal(out["output1.1"], (x * x)[:, 2:])


# ------------------------------------------------------------ built libraries


def test_target_c_outputs_equal_the_interpreters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = write(tmp_path / "m.mlir", TWO_RESULTS)
    common = [model, "--random", "--seed", "7", "--output"]
    assert run(capsys, *common, str(tmp_path / "ref.npz"))[0] == 0
    code, out, err = run(capsys, *common, str(tmp_path / "c.npz"), "--target", "c")
    assert (code, err) == (0, "")
    assert [line.split(":")[0] for line in out.splitlines()] == [
        "output0",
        "output1.0",
        "output1.1",
    ]
    reference, built = saved(tmp_path / "ref.npz"), saved(tmp_path / "c.npz")
    assert set(built) == set(reference) == {"output0", "output1.0", "output1.1"}
    for key, value in reference.items():
        np.testing.assert_allclose(built[key], value, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("target", ["c", "accel,c"])
def test_params_are_bound_at_build_and_outputs_equal_the_interpreters(
    target: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = write(tmp_path / "conv.mlir", CONV)
    params, arrays = conv_params(tmp_path / "p.npz")
    x = np.random.default_rng(4).standard_normal((1, 3, 8, 8)).astype("float32")
    np.save(tmp_path / "x.npy", x)
    common = [model, "--input", f"x={tmp_path / 'x.npy'}", "--params", params, "--output"]
    assert run(capsys, *common, str(tmp_path / "ref.npy"))[0] == 0
    library = tmp_path / "model.so"
    args = [*common, str(tmp_path / "lib.npy"), "--target", target, "--export", str(library)]
    code, out, err = run(capsys, *args)
    assert (code, err) == (0, "")
    assert out.startswith("output0: float32[1, 4, 1, 1] min=")
    reference = np.load(tmp_path / "ref.npy")
    expected = xrelay.evaluate(xrelay.parse(CONV), x, arrays["w"], arrays["b"])
    np.testing.assert_allclose(reference, np.asarray(expected), rtol=1e-6)
    np.testing.assert_allclose(np.load(tmp_path / "lib.npy"), reference, rtol=1e-5, atol=1e-6)
    loaded = xrelay.runtime.load(library)
    assert [info.name for info in loaded.inputs] == ["x"]  # w and b are constants now
    loaded.close()


def test_accel_target_partitions_the_conv(tmp_path: Path) -> None:
    _, arrays = conv_params(tmp_path / "p.npz")
    runner = LibraryRunner(xrelay.parse(CONV), ["accel", "c"], arrays, {})
    assert runner.library.targets == ("accel", "c")
    assert 'Compiler = "accel"' in runner.library.module.astext()
    assert [info.name for info in runner.library.inputs] == ["x"]
    runner.library.close()


def test_num_threads_is_the_build_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = write(tmp_path / "conv.mlir", CONV)
    params, _ = conv_params(tmp_path / "p.npz")
    args = [model, "--params", params, "--random", "--target", "accel,c"]
    assert RunMain([*args, "--num-threads", "2"]).options() == {"num_threads": 2}
    want, got = tmp_path / "want.npy", tmp_path / "got.npy"
    assert run(capsys, model, "--params", params, "--random", "--output", str(want))[0] == 0
    assert run(capsys, *args, "--num-threads", "2", "--output", str(got))[::2] == (0, "")
    np.testing.assert_allclose(np.load(got), np.load(want), rtol=1e-5, atol=1e-6)
    code, out, err = run(capsys, *args, "--num-threads", "0")
    assert (code, out) == (1, "")
    assert err == "xrelay-run: error: option num_threads must be an int of at least 1, got 0\n"
    code, _, err = run(capsys, model, "--num-threads", "2")
    assert (code, err) == (1, "xrelay-run: error: --num-threads needs --target\n")


def test_repeat_prints_the_outputs_then_the_timing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = write(tmp_path / "m.mlir", TWO_RESULTS)
    for target in ([], ["--target", "c"]):
        code, out, err = run(capsys, model, "--random", "--repeat", "3", *target)
        assert (code, err) == (0, "")
        lines = out.splitlines()
        assert [line.split(":")[0] for line in lines[:3]] == ["output0", "output1.0", "output1.1"]
        match = re.fullmatch(r"time: median (\S+) ms, min (\S+) ms, 3 runs", lines[3])
        assert match, lines
        assert 0 <= float(match.group(2)) <= float(match.group(1))


def test_output_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    conv = write(tmp_path / "conv.mlir", CONV)
    assert run(capsys, conv, "--output", str(tmp_path / "one.bin"))[0] == 0
    assert np.load(tmp_path / "one.bin").shape == (1, 4, 1, 1)  # .npy data under the given name
    assert run(capsys, conv, "--output", str(tmp_path / "one.npz"))[0] == 0
    assert set(saved(tmp_path / "one.npz")) == {"output0"}
    two = write(tmp_path / "m.mlir", TWO_RESULTS)
    code, out, err = run(capsys, two, "--output", str(tmp_path / "out.npy"))
    assert (code, out) == (1, "")
    assert err == (
        f"xrelay-run: error: --output {tmp_path / 'out.npy'}: the function has 3 output arrays; "
        "name an .npz file to write them all (keys output0, output1, ...)\n"
    )
    assert not (tmp_path / "out.npy").exists()


def test_a_failed_output_write_keeps_the_old_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conv = write(tmp_path / "conv.mlir", CONV)
    for name in ("old.npy", "old.npz"):
        target = tmp_path / name
        target.write_bytes(b"what was there")

        def refuse(src: str, dst: str) -> None:
            raise OSError(28, "No space left on device")

        with monkeypatch.context() as patch:
            patch.setattr("xrelay.passes.transaction.os.replace", refuse)
            code, out, err = run(capsys, conv, "--output", str(target))
        assert code == 1
        assert out.startswith("output0: float32[1, 4, 1, 1]")  # printed before the write
        assert err == f"xrelay-run: error: cannot write {target}: No space left on device\n"
        assert target.read_bytes() == b"what was there"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conv.mlir", "old.npy", "old.npz"]


# ------------------------------------------------------------ errors: one line, exit status 1

ERRORS: dict[str, tuple[list[str], dict[str, str], str]] = {
    # name: (arguments after the model, environment, the expected error line's pattern)
    "target_not_ending_in_c": (
        ["--target", "accel"],
        {},
        r"xrelay-run: error: unsupported target 'accel': the last target must be 'c' .*",
    ),
    "unknown_target": (
        ["--target", "bogus,c"],
        {},
        r"xrelay-run: error: unsupported target 'bogus': it has no code generator .*",
    ),
    "empty_target": (
        ["--target", "accel,,c"],
        {},
        r"xrelay-run: error: --target expects names separated by commas .*",
    ),
    "missing_input_file": (
        ["--input", "x={tmp}/nope.npy"],
        {},
        r"xrelay-run: error: --input x: cannot read \S+/nope.npy: No such file or directory",
    ),
    "not_numpy_input": (
        ["--input", "x={tmp}/m.mlir"],
        {},
        r"xrelay-run: error: --input x: \S+/m.mlir is not a numpy .npy/.npz file .*",
    ),
    "wrong_shape": (
        ["--target", "c", "--input", "x={tmp}/short.npy"],
        {},
        r"xrelay-run: error: --input x=\S+/short.npy: input 'x': expected shape "
        r"\(2, 4\), got \(4\)",
    ),
    "wrong_dtype": (
        ["--target", "c", "--input", "x={tmp}/f64.npy"],
        {},
        r"xrelay-run: error: --input x=\S+/f64.npy: input 'x': expected dtype float32, "
        r"got float64",
    ),
    "unknown_input": (
        ["--input", "y={tmp}/f64.npy"],
        {},
        r"xrelay-run: error: --input y: 'main' has no input 'y' \(its inputs: x, w\)",
    ),
    "unknown_param": (
        ["--target", "c", "--params", "{tmp}/p.npz"],
        {},
        r"xrelay-run: error: --params \S+/p.npz: 'bogus' is not a parameter of 'main' "
        r"\(its parameters: x, w\)",
    ),
    "wrong_param_shape": (
        ["--target", "c", "--params", "{tmp}/w.npz"],
        {},
        r"xrelay-run: error: --params \S+/w.npz: input 'w': expected shape \(2, 4\), got \(4\)",
    ),
    "unknown_param_interpreter": (
        ["--params", "{tmp}/p.npz"],
        {},
        r"xrelay-run: error: --params \S+/p.npz: 'bogus' is not a parameter of 'main' "
        r"\(its parameters: x, w\)",
    ),
    "wrong_param_shape_interpreter": (
        ["--params", "{tmp}/w.npz"],
        {},
        r"xrelay-run: error: --params \S+/w.npz: input 'w': expected shape \(2, 4\), got \(4\)",
    ),
    "no_compiler": (
        ["--target", "c"],
        {"CC": "/nonexistent"},
        r"xrelay-run: error: C compiler '/nonexistent' not found; set \$CC",
    ),
    "build_error": (
        ["--target", "c", "--cflags=-fno-such-flag"],
        {},
        r"xrelay-run: error: compiling isa.c, isa_required.c, model.c failed with cc "
        r"\(keep_failed=True or XRELAY_KEEP_FAILED=1 keeps the sources\): "
        r".*error.*-fno-such-flag.*",
    ),
    "flag_needs_target": (
        ["--opt-level", "2"],
        {},
        r"xrelay-run: error: --opt-level needs --target",
    ),
    "repeat_zero": (
        ["--repeat", "0"],
        {},
        r"xrelay-run: error: --repeat must be at least 1, got 0",
    ),
    "unknown_flag": (
        ["--bogus"],
        {},
        r"xrelay-run: error: unrecognized arguments: --bogus \(see --help\)",
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_are_one_line_and_exit_status_1(
    name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    arguments, environment, pattern = ERRORS[name]
    model = write(tmp_path / "m.mlir", TWO_RESULTS)
    np.save(tmp_path / "short.npy", np.zeros(4, "float32"))
    np.save(tmp_path / "f64.npy", np.zeros((2, 4), "float64"))
    np.savez(tmp_path / "p.npz", w=np.zeros((2, 4), "float32"), bogus=np.zeros(1))
    np.savez(tmp_path / "w.npz", w=np.zeros(4, "float32"))
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    args = [a.replace("{tmp}", str(tmp_path)) for a in arguments]
    code, out, err = run(capsys, model, *args)
    assert (code, out) == (1, "")
    assert err.endswith("\n"), err
    assert err.count("\n") == 1, err
    assert re.fullmatch(pattern, err.strip()), err


def test_a_parse_error_keeps_file_line_col(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = write(tmp_path / "bad.mlir", TWO_RESULTS.replace("%0 = relay.add", "%0 = relay.add("))
    code, out, err = run(capsys, model, "--target", "c")
    assert (code, out) == (1, "")
    assert err.count("\n") == 1, err
    assert err.startswith(f"{model}:2:"), err


def test_the_console_script_exits_1_without_a_traceback(tmp_path: Path) -> None:
    model = write(tmp_path / "m.mlir", TWO_RESULTS)
    command = [sys.executable, "-m", "xrelay.tools.run", model]
    bad = subprocess.run([*command, "--target", "bogus,c"], capture_output=True, text=True)
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    assert bad.stderr.startswith("xrelay-run: error: unsupported target 'bogus'")
    good = subprocess.run([*command, "--target", "c"], capture_output=True, text=True)
    assert (good.returncode, good.stderr) == (0, "")
    assert good.stdout.startswith("output0: float32[2, 4]")
