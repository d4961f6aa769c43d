"""The build step: C sources -> one cached shared library, with the system compiler.

The sources are the hand-written models of tests/c, which implement the C ABI
the emitters will generate (xrelay_runtime.h). A fake `$CC` (a script that
logs its arguments, then runs the real compiler) shows which compiler runs
happen; the sanitizer run goes through a C `main` (tests/c/main.c), so no
sanitized code is loaded into this Python process.
"""

from __future__ import annotations

import ctypes
import os
import re
import shlex
import stat
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from xrelay.codegen import object_cache, runtime
from xrelay.codegen.build import (
    BASE_CFLAGS,
    BuildError,
    cache_directory,
    compile_library,
    find_compiler,
)
from xrelay.codegen.cache import LEDGER, CacheWarning, verify

C_DIR = Path(__file__).resolve().parent / "c"
RELU_ADD = ("relu_add.h", "relu_add_kernel.c", "relu_add_model.c")
SANITIZE = "-fsanitize=address,undefined -fno-omit-frame-pointer"
W = np.array([0.5, -1.0, 2.0, -3.0], "float32")


def fixture_sources(*names: str) -> dict[str, str]:
    return {name: (C_DIR / name).read_text() for name in names}


def main_inputs(*infos: tuple[str, tuple[int, ...]]) -> list[np.ndarray]:
    """The inputs tests/c/main.c makes: element i is ((i % 7) - 3) * 0.75, integers (i % 7) - 3."""
    arrays = []
    for dtype, shape in infos:
        k = (np.arange(int(np.prod(shape))) % 7) - 3
        values = k * 0.75 if np.dtype(dtype).kind == "f" else k
        arrays.append(values.astype(dtype).reshape(shape))
    return arrays


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS", "XRELAY_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def fake_cc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`$CC` is a script that appends its arguments to a log, then runs the real compiler."""
    real = find_compiler()
    log = tmp_path / "cc.log"
    script = tmp_path / "fake-cc"
    script.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$*" >> {shlex.quote(str(log))}\n'
        f'exec {shlex.join(real.command)} "$@"\n'
    )
    script.chmod(0o755)
    log.write_text("")
    monkeypatch.setenv("CC", str(script))
    return log


TRIVIAL = {"one.c": "int one(void);\nint one(void) { return 1; }\n"}


# --- building and caching -------------------------------------------------------------------


def test_translation_units_link_into_one_library_exporting_only_the_abi(tmp_path: Path) -> None:
    path = compile_library(fixture_sources(*RELU_ADD), name="relu_add", cache_dir=tmp_path)
    assert path.parent == tmp_path
    assert re.fullmatch(r"relu_add-[0-9a-f]{64}\.so", path.name)
    dll = ctypes.CDLL(str(path))
    for symbol in ("xrelay_abi_version", "xrelay_model_run", "xrelay_last_error"):
        assert hasattr(dll, symbol), symbol
    # -fvisibility=hidden: the kernel of the other translation unit is not exported.
    assert not hasattr(dll, "relu_add_kernel")
    # Nothing but the library and its checksum is left in the cache.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != LEDGER) == [
        path.name,
        path.name + ".sha256",
    ]


def test_cache_hit_runs_no_compiler(tmp_path: Path, fake_cc: Path) -> None:
    first = compile_library(fixture_sources(*RELU_ADD), cache_dir=tmp_path)
    runs = fake_cc.read_text().splitlines()
    compiles = [r for r in runs if " -c " in r]
    # One compiler process per translation unit, each with the fixed flags and the header's -I.
    assert sorted(r.split(" -c ")[1].split()[0] for r in compiles) == [
        "relu_add_kernel.c",
        "relu_add_model.c",
    ]
    for run in compiles:
        assert " ".join(BASE_CFLAGS) in run
        assert f"-I {runtime.INCLUDE_DIR}" in run
    (link,) = [r for r in runs if "-shared" in r]
    assert link.endswith("-lm")
    mtime = first.stat().st_mtime_ns

    second = compile_library(fixture_sources(*RELU_ADD), cache_dir=tmp_path)
    assert second == first
    assert fake_cc.read_text().splitlines() == runs  # not even `--version` again
    assert first.stat().st_mtime_ns == mtime


def test_cache_key_follows_sources_flags_and_compiler(
    tmp_path: Path, fake_cc: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = compile_library(TRIVIAL, cache_dir=tmp_path)
    assert compile_library(dict(TRIVIAL), cache_dir=tmp_path) == base
    changed = {
        compile_library({"one.c": TRIVIAL["one.c"] + "\n"}, cache_dir=tmp_path),
        compile_library({**TRIVIAL, "extra.h": "#define X 1\n"}, cache_dir=tmp_path),
        compile_library(TRIVIAL, extra_cflags=["-DX=1"], cache_dir=tmp_path),
    }
    monkeypatch.setenv("CFLAGS", "-O1")
    changed.add(compile_library(TRIVIAL, cache_dir=tmp_path))
    monkeypatch.delenv("CFLAGS")
    monkeypatch.setenv("LDFLAGS", "-Wl,-O1")
    changed.add(compile_library(TRIVIAL, cache_dir=tmp_path))
    monkeypatch.delenv("LDFLAGS")
    # Another compiler behind the same $CC: its --version output differs.
    script = Path(os.environ["CC"])
    script.write_text(
        script.read_text().replace("#!/bin/sh\n", '#!/bin/sh\n[ "$1" = --version ] && echo v2\n')
    )
    changed.add(compile_library(TRIVIAL, cache_dir=tmp_path))
    assert len(changed) == 6
    assert base not in changed
    # The library name is part of the file name, not of what gets compiled.
    assert compile_library(TRIVIAL, name="other", cache_dir=tmp_path).name.startswith("other-")


def test_unit_flags_reach_their_unit_only_and_ldflags_the_link(
    tmp_path: Path, fake_cc: Path
) -> None:
    sources = fixture_sources(*RELU_ADD)
    path = compile_library(
        sources,
        unit_cflags={"relu_add_kernel.c": ["-DXR_UNIT_FLAG=1", "-O3"]},
        extra_ldflags=["-Wl,--as-needed"],
        cache_dir=tmp_path,
    )
    runs = fake_cc.read_text().splitlines()
    by_unit = {r.split(" -c ")[1].split()[0]: r for r in runs if " -c " in r}
    assert "-DXR_UNIT_FLAG=1 -O3" in by_unit["relu_add_kernel.c"]
    assert "-DXR_UNIT_FLAG" not in by_unit["relu_add_model.c"]
    (link,) = [r for r in runs if "-shared" in r]
    assert "-Wl,--as-needed" in link.split(".o ")[-1]  # after the objects
    # Both are part of the cache key.
    assert compile_library(sources, cache_dir=tmp_path) != path
    other = {"relu_add_model.c": ["-DXR_UNIT_FLAG=1", "-O3"]}
    assert compile_library(sources, unit_cflags=other, cache_dir=tmp_path) != path
    with pytest.raises(ValueError, match=r"not \.c files"):
        compile_library(sources, unit_cflags={"nope.c": ["-O3"]}, cache_dir=tmp_path)


def test_user_flags_come_after_unit_flags(
    tmp_path: Path, fake_cc: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `$CFLAGS` and the build's `cflags` are the user's: `-O0` must beat a unit's own `-O3`.
    monkeypatch.setenv("CFLAGS", "-DXR_FROM_ENV")
    compile_library(
        fixture_sources(*RELU_ADD),
        extra_cflags=["-O0"],
        unit_cflags={"relu_add_kernel.c": ["-O3"]},
        cache_dir=tmp_path,
    )
    runs = fake_cc.read_text().splitlines()
    kernel = next(r for r in runs if " -c relu_add_kernel.c" in r).split()
    assert kernel.index("-O3") < kernel.index("-DXR_FROM_ENV") < kernel.index("-O0")
    assert kernel.index(BASE_CFLAGS[-1]) < kernel.index("-O3")


def test_concurrent_builds_of_one_model_are_safe(tmp_path: Path) -> None:
    with ThreadPoolExecutor(4) as pool:
        paths = set(
            pool.map(
                lambda _: compile_library(fixture_sources("two_outputs.c"), cache_dir=tmp_path),
                range(4),
            )
        )
    (path,) = paths
    # No temporary left behind: the library and its checksum.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != LEDGER) == [
        path.name,
        path.name + ".sha256",
    ]
    assert ctypes.CDLL(str(path)).xrelay_num_outputs() == 2


def test_self_contained_units_are_compiled_once_per_process(tmp_path: Path, fake_cc: Path) -> None:
    # `shared.c` names no other file of the build: the next build with the same text and
    # flags reuses its object; `own.c` includes the model's header, so it is compiled each time.
    exported = '__attribute__((visibility("default")))'
    shared = f"{exported} int shared_one(void);\nint shared_one(void) {{ return 1; }}\n"
    own = f'#include "own.h"\n{exported} int own_value(void);\nint own_value(void) {{ return VALUE; }}\n'

    def build(value: int, *flags: str) -> Path:
        sources = {"shared.c": shared, "own.c": own, "own.h": f"#define VALUE {value}\n"}
        return compile_library(sources, extra_cflags=flags, cache_dir=tmp_path / "cache")

    def compiled() -> list[str]:
        runs = [r for r in fake_cc.read_text().splitlines() if " -c " in r]
        return sorted(r.split(" -c ")[1].split()[0] for r in runs)

    build(1)
    assert compiled() == ["own.c", "shared.c"]
    second = build(2)  # another model: only its own unit is compiled
    assert compiled() == ["own.c", "own.c", "shared.c"]
    build(3, "-DOTHER=1")  # other flags: compiled again
    assert compiled() == ["own.c", "own.c", "own.c", "shared.c", "shared.c"]
    dll = ctypes.CDLL(str(second))
    assert (dll.own_value(), dll.shared_one()) == (2, 1)  # the reused object is linked in
    # The cache holds the libraries and an object entry for each command line of shared.c.
    entries = [p.name for p in (tmp_path / "cache").iterdir() if p.name != LEDGER]
    objects = [name for name in entries if name.startswith(object_cache.ENTRY_PREFIX)]
    assert len(objects) == 4  # two objects, each with its checksum file
    assert all(name.endswith((".so", ".so.sha256", ".o", ".o.sha256")) for name in entries)


def test_shared_objects_serve_other_processes_from_the_cache(tmp_path: Path, fake_cc: Path) -> None:
    # Another process (here: this one, having forgotten its objects) finds the object in the
    # cache and compiles only the model's own unit; a corrupt entry is compiled again.
    exported = '__attribute__((visibility("default")))'
    shared = f"{exported} int shared_two(void);\nint shared_two(void) {{ return 2; }}\n"
    own = f'#include "own.h"\n{exported} int own_value(void);\nint own_value(void) {{ return VALUE; }}\n'
    cache = tmp_path / "cache"

    def build(value: int) -> Path:
        sources = {"shared.c": shared, "own.c": own, "own.h": f"#define VALUE {value}\n"}
        return compile_library(sources, cache_dir=cache)

    def compiled() -> list[str]:
        runs = [r for r in fake_cc.read_text().splitlines() if " -c " in r]
        return sorted(r.split(" -c ")[1].split()[0] for r in runs)

    build(1)
    (entry,) = cache.glob(f"{object_cache.ENTRY_PREFIX}*.o")
    assert verify(entry) is None
    object_cache.clear()
    second = build(2)
    assert compiled() == ["own.c", "own.c", "shared.c"]
    dll = ctypes.CDLL(str(second))
    assert (dll.own_value(), dll.shared_two()) == (2, 2)
    object_cache.clear()
    entry.write_bytes(b"not an object")
    with pytest.warns(CacheWarning, match="does not match its checksum"):
        third = build(3)
    assert compiled() == ["own.c", "own.c", "own.c", "shared.c", "shared.c"]
    assert verify(entry) is None  # published again, sound
    dll = ctypes.CDLL(str(third))
    assert (dll.own_value(), dll.shared_two()) == (3, 2)


def test_a_library_of_shared_units_alone_leaves_no_object_entries(tmp_path: Path) -> None:
    # Its library is the entry its next build hits: an object entry would only take space.
    compile_library(TRIVIAL, cache_dir=tmp_path)
    assert not list(tmp_path.glob(f"{object_cache.ENTRY_PREFIX}*"))


def test_a_unit_naming_another_file_is_not_shared() -> None:
    sources = {"a.c": '#include "m.h"\n', "b.c": "int b;\n", "m.h": "", "d.bin": b"\0"}
    assert [u for u in ("a.c", "b.c") if object_cache.is_shared(u, sources)] == ["b.c"]
    assert not object_cache.is_shared(
        "c.c", {"c.c": '__asm__(".incbin \\"d.bin\\"");', "d.bin": b""}
    )


def test_the_kernel_library_units_are_the_same_in_every_model(tmp_path: Path) -> None:
    # The shared kernel library's units (`kernels_gemm.c`, ...) include nothing of the model's,
    # so two models that call them get the same text, and a process compiles each once.
    from xrelay.codegen.kernels import LIBRARIES

    import xrelay
    from xrelay import relay

    def model(rows: int, columns: int) -> xrelay.IRModule:
        x = relay.var("x", shape=(rows, 64), dtype="float32")
        w = relay.const(np.ones((columns, 64), np.float32))
        return xrelay.IRModule.from_expr(relay.nn.softmax(relay.nn.dense(x, w)))

    cache = tmp_path / "cache"
    first = xrelay.build(model(8, 48), target="c", options={"cache_dir": str(cache)})
    second = xrelay.build(model(3, 40), target="c", options={"cache_dir": str(cache)})
    units = [lib.unit for lib in LIBRARIES.values() if lib.unit in first.sources.files]
    assert {"kernels_gemm.c", "kernels_rows.c", "kernels_vmath.c"} <= set(units)
    assert first.sources.files["model.h"] != second.sources.files["model.h"]
    for unit in units:
        assert object_cache.is_shared(unit, first.sources.files), unit
        assert first.sources.files[unit] == second.sources.files[unit], unit
    x = np.random.default_rng(0).standard_normal((3, 64)).astype(np.float32)
    expected = xrelay.evaluate(model(3, 40), x)
    np.testing.assert_allclose(second(x), expected, rtol=1e-5, atol=1e-6)


# --- the cache directory --------------------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_cache_directory_is_created_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(tmp_path / "a" / "cache"))
    old = os.umask(0)  # the most permissive umask: the modes must not depend on it
    try:
        path = compile_library(TRIVIAL)
    finally:
        os.umask(old)
    assert path.parent == tmp_path / "a" / "cache"
    assert mode(tmp_path / "a") == mode(tmp_path / "a" / "cache") == 0o700


def test_default_cache_directory_is_under_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    path = cache_directory()
    assert path == tmp_path / ".cache" / "xrelay"
    assert mode(path) == 0o700


@pytest.mark.parametrize(("bits", "what"), [(0o777, "0777"), (0o770, "0770"), (0o702, "0702")])
def test_cache_directory_writable_by_others_is_refused(
    tmp_path: Path, bits: int, what: str
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(bits)
    with pytest.raises(
        BuildError,
        match=f"refusing cache directory {shared}: writable by group or others \\(mode {what}\\)",
    ):
        compile_library(TRIVIAL, cache_dir=shared)
    assert list(shared.iterdir()) == []


def test_cache_directory_of_another_user_is_refused(tmp_path: Path) -> None:
    if os.getuid() == 0:
        theirs = tmp_path / "theirs"
        theirs.mkdir(mode=0o700)
        os.chown(theirs, 4242, -1)
        owner = 4242
    else:
        theirs, owner = Path("/"), 0  # root's, and not writable by us anyway
    with pytest.raises(
        BuildError, match=f"refusing cache directory {theirs}: owned by uid {owner}"
    ):
        cache_directory(theirs)


def test_cache_directory_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(BuildError, match="is not a directory"):
        cache_directory(tmp_path / "file")


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cc", ["xrelay-no-such-compiler", "/nonexistent/bin/cc"])
def test_missing_compiler_names_cc(
    cc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", cc)
    with pytest.raises(BuildError) as info:
        compile_library(TRIVIAL, cache_dir=tmp_path)
    assert str(info.value) == f"C compiler {cc!r} not found; set $CC"
    assert isinstance(info.value, RuntimeError)


def test_compile_error_names_the_file_and_shows_the_compiler_output(tmp_path: Path) -> None:
    sources = {**TRIVIAL, "bad.c": "int bad(void);\nint bad(void) { return undeclared_thing; }\n"}
    with pytest.raises(BuildError) as info:
        compile_library(sources, cache_dir=tmp_path, keep_failed=True)
    message = str(info.value)
    assert message.startswith("compiling bad.c failed")
    assert "bad.c:2:" in message
    assert "undeclared_thing" in message
    assert "one.c" not in message
    kept = re.search(r"sources kept in (\S+)\)", message)
    assert kept
    assert (Path(kept.group(1)) / "bad.c").read_text() == sources["bad.c"]
    assert not list(tmp_path.glob("*.so"))


def test_warnings_are_errors(tmp_path: Path) -> None:
    sources = {"w.c": "int w(void);\nint w(void) { int unused_local = 0; return 1; }\n"}
    with pytest.raises(BuildError, match=r"(?s)unused_local.*Werror"):
        compile_library(sources, cache_dir=tmp_path)


def test_link_error(tmp_path: Path) -> None:
    twice = "int twice(void);\nint twice(void) { return 2; }\n"
    with pytest.raises(BuildError, match=r"(?s)^linking model\.so failed.*twice"):
        compile_library({"a.c": twice, "b.c": twice}, cache_dir=tmp_path)


@pytest.mark.parametrize(
    ("name", "sources", "match"),
    [
        ("../evil", TRIVIAL, "library name"),
        ("m", {"../x.c": "int x;"}, "source name"),
        ("m", {"x.txt": ""}, "source name"),
        ("m", {"x.h": ""}, "no .c translation unit"),
    ],
)
def test_bad_names_are_refused(
    name: str, sources: dict[str, str], match: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match=match):
        compile_library(sources, name=name, cache_dir=tmp_path)


def test_header_matches_the_python_side_and_is_strictly_clean(tmp_path: Path) -> None:
    text = runtime.HEADER.read_text()
    assert f"#define XRELAY_ABI_VERSION {runtime.ABI_VERSION}\n" in text
    strict = ["-Wpedantic", "-Wconversion", "-Wsign-conversion", "-Wstrict-prototypes",
              "-Wmissing-prototypes", "-Wshadow"]  # fmt: skip
    source = '#include "xrelay_runtime.h"\nint32_t size_of_f64(void);\n'
    source += "int32_t size_of_f64(void) { return (int32_t)xrelay_dtype_size(XRELAY_FLOAT64); }\n"
    compile_library({"h.c": source}, extra_cflags=strict, cache_dir=tmp_path)


# --- a C program runs models without Python, under ASan and UBSan ---------------------------


@pytest.fixture(scope="module")
def sanitized_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("sanitized-cache")


@pytest.fixture
def sanitized(sanitized_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache of sanitizer builds, with the sanitizers in $CFLAGS as a user would set them."""
    monkeypatch.setenv("CFLAGS", SANITIZE)
    return sanitized_cache


