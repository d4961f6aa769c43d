"""The whole-build cache of `xrelay.build` (`codegen/build_cache.py`): a hit runs no pass, no
C emission and no compile, and gives back the cold build's library, sources and module;
anything that decides the result changes the key; entries are verified, evicted and shared
by concurrent processes like the compiled libraries."""

from __future__ import annotations

import platform
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.codegen import build_cache, object_cache
from xrelay.codegen import cache as cache_entries
from xrelay.codegen.c import pipeline
from xrelay.codegen.cache import CacheWarning
from xrelay.passes.byoc_registry import temp_op_attr
from xrelay.passes.instrument import PassInstrument
from xrelay.passes.pass_context import PassContext
from xrelay.tools.cache_main import CacheMain

import xrelay
from xrelay import IRModule, relay

WEIGHT = np.random.default_rng(0).standard_normal((4, 2, 3, 3)).astype("float32")
DATA = np.random.default_rng(1).standard_normal((1, 2, 6, 6)).astype("float32")


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS", "XRELAY_CACHE_DIR", "XRELAY_CACHE_MAX_MB"):
        monkeypatch.delenv(name, raising=False)


def model(scale: float = 2.0, padding: int = 1) -> IRModule:
    """relu(conv2d(x, w) * scale) with the weight `w` a parameter to bind."""
    x = relay.var("x", shape=(1, 2, 6, 6))
    w = relay.var("w", shape=(4, 2, 3, 3))
    conv = relay.nn.conv2d(x, w, padding=(padding, padding))
    body = relay.nn.relu(relay.multiply(conv, relay.const(np.float32(scale))))
    return IRModule.from_expr(relay.Function([x, w], body))


def build(
    cache: Path,
    mod: IRModule | None = None,
    target: str | list[str] = "c",
    params: dict[str, Any] | None = None,
    **options: Any,
) -> pipeline.BuiltLibrary:
    return xrelay.build(
        model() if mod is None else mod,
        target,
        params={"w": WEIGHT} if params is None else params,
        options={"cache_dir": cache, **options},
    )


def cache_files(cache: Path) -> list[str]:
    """The names in the cache but its size ledger."""
    return sorted(p.name for p in cache.iterdir() if p.name != cache_entries.LEDGER)


