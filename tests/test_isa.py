"""Portable builds: the build option `march`, the ISA a library records, the load-time check."""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xrelay.codegen.build import BuildError, find_compiler
from xrelay.codegen.c.isa import FEATURES
from xrelay.codegen.runtime.loader import UnsupportedCPUError
from xrelay.tools.run_main import RunMain

import xrelay
from xrelay import relay
from xrelay.runtime import load


def model() -> xrelay.IRModule:
    x = relay.var("x", shape=(3, 7), dtype="float32")
    w = relay.const(np.linspace(-1, 1, 7 * 5, dtype="float32").reshape(5, 7))
    return xrelay.IRModule.from_expr(relay.nn.relu(relay.nn.dense(x, w)))


def features_of(march: str) -> tuple[str, ...]:
    """The recordable features GCC enables for `march`, from its predefined macros."""
    macros = subprocess.run(
        [*find_compiler().command, f"-march={march}", "-dM", "-E", "-x", "c", "-"],
        input="",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return tuple(name for macro, name in FEATURES if macro in macros)


SPELLED = {
    "sse3": "pni",
    "sse4.1": "sse4_1",
    "sse4.2": "sse4_2",
    "bmi": "bmi1",
    "avxvnni": "avx_vnni",
    "amx-tile": "amx_tile",
    **{f"avx512{s}": f"avx512_{s}" for s in ("vnni", "vbmi2", "bitalg", "vpopcntdq", "bf16")},
    "avx512fp16": "avx512_fp16",
}
"""Feature names (`__builtin_cpu_supports`) that /proc/cpuinfo spells otherwise."""


def cpu_flags() -> set[str]:
    """This CPU's features, as `__builtin_cpu_supports` spells them."""
    text = Path("/proc/cpuinfo").read_text()
    line = next(line for line in text.splitlines() if line.startswith("flags"))
    flags = set(line.split(":", 1)[1].split())
    return flags | {name for name, spelled in SPELLED.items() if spelled in flags}


def lacking_march() -> tuple[str, str] | None:
    """A -march this CPU lacks a feature of, and that feature; None if it has them all."""
    flags = cpu_flags()
    # Intel candidates for AMD machines, and AMD's for Intel ones (sse4a, clzero: AMD only)
    for march in ("x86-64-v2", "x86-64-v3", "skylake-avx512", "sapphirerapids", "znver1"):
        for feature in features_of(march):
            if feature not in flags:
                return march, feature
    return None


def test_portable_build_runs_and_records_nothing(cache: Path) -> None:
    x = np.linspace(-2, 2, 21, dtype="float32").reshape(3, 7)
    expected = xrelay.evaluate(model(), x)
    lib = xrelay.build(model(), options={"march": "x86-64", "cache_dir": cache})
    assert lib.required_isa == ()
    assert all("-march=x86-64" in flags for flags in lib.sources.unit_cflags.values())
    np.testing.assert_allclose(lib(x), expected, rtol=1e-5, atol=1e-6)


def test_native_build_records_the_cpu_features(cache: Path) -> None:
    lib = xrelay.build(model(), options={"cache_dir": cache})
    assert lib.required_isa == features_of("native")
    flags = cpu_flags()
    assert set(lib.required_isa) <= flags, set(lib.required_isa) - flags
    if "avx2" in flags:
        assert {"avx", "avx2", "fma"} <= set(lib.required_isa)
    handle = ctypes.CDLL(str(lib.path))
    handle.xrelay_required_isa.restype = ctypes.c_char_p
    assert handle.xrelay_required_isa().decode() == ",".join(lib.required_isa)


def test_march_changes_the_cache_key_and_tvm_target_attribute(cache: Path) -> None:
    v3 = xrelay.build(model(), options={"march": "x86-64-v3", "cache_dir": cache})
    portable = xrelay.build(model(), options={"march": "x86-64", "cache_dir": cache})
    assert v3.path != portable.path
    assert v3.required_isa == features_of("x86-64-v3")
    tvm_style = xrelay.build(model(), target="c -mcpu=x86-64-v3", options={"cache_dir": cache})
    assert tvm_style.path == v3.path
    listed = xrelay.build(model(), target=["c -mcpu=x86-64-v3"], options={"cache_dir": cache})
    assert listed.path == v3.path
    with pytest.raises(ValueError, match=r"takes only -mcpu=<cpu>.*'-mattr=\+avx2'"):
        xrelay.build(model(), target="c -mattr=+avx2", options={"cache_dir": cache})
    with pytest.raises(ValueError, match="target says -mcpu=x86-64-v3 but option march is"):
        xrelay.build(model(), target="c -mcpu=x86-64-v3", options={"march": "x86-64"})


def test_unknown_march_is_a_build_error() -> None:
    with pytest.raises(BuildError, match=r"march 'pentium-9000' is not known to \S+: .*-march="):
        xrelay.build(model(), options={"march": "pentium-9000"})
    with pytest.raises(ValueError, match="option march must be"):
        xrelay.build(model(), options={"march": "-O3"})
    with pytest.raises(ValueError, match="option march must be a string"):
        xrelay.build(model(), options={"march": 3})


def test_a_library_for_a_cpu_this_one_is_not_refuses_to_load(cache: Path) -> None:
    found = lacking_march()
    if found is None:  # this CPU has every feature the candidates enable: no refusal to see
        pytest.fail("no -march candidate enables a feature this CPU lacks; add a newer one")
    march, feature = found
    with pytest.raises(UnsupportedCPUError, match=f"needs {feature}, this CPU lacks it"):
        xrelay.build(model(), options={"march": march, "cache_dir": cache})
    refused = [p for p in cache.glob("model-*.so") if _missing(p)]
    assert refused, "the refused library is in the cache"
    path = refused[0]
    with pytest.raises(UnsupportedCPUError, match=f"needs {feature}, this CPU lacks it"):
        load(path)
    # The C ABI refuses too: xrelay_model_create returns NULL with the message.
    handle = ctypes.CDLL(str(path))
    handle.xrelay_model_create.restype = ctypes.c_void_p
    handle.xrelay_last_error.restype = ctypes.c_char_p
    assert handle.xrelay_model_create() is None
    message = handle.xrelay_last_error().decode()
    assert message == f"xrelay_model_create: library needs {feature}, this CPU lacks it"


def _missing(path: Path) -> bytes | None:
    handle = ctypes.CDLL(str(path))
    handle.xrelay_missing_isa.restype = ctypes.c_char_p
    return handle.xrelay_missing_isa()


def test_xrelay_run_march(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`xrelay-run --march`: the build option; a CPU that lacks a feature is a one-line error."""
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "m.mlir"
    path.write_text(model().astext())
    args = [str(path), "--random", "--target", "c"]
    assert RunMain([*args, "--march", "x86-64"]).options() == {"march": "x86-64"}
    want, got = tmp_path / "want.npy", tmp_path / "got.npy"
    assert RunMain.main([str(path), "--random", "--output", str(want)]) == 0
    assert RunMain.main([*args, "--march", "x86-64", "--output", str(got)]) == 0
    np.testing.assert_allclose(np.load(got), np.load(want), rtol=1e-5, atol=1e-6)
    capsys.readouterr()
    assert RunMain.main([*args, "--march", "pentium-9000"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("xrelay-run: error: march 'pentium-9000' is not known to ")
    assert err.count("\n") == 1
    found = lacking_march()
    assert found is not None
    assert RunMain.main([*args, "--march", found[0]]) == 1
    err = capsys.readouterr().err
    assert err.startswith("xrelay-run: error: model library ")
    assert f"needs {found[1]}, this CPU lacks it" in err
    assert RunMain.main([str(path), "--march", "x86-64"]) == 1
    assert capsys.readouterr().err == "xrelay-run: error: --march needs --target\n"
