"""The build cache's upkeep: verified hits, no leftovers from failed or interrupted builds,
a size bound with least-recently-used eviction, and `xrelay-cache list|prune|clear`.

Libraries are made with `compile_library` from small C files (a function
returning a number tells which library was loaded) and, where the numbers of a
model matter, with `xrelay.build`. Interrupted builds run in a child process
whose `$CC` is a script that sleeps instead of compiling, so the signal lands
while a compiler runs.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from xrelay.codegen import cache as cache_entries
from xrelay.codegen.build import BuildError, compile_library, find_compiler
from xrelay.codegen.cache import LEDGER, CacheWarning, checksum_path, verify
from xrelay.tools.cache_main import CacheMain

import xrelay


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "CC",
        "CFLAGS",
        "LDFLAGS",
        "XRELAY_CACHE_DIR",
        "XRELAY_CACHE_MAX_MB",
        "XRELAY_KEEP_FAILED",
    ):
        monkeypatch.delenv(name, raising=False)


def returning(value: int) -> dict[str, str]:
    """A library whose `value()` returns `value`."""
    exported = '__attribute__((visibility("default"))) int value(void)'
    return {"v.c": f"{exported};\n{exported} {{ return {value}; }}\n"}


def value_of(library: Path) -> int:
    return ctypes.CDLL(str(library)).value()


def cache_files(cache: Path) -> list[str]:
    """The names in the cache but its size ledger (`LEDGER`)."""
    return sorted(p.name for p in cache.iterdir() if p.name != LEDGER)


def leftovers(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir() if p.name.startswith((".build-", ".kept-")))


def dead_pid() -> int:
    """The id of a process that has exited (and was reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


# --- verified hits ---------------------------------------------------------------------------


def test_a_checksum_is_written_beside_each_library(tmp_path: Path) -> None:
    library = compile_library(returning(1), cache_dir=tmp_path)
    digest, name = checksum_path(library).read_text().split()
    assert name == library.name
    # sha256sum's format: the cache can be checked with `sha256sum -c`.
    check = subprocess.run(
        ["sha256sum", "-c", checksum_path(library).name], cwd=tmp_path, capture_output=True
    )
    assert check.returncode == 0, check.stdout
    assert len(digest) == 64


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("truncate", "does not match its checksum"),
        ("garbage", "does not match its checksum"),
        ("no checksum", "has no checksum file"),
        ("bad checksum", "has a malformed checksum file"),
    ],
)
def test_a_corrupt_entry_is_rebuilt_with_a_warning(
    tmp_path: Path, damage: str, reason: str
) -> None:
    library = compile_library(returning(7), cache_dir=tmp_path)
    data = library.read_bytes()
    if damage == "truncate":
        library.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        library.write_bytes(bytes(len(data)))
    elif damage == "no checksum":
        checksum_path(library).unlink()
    else:
        checksum_path(library).write_text("not a checksum\n")
    with pytest.warns(CacheWarning, match=f"cache entry {re.escape(str(library))} {reason}"):
        again = compile_library(returning(7), cache_dir=tmp_path)
    assert again == library
    assert library.read_bytes() == data  # the compiler is deterministic here
    assert value_of(again) == 7
    assert leftovers(tmp_path) == []


MODEL = """\
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %0 = relay.{op} %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}}
"""


def test_a_foreign_entry_is_detected_and_rebuilt(tmp_path: Path) -> None:
    # Both are built in a child process: a library loaded here could not be loaded afresh
    # from the same path (the dynamic loader would hand back the loaded one).
    build_both = (
        "import sys, xrelay\n"
        "for op in ('negative', 'exp'):\n"
        f"    text = {MODEL!r}.format(op=op)\n"
        f"    print(xrelay.build(xrelay.parse(text), options={{'cache_dir': {str(tmp_path)!r}}}).path)\n"
    )
    child = subprocess.run([sys.executable, "-c", build_both], capture_output=True, text=True)
    assert child.returncode == 0, child.stderr
    negative, exp = map(Path, child.stdout.split())
    shutil.copyfile(exp, negative)  # another model's library in its place
    with pytest.warns(CacheWarning, match="another library was put in its place"):
        rebuilt = xrelay.build(
            xrelay.parse(MODEL.format(op="negative")), options={"cache_dir": tmp_path}
        )
    assert rebuilt.path == negative
    x = np.array([-2.0, -0.5, 0.5, 2.0], "float32")
    np.testing.assert_array_equal(rebuilt(x), -x)


