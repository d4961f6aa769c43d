"""Inputs the C ABI and `xrelay-run` used to mishandle: names of any length (the generated
`xrelay_model_run` names them in its messages) and arrays in the other byte order."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest
from xrelay.tools.run_main import RunMain

import xrelay

LONG = "input_" + "a" * 294  # 300 characters: the message buffer held 256
ADD = """\
func.func @main(%{x}: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {{
  %0 = relay.add %{x}, %y : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}}
"""


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(cache))


def test_a_long_input_name_builds_runs_and_is_named_whole_in_errors() -> None:
    lib = xrelay.build(xrelay.parse(ADD.format(x=LONG)), target="c")
    assert [info.name for info in lib.inputs] == [LONG, "y"]
    x = np.arange(6, dtype="float32").reshape(2, 3)
    y = np.full((2, 3), 0.5, "float32")
    np.testing.assert_array_equal(lib(x, y), x + y)
    np.testing.assert_array_equal(lib(**{LONG: x, "y": y}), x + y)

    dll = ctypes.CDLL(str(lib.path))
    dll.xrelay_model_create.restype = ctypes.c_void_p
    dll.xrelay_model_run.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
    dll.xrelay_last_error.restype = ctypes.c_char_p
    dll.xrelay_model_destroy.argtypes = (ctypes.c_void_p,)
    model = dll.xrelay_model_create()
    assert model
    out = np.empty((2, 3), "float32")
    outputs = (ctypes.c_void_p * 1)(out.ctypes.data)
    raw = np.zeros(8, "float32")
    cases = {
        None: "is NULL",
        raw.ctypes.data + 1: "is not aligned for its dtype",
    }
    for pointer, problem in cases.items():
        inputs = (ctypes.c_void_p * 2)(pointer, y.ctypes.data)
        assert dll.xrelay_model_run(model, inputs, outputs) == 1
        message = dll.xrelay_last_error().decode()
        assert message == f"xrelay_model_run: input 0 ('{LONG}') {problem}"
    # A failure of another kind afterwards reports its own message.
    assert dll.xrelay_model_run(None, None, None) == 1
    assert dll.xrelay_last_error() == b"xrelay_model_run: model is NULL"
    inputs = (ctypes.c_void_p * 2)(x.ctypes.data, y.ctypes.data)
    assert dll.xrelay_model_run(model, inputs, outputs) == 0
    assert dll.xrelay_last_error() == b""
    dll.xrelay_model_destroy(model)
    np.testing.assert_array_equal(out, x + y)


def test_a_library_takes_an_array_in_the_other_byte_order() -> None:
    lib = xrelay.build(xrelay.parse(ADD.format(x="x")), target="c")
    x = np.arange(6, dtype=">f4").reshape(2, 3)  # big-endian: not native on x86 or arm64
    y = np.full((2, 3), 0.25, "<f4").astype(np.dtype("float32").newbyteorder("S"))
    result = lib(x, y)
    assert result.dtype == np.dtype("float32")
    np.testing.assert_array_equal(result, x.astype("float32") + 0.25)
    with pytest.raises(ValueError, match=r"input 'x' expects dtype float32, got >f8"):
        lib(x.astype(">f8"), y)


@pytest.mark.parametrize("target", [None, "c"])
def test_xrelay_run_reads_a_big_endian_npy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str | None
) -> None:
    model = tmp_path / "add.mlir"
    model.write_text(ADD.format(x="x"))
    x = (np.arange(6, dtype="float32").reshape(2, 3) - 2.5).astype(">f4")
    np.save(tmp_path / "x.npy", x)
    np.savez(tmp_path / "p.npz", y=np.ones((2, 3), ">f4"))
    assert np.load(tmp_path / "x.npy").dtype.str == ">f4"
    args = [str(model), "--input", f"x={tmp_path / 'x.npy'}", "--params", str(tmp_path / "p.npz")]
    if target is not None:
        args += ["--target", target]
    code = RunMain.main([*args, "--output", str(tmp_path / "out.npy")])
    captured = capsys.readouterr()
    assert (code, captured.err) == (0, ""), captured.err
    assert captured.out.startswith("output0: float32[2, 3]")
    out = np.load(tmp_path / "out.npy")
    assert out.dtype == np.dtype("float32")
    np.testing.assert_array_equal(out, x.astype("float32") + 1)


def test_the_interpreter_takes_an_array_in_the_other_byte_order() -> None:
    mod = xrelay.parse(ADD.format(x="x"))
    x = np.arange(6, dtype=">f4").reshape(2, 3)
    y = np.full((2, 3), 0.25, ">f4")
    result = xrelay.evaluate(mod, x, y)
    assert result.dtype == np.dtype("float32")
    np.testing.assert_array_equal(result, x.astype("float32") + 0.25)
    with pytest.raises(ValueError, match=r"expected dtype float32, got float64"):
        xrelay.evaluate(mod, x.astype(">f8"), y)