def entry_of(cache: Path) -> Path:
    (entry,) = cache.glob("model-*.build")
    return entry


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The steps of `build` that ran: `lower` (the passes), `emit` and `compile`."""
    seen: list[str] = []
    lower, compile_library, emitter = pipeline.lower, pipeline.compile_library, pipeline.CEmitter

    def counted_lower(*args: Any, **kwargs: Any) -> Any:
        seen.append("lower")
        return lower(*args, **kwargs)

    def counted_compile(*args: Any, **kwargs: Any) -> Any:
        seen.append("compile")
        return compile_library(*args, **kwargs)

    class CountedEmitter(emitter):
        def emit(self) -> Any:
            seen.append("emit")
            return super().emit()

    monkeypatch.setattr(pipeline, "lower", counted_lower)
    monkeypatch.setattr(pipeline, "compile_library", counted_compile)
    monkeypatch.setattr(pipeline, "CEmitter", CountedEmitter)
    return seen


class Counter(PassInstrument):
    """Counts the passes run."""

    def __init__(self) -> None:
        self.passes: list[str] = []

    def run_before_pass(self, mod: IRModule, info: Any) -> None:
        self.passes.append(str(info.name))


# --- hits ------------------------------------------------------------------------------------


def test_a_hit_runs_no_pass_emission_or_compile(tmp_path: Path, calls: list[str]) -> None:
    cold = build(tmp_path)
    assert calls == ["lower", "emit", "compile"]
    assert not cold.cache_hit
    assert set(cold.timings) == {"passes", "emit", "compile", "cache_key"}
    calls.clear()
    hot = build(tmp_path)
    assert calls == []
    assert hot.cache_hit
    assert hot.timings["passes"] == hot.timings["emit"] == hot.timings["compile"] == 0.0
    assert 0.0 < hot.timings["cache_hit"] < 0.5
    assert hot.path == cold.path
    want = cold(DATA)
    np.testing.assert_array_equal(hot(DATA), want)
    np.testing.assert_allclose(want, xrelay.evaluate(model(), DATA, WEIGHT), rtol=1e-5, atol=1e-5)


def test_a_build_with_an_instrument_runs_the_passes(tmp_path: Path, calls: list[str]) -> None:
    build(tmp_path)
    counter = Counter()
    with PassContext(instruments=[counter]):
        seen = build(tmp_path)
    assert not seen.cache_hit
    assert "lower" in calls[1:]
    assert len(counter.passes) > 3
    assert "FuseOps" in counter.passes


@pytest.mark.parametrize("target", ["c", ["accel", "c"], ["dnnl", "c"]])
def test_a_hit_has_the_cold_builds_module_and_sources(
    tmp_path: Path, target: str | list[str]
) -> None:
    cold = build(tmp_path, target=target)
    hot = build(tmp_path, target=target)
    assert hot.cache_hit
    assert hot.targets == cold.targets == (*([target[0]] if isinstance(target, list) else []), "c")
    assert hot.sources == cold.sources
    assert str(hot.module) == str(cold.module)
    assert hot.module is hot.module  # read once
    np.testing.assert_array_equal(hot(DATA), cold(DATA))


# --- misses ----------------------------------------------------------------------------------


def test_each_change_of_what_decides_the_result_misses(tmp_path: Path) -> None:
    build(tmp_path)
    other_weight = WEIGHT.copy()
    other_weight.reshape(-1)[5] += 1.0
    variants: list[tuple[str, Any]] = [
        ("a constant", lambda: build(tmp_path, model(scale=3.0))),
        ("an attribute", lambda: build(tmp_path, model(padding=0))),
        ("a param's bytes", lambda: build(tmp_path, params={"w": other_weight})),
        ("the target", lambda: build(tmp_path, target=["accel", "c"])),
        ("opt_level", lambda: build(tmp_path, opt_level=1)),
        ("optimize", lambda: build(tmp_path, optimize=False)),
        ("cflags", lambda: build(tmp_path, cflags=["-O1"])),
        ("num_threads", lambda: build(tmp_path, num_threads=1)),
        ("profile", lambda: build(tmp_path, profile=True)),
    ]
    for context in (
        PassContext(disabled_pass=["FoldConstant"]),
        PassContext(required_pass=["SimplifyExpr"]),
        PassContext(opt_level=3),
        PassContext(config={"relay.FuseOps.max_depth": 2}),
    ):
        variants.append((f"PassContext {vars(context)}", lambda c=context: _within(c, tmp_path)))
    for what, make in variants:
        first = make()
        assert not first.cache_hit, what
        assert make().cache_hit, what  # and each is then cached under its own key
    assert build(tmp_path).cache_hit


def test_the_march_the_build_uses_decides_the_key(tmp_path: Path) -> None:
    build(tmp_path)
    march = "x86-64" if platform.machine() in ("x86_64", "AMD64") else "armv8-a"
    portable = build(tmp_path, march=march)
    assert not portable.cache_hit
    # The host target's -mcpu is the same march: served from the same entry.
    same = build(tmp_path, target=f"c -mcpu={march}")
    assert same.cache_hit
    assert same.path == portable.path
    assert build(tmp_path).cache_hit


def _within(context: PassContext, cache: Path) -> pipeline.BuiltLibrary:
    with context:
        return build(cache)


def test_an_edited_xrelay_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(tmp_path)
    assert build(tmp_path).cache_hit
    monkeypatch.setattr(build_cache, "source_stamp", lambda: "another xrelay")
    assert not build(tmp_path).cache_hit


def test_a_users_predicate_is_not_cached(tmp_path: Path) -> None:
    def takes_relu(expr: Any) -> bool:
        return True

    with temp_op_attr("nn.relu", "target.accel", takes_relu):
        assert not build(tmp_path, target=["accel", "c"]).cache_hit
        assert not build(tmp_path, target=["accel", "c"]).cache_hit
    assert not build(tmp_path, target=["accel", "c"]).cache_hit  # the built-in registry
    assert build(tmp_path, target=["accel", "c"]).cache_hit


# --- integrity -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda e: e.write_text(e.read_text()[:40]), "does not match its checksum"),
        (lambda e: cache_entries.checksum_path(e).unlink(), "has no checksum file"),
        (lambda e: Path(f"{e}.mlir").write_text("garbage"), "payload model-"),
        (lambda e: Path(f"{e}.sources").unlink(), "cannot be read"),
    ],
)
def test_a_corrupt_entry_is_rebuilt_with_a_warning(
    tmp_path: Path, calls: list[str], damage: Any, message: str
) -> None:
    cold = build(tmp_path)
    damage(entry_of(tmp_path))
    calls.clear()
    with pytest.warns(CacheWarning, match=message):
        again = build(tmp_path)
    assert not again.cache_hit
    assert calls == ["lower", "emit", "compile"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hot = build(tmp_path)
    assert hot.cache_hit
    assert hot.sources == cold.sources
    assert str(hot.module) == str(cold.module)


def test_an_entry_whose_library_was_evicted_is_built_again_quietly(tmp_path: Path) -> None:
    cold = build(tmp_path)
    cache_entries.remove_entry(cold.path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = build(tmp_path)
    assert not again.cache_hit
    assert build(tmp_path).cache_hit


def test_eviction_and_listing_count_the_entries_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cold = build(tmp_path)
    entry = entry_of(tmp_path)
    files = [entry, cache_entries.checksum_path(entry), *cache_entries.payload_paths(entry)]
    found = {e.library: e for e in cache_entries.entries(tmp_path)}
    assert set(found) == {cold.path, entry}
    assert found[entry].size == sum(f.stat().st_size for f in files)
    assert CacheMain.main(["list", "--cache-dir", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert f"{entry.name}  " in listed
    assert "2 entries" in listed
    assert " 0 corrupt" in listed
    with cache_entries.lock(tmp_path):
        cache_entries.evict(tmp_path, 0, keep=cold.path)
    assert cache_files(tmp_path) == sorted(
        [cold.path.name, cache_entries.checksum_path(cold.path).name]
    )
    assert not build(tmp_path).cache_hit


def test_prune_removes_a_whole_build_whose_library_is_gone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cold = build(tmp_path)
    cache_entries.remove_entry(cold.path)
    assert CacheMain.main(["prune", "--cache-dir", str(tmp_path)]) == 0
    assert "removed 1 corrupt entries" in capsys.readouterr().out
    assert cache_files(tmp_path) == []


def test_processes_building_one_model_at_once_all_succeed(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "import numpy as np\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "import test_whole_build_cache as t\n"
        "lib = t.build(__import__('pathlib').Path(sys.argv[1]))\n"
        "np.save(sys.stdout.buffer, lib(t.DATA))\n"
    )
    here = str(Path(__file__).parent)
    children = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path), here],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    outputs = [child.communicate(timeout=300) for child in children]
    assert [child.returncode for child in children] == [0, 0, 0], [e for _, e in outputs]
    want = xrelay.evaluate(model(), DATA, WEIGHT)
    for out, _ in outputs:
        got = np.load(__import__("io").BytesIO(out))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    hot = build(tmp_path)
    assert hot.cache_hit
    entry = entry_of(tmp_path)
    assert cache_entries.verify_build_entry(entry) is None
    names = cache_files(tmp_path)
    library = [hot.path.name, cache_entries.checksum_path(hot.path).name]
    whole = [entry.name, f"{entry.name}.mlir", f"{entry.name}.sha256", f"{entry.name}.sources"]
    # The objects of the ISA units, which every build shares (`object_cache.py`), each once.
    objects = sorted(tmp_path.glob(f"{object_cache.ENTRY_PREFIX}*.o"))
    assert len(objects) == 2
    assert all(cache_entries.verify(path) is None for path in objects)
    shared = [name for path in objects for name in (path.name, f"{path.name}.sha256")]
    assert names == sorted([*library, *whole, *shared])