def test_a_verified_hit_records_its_use(tmp_path: Path) -> None:
    library = compile_library(returning(1), cache_dir=tmp_path)
    os.utime(checksum_path(library), (1000, 1000))
    before = library.stat().st_mtime_ns
    assert compile_library(returning(1), cache_dir=tmp_path) == library
    assert checksum_path(library).stat().st_mtime > time.time() - 60
    assert library.stat().st_mtime_ns == before  # the library itself is not touched


# --- failed builds ---------------------------------------------------------------------------

BAD = {"bad.c": "int bad(void);\nint bad(void) { return undeclared_thing; }\n"}
TWICE = {
    "a.c": "int twice(void);\nint twice(void) { return 2; }\n",
    "b.c": "int twice(void);\nint twice(void) { return 2; }\n",
}


def test_a_failed_compile_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(BuildError) as info:
        compile_library(BAD, cache_dir=tmp_path)
    message = str(info.value)
    assert message.splitlines()[0] == (
        "compiling bad.c failed with cc (keep_failed=True or XRELAY_KEEP_FAILED=1 keeps the "
        "sources):"
    )
    assert "undeclared_thing" in message
    with pytest.raises(BuildError, match=r"^linking model\.so failed .*keeps the objects"):
        compile_library(TWICE, cache_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_keep_failed_keeps_the_directory_and_names_it(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if how == "environment":
        monkeypatch.setenv("XRELAY_KEEP_FAILED", "1")
        keep: bool | None = None
    else:
        keep = True
    with pytest.raises(BuildError) as info:
        compile_library(BAD, cache_dir=tmp_path, keep_failed=keep)
    kept = re.search(r"\(sources kept in (\S+)\):", str(info.value))
    assert kept, str(info.value)
    directory = Path(kept.group(1))
    assert directory.parent == tmp_path
    assert directory.name.startswith(".kept-model-")
    assert (directory / "bad.c").read_text() == BAD["bad.c"]
    # Later builds leave a kept directory alone.
    compile_library(returning(1), cache_dir=tmp_path)
    assert directory.is_dir()
    with pytest.raises(BuildError, match=r"^linking model\.so failed .*\(objects kept in "):
        compile_library(TWICE, cache_dir=tmp_path, keep_failed=keep)


def test_keep_failed_is_a_build_option(tmp_path: Path) -> None:
    mod = xrelay.parse(MODEL.format(op="negative"))
    failing = {"cache_dir": tmp_path, "cflags": ["-include", "xr_missing_header.h"]}
    with pytest.raises(BuildError, match=r"\(sources kept in (\S+)\)"):
        xrelay.build(mod, options={**failing, "keep_failed": True})
    assert len(leftovers(tmp_path)) == 1
    with pytest.raises(BuildError, match="XRELAY_KEEP_FAILED=1 keeps the sources"):
        xrelay.build(mod, options={**failing, "keep_failed": False})
    assert len(leftovers(tmp_path)) == 1
    with pytest.raises(ValueError, match="option keep_failed must be a bool, got 1"):
        xrelay.build(mod, options={"cache_dir": tmp_path, "keep_failed": 1})


# --- interrupted builds ----------------------------------------------------------------------


def sleeping_cc(tmp_path: Path) -> tuple[Path, Path]:
    """A `$CC` whose compiles write their pid to a marker file and sleep; (script, marker)."""
    real = shlex.join(find_compiler().command)
    marker = tmp_path / "compiling"
    script = tmp_path / "sleeping-cc"
    script.write_text(
        "#!/bin/sh\n"
        'case " $* " in *" -c "*)\n'
        f"  echo $$ > {shlex.quote(str(marker))}.tmp\n"
        f"  mv {shlex.quote(str(marker))}.tmp {shlex.quote(str(marker))}\n"
        "  exec sleep 60 ;;\n"
        "esac\n"
        f'exec {real} "$@"\n'
    )
    script.chmod(0o755)
    return script, marker


def start_build(tmp_path: Path, cache: Path) -> tuple[subprocess.Popen[str], int]:
    """A child process building into `cache` with a sleeping compiler; (child, compiler pid)."""
    script, marker = sleeping_cc(tmp_path)
    code = (
        "from xrelay.codegen.build import compile_library\n"
        f"compile_library({{'v.c': 'int value(void) {{ return 1; }}'}}, cache_dir={str(cache)!r})\n"
    )
    env = {**os.environ, "CC": str(script)}
    child = subprocess.Popen(
        [sys.executable, "-c", code], env=env, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert child.poll() is None, child.communicate()[1]
        assert time.monotonic() < deadline, "the compiler never started"
        time.sleep(0.05)
    assert len(leftovers(cache)) == 1  # the build directory exists while it compiles
    return child, int(marker.read_text())


def process_state(pid: int) -> str:
    """What /proc says of a process that did not end: state, threads, signal masks, children."""
    try:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        wanted = ("State", "Threads", "SigBlk", "SigIgn", "SigCgt")
        lines = [line for line in status if line.startswith(wanted)]
        tasks = Path(f"/proc/{pid}/task")
        children = " ".join((task / "children").read_text().strip() for task in tasks.iterdir())
        wchan = Path(f"/proc/{pid}/wchan").read_text()
        return f"{'; '.join(lines)}; wchan {wchan}; children [{children}]"
    except OSError as error:
        return f"no /proc state ({error})"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (killed, not yet reaped by its parent) counts as gone.
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split(") ")[-1].startswith("Z"))


@pytest.mark.usefixtures("terminal_signals")  # the child takes Ctrl-C, however pytest started
def test_keyboard_interrupt_kills_the_compilers_and_leaves_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    child, compiler = start_build(tmp_path, cache)
    start = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        _, stderr = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail(f"the build ignored SIGINT: {process_state(child.pid)}")
    assert time.monotonic() - start < 20  # the sleeping compiler did not run to its end
    assert child.returncode != 0
    assert "KeyboardInterrupt" in stderr
    assert not alive(compiler)
    assert list(cache.iterdir()) == []


def test_a_build_killed_by_sigterm_is_cleaned_up_by_the_next_build(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    child, compiler = start_build(tmp_path, cache)
    child.send_signal(signal.SIGTERM)
    child.communicate(timeout=30)
    os.kill(compiler, signal.SIGKILL)  # an orphan once its parent died without cleaning up
    (abandoned,) = leftovers(cache)  # nothing could run at SIGTERM
    library = compile_library(returning(3), cache_dir=cache)
    assert leftovers(cache) == [], abandoned
    assert value_of(library) == 3


def test_a_build_in_progress_is_not_taken_for_abandoned(tmp_path: Path) -> None:
    busy = tmp_path / ".build-model-busy"
    busy.mkdir()
    (busy / "owner").write_text(json.dumps({"host": os.uname().nodename, "pid": os.getppid()}))
    young = tmp_path / ".build-model-young"  # no owner file yet
    young.mkdir()
    dead = tmp_path / ".build-model-dead"
    dead.mkdir()
    (dead / "owner").write_text(json.dumps({"host": os.uname().nodename, "pid": dead_pid()}))
    old = tmp_path / ".build-model-old"
    old.mkdir()
    os.utime(old, (1000, 1000))
    compile_library(returning(1), cache_dir=tmp_path)
    assert leftovers(tmp_path) == [".build-model-busy", ".build-model-young"]


def test_processes_building_one_model_at_once_share_one_sound_entry(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from xrelay.codegen.build import compile_library\n"
        f"sources = {returning(9)!r}\n"
        "print(compile_library(sources, cache_dir=sys.argv[1]))\n"
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    paths = {child.communicate(timeout=120)[0].strip() for child in children}
    assert [child.returncode for child in children] == [0, 0, 0]
    (path,) = paths
    library = Path(path)
    assert cache_files(tmp_path) == [library.name, library.name + ".sha256"]
    assert verify(library) is None
    assert value_of(library) == 9


# --- the size bound --------------------------------------------------------------------------


def test_least_recently_used_entries_are_evicted_to_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = compile_library(returning(1), cache_dir=tmp_path)
    b = compile_library(returning(2), cache_dir=tmp_path)
    entry = a.stat().st_size + checksum_path(a).stat().st_size
    os.utime(checksum_path(a), (1000, 1000))
    os.utime(checksum_path(b), (2000, 2000))
    monkeypatch.setenv("XRELAY_CACHE_MAX_MB", str(2.5 * entry / 2**20))
    assert compile_library(returning(1), cache_dir=tmp_path) == a  # a hit: a is now the newest
    c = compile_library(returning(3), cache_dir=tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.so")) == sorted([a.name, c.name])
    assert not checksum_path(b).exists()
    # A bound of 0 keeps only the entry just built.
    monkeypatch.setenv("XRELAY_CACHE_MAX_MB", "0")
    d = compile_library(returning(4), cache_dir=tmp_path)
    assert cache_files(tmp_path) == [d.name, checksum_path(d).name]
    assert value_of(d) == 4


def test_publishes_count_every_entry_only_when_the_ledger_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scans: list[Path] = []
    counted = cache_entries.entries

    def counting(cache: Path) -> list[cache_entries.Entry]:
        scans.append(cache)
        return counted(cache)

    monkeypatch.setattr(cache_entries, "entries", counting)
    libraries = [compile_library(returning(k), cache_dir=tmp_path) for k in range(4)]
    assert len(scans) == 1  # the first publish, which found no ledger
    ledger = json.loads((tmp_path / LEDGER).read_text())
    assert ledger["bytes"] == sum(e.size for e in counted(tmp_path))
    assert ledger["bytes"] == sum(cache_entries.entry_bytes(lib) for lib in libraries)
    # A full count that is RESCAN_SECONDS old is made again, and corrects the ledger (here
    # for a file copied in by something else than xrelay, which the ledger cannot know of).
    foreign = tmp_path / f"model-{'f' * 64}.so"
    shutil.copy(libraries[0], foreign)
    old = {"bytes": ledger["bytes"], "counted": time.time() - cache_entries.RESCAN_SECONDS - 1}
    (tmp_path / LEDGER).write_text(json.dumps(old))
    fifth = compile_library(returning(5), cache_dir=tmp_path)
    assert len(scans) == 2
    assert json.loads((tmp_path / LEDGER).read_text())["bytes"] == sum(
        e.size for e in counted(tmp_path)
    )
    # An unreadable ledger is counted again too.
    (tmp_path / LEDGER).write_text("{")
    compile_library(returning(6), cache_dir=tmp_path)
    assert len(scans) == 3
    # A hit changes nothing.
    assert compile_library(returning(5), cache_dir=tmp_path) == fifth
    assert len(scans) == 3


def test_a_ledger_near_the_bound_evicts_on_the_publish_that_passes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = compile_library(returning(1), cache_dir=tmp_path)
    entry = cache_entries.entry_bytes(a)
    os.utime(checksum_path(a), (1000, 1000))
    monkeypatch.setenv("XRELAY_CACHE_MAX_MB", str(1.5 * entry / 2**20))
    b = compile_library(returning(2), cache_dir=tmp_path)
    assert cache_files(tmp_path) == sorted([b.name, checksum_path(b).name])
    assert json.loads((tmp_path / LEDGER).read_text())["bytes"] == entry


@pytest.mark.parametrize("bad", ["lots", "-1", "nan", "inf"])
def test_a_bad_bound_is_a_build_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    monkeypatch.setenv("XRELAY_CACHE_MAX_MB", bad)
    with pytest.raises(
        BuildError, match=f"XRELAY_CACHE_MAX_MB must be a number of megabytes >= 0, got '{bad}'"
    ):
        compile_library(returning(1), cache_dir=tmp_path)


# --- xrelay-cache ----------------------------------------------------------------------------


def cache_tool(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = CacheMain.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_shows_each_entry_and_its_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = compile_library(returning(1), cache_dir=tmp_path)
    bad = compile_library(returning(2), cache_dir=tmp_path)
    bad.write_bytes(b"\0" * 16)
    (tmp_path / ".kept-model-x").mkdir()
    code, out, err = cache_tool(capsys, "list", "--cache-dir", str(tmp_path))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"cache {tmp_path}"
    rows = {line.split()[0]: line for line in lines[1:-1]}
    assert set(rows) == {good.name, bad.name}
    assert rows[good.name].endswith("  ok")
    assert "corrupt: does not match its checksum" in rows[bad.name]
    assert re.fullmatch(
        r"2 entries, [0-9.]+ KB \(bound 2048\.0 MB\), 1 corrupt; "
        r"0 build directories, 1 kept failed builds",
        lines[-1],
    ), lines[-1]


def test_prune_removes_broken_entries_and_leftovers_then_evicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    libraries = [compile_library(returning(k), cache_dir=tmp_path) for k in range(4)]
    for age, library in enumerate(libraries):
        os.utime(checksum_path(library), (1000 + age, 1000 + age))
    libraries[3].write_bytes(b"broken")
    dead = tmp_path / ".build-model-dead"
    dead.mkdir()
    (dead / "owner").write_text(json.dumps({"host": os.uname().nodename, "pid": dead_pid()}))
    (tmp_path / ".kept-model-x").mkdir()
    (tmp_path / f"model-{'0' * 64}.so.sha256").write_text("orphan")
    entry = libraries[0].stat().st_size + checksum_path(libraries[0]).stat().st_size
    bound = str(1.5 * entry / 2**20)
    code, out, err = cache_tool(capsys, "prune", "--max-mb", bound, "--cache-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert out.startswith("removed 1 corrupt entries, 2 least recently used entries ("), out
    assert "and 2 leftover build directories; 1 entries" in out
    # The newest sound entry stays; everything else is gone.
    assert cache_files(tmp_path) == sorted([libraries[2].name, checksum_path(libraries[2]).name])


def test_clear_removes_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for k in range(2):
        compile_library(returning(k), cache_dir=tmp_path)
    (tmp_path / ".kept-model-x").mkdir()
    code, out, err = cache_tool(capsys, "clear", "--cache-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert re.fullmatch(
        rf"removed 2 entries \([0-9.]+ KB\) and 1 leftover build directories from {tmp_path}\n",
        out,
    ), out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["prune", "--max-mb", "x"], "--max-mb must be a number of megabytes >= 0, got 'x'"),
        ([], "the following arguments are required: {list,prune,clear} (see --help)"),
        (["shrink"], "argument {list,prune,clear}: invalid choice: 'shrink'"),
        (["list", "--cache-dir", "{shared}"], "refusing cache directory {shared}: writable by"),
    ],
)
def test_errors_are_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    args = [a.replace("{shared}", str(shared)) for a in args]
    if "--cache-dir" not in args:
        args = [*args, "--cache-dir", str(tmp_path)]
    code, out, err = cache_tool(capsys, *args)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1, err
    assert err.startswith("xrelay-cache: error: " + message.replace("{shared}", str(shared)))


def test_the_console_script(tmp_path: Path) -> None:
    library = compile_library(returning(5), cache_dir=tmp_path)
    env = {**os.environ, "XRELAY_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "xrelay.tools.cache"]
    listed = subprocess.run([*command, "list"], capture_output=True, text=True, env=env)
    assert (listed.returncode, listed.stderr) == (0, "")
    assert f"{library.name}  " in listed.stdout
    bad = subprocess.run([*command, "prune", "--max-mb", "-3"], capture_output=True, text=True)
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    assert bad.stderr.startswith("xrelay-cache: error: --max-mb must be a number")
    cleared = subprocess.run([*command, "clear"], capture_output=True, text=True, env=env)
    assert (cleared.returncode, cleared.stderr) == (0, "")
    assert list(tmp_path.iterdir()) == []
    script = shutil.which("xrelay-cache", path=str(Path(sys.executable).parent))
    assert script is not None  # installed by pyproject.toml's [project.scripts]


def test_a_build_whose_entry_is_evicted_before_it_loads_builds_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process may evict the entry between the cache's check and the load: the
    # first library path handed back is gone, and the build makes it once more.
    import xrelay.codegen.c.pipeline as pipeline

    calls: list[Path] = []

    def evicted_once(*args: object, **kwargs: object) -> str:
        path = compile_library(*args, **kwargs)
        calls.append(Path(path))
        if len(calls) == 1:
            Path(path).unlink()
            checksum_path(Path(path)).unlink()
        return path

    monkeypatch.setattr(pipeline, "compile_library", evicted_once)
    mod = xrelay.parse(
        "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %0 = relay.exp %x : tensor<3xf32>\n  func.return %0 : tensor<3xf32>\n}\n"
    )
    lib = xrelay.build(mod, options={"cache_dir": tmp_path / "cache"})
    assert len(calls) == 2
    x = np.array([0.0, 1.0, -1.0], "float32")
    np.testing.assert_allclose(lib(x), np.exp(x), rtol=1e-6)
