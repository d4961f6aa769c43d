"""Profiling builds (the build option `profile`): a timer and a named counter per kernel.

tinyres is built with `profile=True` for `"c"`, `["accel", "c"]` (also on two
threads) and `["dnnl", "c"]`; the entries it reports must be exactly the
kernels the lowered module runs (entry 0 `main`, every call of `main` that
prints code, every kernel of a target's function), each called once per run,
each with time; `reset_profile` zeroes them; the names are the same in
another build; a build without `profile` prints no timer and refuses
`profile()`; `xrelay-run --profile` prints the table. No timing is asserted
beyond "more than zero".
"""

from __future__ import annotations

import ctypes
import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.sanitized import run_main
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xrelay.codegen.c.function import is_view_call
from xrelay.codegen.c.pipeline import BuiltLibrary
from xrelay.codegen.c.profile import Profiler
from xrelay.codegen.runtime.profile import ProfileEntry, format_profile, ordered, parents
from xrelay.tools.run_main import RunMain

import xrelay
from xrelay import IRModule, relay

ROOT = Path(__file__).resolve().parent.parent
RUNS = 3


def tinyres(size: int = 32) -> IRModule:
    spec = importlib.util.spec_from_file_location("tinyres_example", ROOT / "examples/tinyres.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.tinyres(size)


def expected_names(lib: BuiltLibrary) -> list[str]:
    """The entries the lowered module should have, from its IR, in no particular order."""
    names = ["main"]
    functions = [f for f in lib.module.module.ops if isinstance(f, func.FuncOp)]
    for function in functions:
        compiler = function.attributes.get("Compiler")
        target = compiler.data if isinstance(compiler, StringAttr) else None
        ops = list(function.body.block.ops)
        if function.sym_name.data == "main":
            names += [
                op.callee.root_reference.data
                for op in ops
                if isinstance(op, func.CallOp) and not is_view_call(op)
            ]
        elif target in lib.targets:
            counts: dict[str, int] = {}
            for op in ops:
                if op.name.startswith(f"{target}."):
                    number = counts.get(op.name, 0)
                    counts[op.name] = number + 1
                    names.append(f"{function.sym_name.data}/{op.name}#{number}")
    return names


BUILDS = [
    pytest.param("c", None, id="c"),
    pytest.param(["accel", "c"], None, id="accel"),
    pytest.param(["accel", "c"], 2, id="accel-2-threads"),
    pytest.param(["dnnl", "c"], None, id="dnnl"),
]


@pytest.mark.parametrize(("target", "threads"), BUILDS)
def test_a_profiling_build_times_every_kernel_once_per_run(
    cache: Path, target: Any, threads: int | None
) -> None:
    net = tinyres()
    options: dict[str, Any] = {"cache_dir": cache, "profile": True, "num_threads": threads}
    lib = xrelay.build(net, target=target, options=options)
    plain = xrelay.build(net, target=target, options={**options, "profile": False})
    x = np.random.default_rng(3).standard_normal((1, 3, 32, 32)).astype("float32")
    np.testing.assert_allclose(lib(x), plain(x), rtol=1e-6, atol=1e-7)
    lib.reset_profile()
    for _ in range(RUNS):
        lib(x)
    entries = lib.profile()
    names = [e.name for e in entries]
    assert entries[0].name == "main"
    assert entries[0].parent is None
    assert sorted(names) == sorted(expected_names(lib)), names
    assert len(set(names)) == len(names)
    assert [e.index for e in entries] == list(range(len(entries)))
    for entry in entries:
        assert entry.calls == RUNS, entry
        assert entry.seconds > 0, entry
        assert entry.mean == pytest.approx(entry.seconds / RUNS)
    kernels = [e for e in entries if "/" in e.name]
    if target == "c":
        assert not kernels  # FuseOps' groups are timed at their calls
        assert all(e.parent == 0 for e in entries[1:])
    else:
        (byoc,) = lib.targets[:-1]
        convs = [name for name in names if f"/{byoc}.conv2d" in name]  # also conv2d_winograd
        assert len(convs) == 4, names
        for kernel in kernels:  # under the call of its function, which takes longer
            parent = entries[kernel.parent or 0]
            assert parent.name == kernel.name.split("/")[0]
            assert parent.seconds >= kernel.seconds
    top = sum(e.seconds for e in entries if e.parent == 0)
    assert top <= entries[0].seconds


def test_reset_zeroes_the_counters_and_names_are_stable(cache: Path, tmp_path: Path) -> None:
    lib = xrelay.build(tinyres(), ["accel", "c"], options={"cache_dir": cache, "profile": True})
    x = np.zeros((1, 3, 32, 32), "float32")
    lib(x)
    lib.reset_profile()
    assert all(e.calls == 0 and e.seconds == 0 for e in lib.profile())
    lib(x)
    assert all(e.calls == 1 for e in lib.profile())
    other = xrelay.build(
        tinyres(), ["accel", "c"], options={"cache_dir": tmp_path, "profile": True}
    )
    assert other.path != lib.path
    assert [e.name for e in other.profile()] == [e.name for e in lib.profile()]
    assert all(e.calls == 0 for e in other.profile())  # counters are per library


def test_the_c_abi_of_the_profile(cache: Path) -> None:
    lib = xrelay.build(tinyres(), "c", options={"cache_dir": cache, "profile": True})
    lib.reset_profile()  # an earlier test may have run the same (cached, loaded) library
    lib(np.zeros((1, 3, 32, 32), "float32"))
    dll = ctypes.CDLL(str(lib.path))  # the same loaded library: the same counters
    dll.xrelay_profile_name.restype = ctypes.c_char_p
    count = dll.xrelay_profile_count()
    assert count == len(lib.profile())
    assert dll.xrelay_profile_name(0) == b"main"
    assert dll.xrelay_profile_name(count) is None
    assert dll.xrelay_profile_name(-1) is None
    calls, nanoseconds = ctypes.c_uint64(), ctypes.c_uint64()
    assert dll.xrelay_profile_read(0, ctypes.byref(calls), ctypes.byref(nanoseconds)) == 0
    assert calls.value == 1
    assert nanoseconds.value > 0
    assert dll.xrelay_profile_read(count, None, None) == 1
    assert dll.xrelay_profile_read(0, None, None) == 0
    dll.xrelay_profile_reset()
    assert lib.profile()[0].calls == 0


def test_host_ops_of_main_are_timed_by_op_name(cache: Path) -> None:
    x = relay.var("x", shape=(4,))
    body = relay.nn.softmax(relay.exp(relay.exp(x)))
    mod = IRModule.from_expr(relay.Function([x], body))
    lib = xrelay.build(mod, options={"cache_dir": cache, "profile": True, "optimize": False})
    lib.reset_profile()
    lib(np.ones(4, "float32"))
    entries = lib.profile()
    # Unfused: main's own ops; the two exps are one loop nest, printed (and named) at its root.
    assert [e.name for e in entries] == ["main", "main/relay.exp#0", "main/relay.nn.softmax#0"]
    assert [e.parent for e in entries] == [None, 0, 0]
    assert all(e.calls == 1 for e in entries)


def test_without_profile_the_c_has_no_timers(cache: Path) -> None:
    net = tinyres()
    for target in ("c", ["accel", "c"], ["dnnl", "c"]):
        default = xrelay.build(net, target, options={"cache_dir": cache})
        off = xrelay.build(net, target, options={"cache_dir": cache, "profile": False})
        on = xrelay.build(net, target, options={"cache_dir": cache, "profile": True})
        assert default.sources.render() == off.sources.render()
        assert default.path == off.path
        text = default.sources.render()
        assert "xr_prof" not in text
        assert "xrelay_profile" not in text
        assert "<time.h>" not in text
        assert "xr_prof_add(" in on.sources.render()
        assert not default.profiling
        assert on.profiling
        with pytest.raises(RuntimeError, match="built without profiling: build it with"):
            default.profile()
        with pytest.raises(RuntimeError, match="built without profiling"):
            default.reset_profile()


@pytest.mark.parametrize("value", ["yes", 1, None, 0.0])
def test_the_profile_option_must_be_a_bool(value: Any) -> None:
    x = relay.var("x", shape=(2,))
    mod = IRModule.from_expr(relay.Function([x], relay.exp(x)))
    with pytest.raises(ValueError, match="option profile must be a bool"):
        xrelay.build(mod, options={"profile": value})


def test_entry_names() -> None:
    timers = Profiler("main")
    call = func.CallOp("fused_f", [], [])
    other = func.CallOp("fused_g", [], [])
    names = [timers.name_of("main", op) for op in (call, other, call)]
    assert names == ["fused_f", "fused_g", "fused_f#1"]
    ret = func.ReturnOp()
    assert [timers.name_of("main", ret), timers.name_of("main", ret)] == [
        "main/func.return#0",
        "main/func.return#1",
    ]
    assert timers.name_of("tvmgen_default_accel_main_0", call) == (
        "tvmgen_default_accel_main_0/func.call#0"
    )
    assert timers.times_ops("main", byoc=False)
    assert timers.times_ops("f", byoc=True)
    assert not timers.times_ops("fused_f", byoc=False)


def test_the_table_nests_kernels_under_their_call() -> None:
    names = ["main", "f/k#0", "f", "g", "f/k#1", "h/k#0"]
    assert parents(names) == [None, 2, 0, 0, 2, 0]
    seconds = [1.0, 0.2, 0.5, 0.3, 0.25, 0.1]
    entries = [
        ProfileEntry(i, n, 4, s, p)
        for i, (n, s, p) in enumerate(zip(names, seconds, parents(names), strict=True))
    ]
    assert [(d, e.name) for d, e in ordered(entries)] == [
        (0, "main"),
        (1, "f"),
        (2, "f/k#1"),
        (2, "f/k#0"),
        (1, "g"),
        (1, "h/k#0"),
    ]
    lines = format_profile(entries)
    assert lines[0].split() == ["kernel", "calls", "total", "ms", "mean", "us", "%", "of", "run"]
    assert lines[1].split() == ["main", "4", "1000.000", "250000.00", "100.0%"]
    assert lines[3].startswith("    f/k#1 ")
    assert lines[3].split()[1:] == [
        "4",
        "250.000",
        "62500.00",
        "25.0%",
    ]


def test_xrelay_run_prints_the_table(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(cache))
    model = tmp_path / "tinyres.mlir"
    model.write_text(tinyres().astext())
    argv = [str(model), "--target", "accel,c", "--random", "--repeat", "4", "--profile"]
    assert RunMain.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("profile: 4 runs")
    assert lines[start - 1].startswith("time: median ")
    assert lines[start + 1].split()[:2] == ["kernel", "calls"]
    rows = [line.split() for line in lines[start + 2 :]]
    assert rows[0][:2] == ["main", "4"]
    assert rows[0][-1] == "100.0%"
    assert all(row[1] == "4" for row in rows), rows
    conv = [line for line in lines if "/accel.conv2d" in line]  # conv2d#n, conv2d_winograd#n
    assert len(conv) == 4, conv
    assert all(line.startswith("    tvmgen_") for line in conv), conv
    times = [float(line.split()[2]) for line in conv]
    assert times == sorted(times, reverse=True)  # siblings, longest first
    assert RunMain.main([str(model), "--profile"]) == 1
    assert capsys.readouterr().err.strip() == "xrelay-run: error: --profile needs --target"


@pytest.mark.parametrize("target", [["accel", "c"], ["dnnl", "c"]])
def test_the_profile_from_c_under_the_sanitizers(
    cache: Path, tmp_path: Path, target: list[str]
) -> None:
    """A profiling build (2 threads) compiled with ASan and UBSan, read from C
    (`tests/c/profile_main.c`): no report, leaks included; every entry called once per run."""
    options = {"cache_dir": cache, "num_threads": 2, "profile": True}
    lib = xrelay.build(tinyres(), target, options=options)
    names = [e.name for e in lib.profile()]
    sources = lib.sources  # compiled again with the sanitizers (not loaded into Python)
    stdout = run_main(sources, cache, tmp_path, driver=ROOT / "tests" / "c" / "profile_main.c")
    rows = [line.split() for line in stdout.splitlines()]
    assert [row[2] for row in rows] == names
    assert all(row[3] == "3" for row in rows), rows
    assert all(int(row[4]) > 0 for row in rows), rows