def run_main(library: Path, work: Path) -> subprocess.CompletedProcess[str]:
    """Compile tests/c/main.c against `library` with the sanitizers, run it."""
    exe = work / "main"
    command = [*find_compiler().command, *BASE_CFLAGS, *shlex.split(SANITIZE)]
    command += ["-I", str(runtime.INCLUDE_DIR), str(C_DIR / "main.c"), str(library), "-o", str(exe)]
    subprocess.run(command, check=True, capture_output=True)
    env = {
        **os.environ,
        "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    }
    return subprocess.run([str(exe)], capture_output=True, text=True, env=env, check=False)


def parse_outputs(stdout: str) -> dict[str, np.ndarray]:
    outputs: dict[str, np.ndarray] = {}
    for line in stdout.splitlines():
        match = re.fullmatch(r"output (\w+) (\d+) \[([\d ]*)\]((?: \S+)*)", line)
        if match:
            shape = tuple(int(d) for d in match.group(3).split())
            outputs[match.group(1)] = np.array([float(v) for v in match.group(4).split()]).reshape(
                shape
            )
    return outputs


def test_c_main_runs_relu_add_clean_under_sanitizers(sanitized: Path, tmp_path: Path) -> None:
    library = compile_library(fixture_sources(*RELU_ADD), name="relu_add", cache_dir=sanitized)
    result = run_main(library, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines()[0] == "inputs 1 outputs 1"
    (x,) = main_inputs(("float32", (2, 3, 4)))
    np.testing.assert_array_equal(parse_outputs(result.stdout)["y"], np.maximum(x + W, 0))


def test_c_main_runs_two_outputs_clean_under_sanitizers(sanitized: Path, tmp_path: Path) -> None:
    library = compile_library(fixture_sources("two_outputs.c"), name="two", cache_dir=sanitized)
    result = run_main(library, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    a, scale = main_inputs(("float32", (2, 3)), ("int32", ()))
    t = a * np.float32(scale)
    outputs = parse_outputs(result.stdout)
    np.testing.assert_array_equal(outputs["scaled"], t + 1)
    np.testing.assert_array_equal(outputs["row_max"], t.max(axis=1))


def test_sanitizers_catch_an_overflow_in_the_library(sanitized: Path, tmp_path: Path) -> None:
    """The negative control: $CFLAGS reached the library's compile, and findings fail the run."""
    library = compile_library(
        fixture_sources(*RELU_ADD), extra_cflags=["-DXRELAY_TEST_OVERFLOW"], cache_dir=sanitized
    )
    result = run_main(library, tmp_path)
    assert result.returncode != 0
    assert "heap-buffer-overflow" in result.stderr
    assert "relu_add_kernel" in result.stderr
