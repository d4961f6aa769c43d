"""End to end through `xrelay.build`: generated graphs, tinyres, and a sanitizer run without Python.

Both targets: `"c"` (host only) and `["accel", "c"]` (partitioned for accel,
lowered to accel kernels, the rest on the host).

- The 200 graphs of `testlib.graphs.random_graph(seed, 30)` (helpers called
  from `main`, tuples, splits, every op family of the generator; for `"c"`
  also the generator's own `Compiler = "accel"` functions, which are host code
  there) through `xrelay.build`: outputs equal to the reference interpreter
  (rtol 1e-4, atol 1e-5) on seeded random inputs. Seeds go in chunks, one test
  per chunk and target, each listing every failure. With accel, enough graphs
  must really run accel kernels. These builds add `-O1` (`SWEEP_CFLAGS`): they
  check what the lowering emits, and at the targets' `-O3` the C compiler took
  over half of CI's time for this file; tinyres and the sanitizer run below, and
  the CI graph fuzzer (`scripts/fuzz`), build with the targets' own flags.
- tinyres (`examples/tinyres.py` at 1x3x32x32) built and run for both targets:
  equal to the interpreter and to an independent numpy forward pass written here.
- Sanitizers: with `$CFLAGS=-fsanitize=address,undefined`, libraries of
  tinyres (both targets) and of every fourth generated graph (every eighth
  with accel) are linked to the C program
  `tests/c/main.c`, which runs them without Python (two instances); the run
  must be clean, and its printed outputs equal the interpreter's on the
  inputs main.c makes. No sanitized code is loaded into this process.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.graphs import random_graph
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xrelay.codegen import runtime
from xrelay.codegen.build import BASE_CFLAGS, compile_library, find_compiler
from xrelay.codegen.c import CEmitter
from xrelay.codegen.c.pipeline import lower
from xrelay.dialects.accel_winograd import Conv2DWinogradOp
from xrelay.dialects.interpreter import random_inputs

import xrelay
from xrelay import IRModule

SEEDS = 96
"""Generated graphs per target (12 per chunk): the CI fuzzer (`scripts/fuzz`) builds
hundreds more each run on every target; these are the fixed, reproducible set."""
CHUNKS = 8
SWEEP_CFLAGS = ["-O1"]
"""Added last to the generated graphs' builds (module docstring)."""
RTOL, ATOL = 1e-4, 1e-5
ROOT = Path(__file__).resolve().parent.parent
SANITIZE = "-fsanitize=address,undefined -fno-omit-frame-pointer"

sys.path.insert(0, str(ROOT / "examples"))
from tinyres import tinyres  # noqa: E402

Array = np.ndarray[Any, Any]

TARGETS: dict[str, list[str]] = {"c": ["c"], "accel": ["accel", "c"], "dnnl": ["dnnl", "c"]}
"""The targets under test, by a short id."""


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)


def flat(value: Any) -> list[Array]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in flat(item)]
    return [np.asarray(value)]


def main_of(mod: IRModule) -> func.FuncOp:
    return next(
        f for f in mod.module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == "main"
    )


def generated(seed: int, target: str) -> IRModule:
    """Graph `seed`; for a BYOC target without the generator's own `Compiler` functions
    (they hold ops no target takes: partition_for decides what accel gets)."""
    mod = random_graph(seed, 30)
    if target != "c":
        for op in mod.module.ops:
            if isinstance(op, func.FuncOp):
                op.attributes.pop("Compiler", None)
    return mod


def is_partition(op: Any) -> bool:
    return isinstance(op, func.FuncOp) and op.attributes.get("Compiler") == StringAttr("accel")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_generated_graphs_match_the_interpreter(chunk: int, target: str, cache: Path) -> None:
    failures: list[str] = []
    offloaded = 0
    for seed in range(chunk, SEEDS, CHUNKS):
        mod = generated(seed, target)
        inputs = random_inputs(main_of(mod), seed)
        text = str(mod)
        options = {"cache_dir": cache, "cflags": SWEEP_CFLAGS}
        lib = xrelay.build(mod, target=TARGETS[target], options=options)
        assert str(mod) == text, f"seed {seed}: build changed the caller's module"
        if target == "accel":
            partitions = [op for op in lib.module.module.ops if is_partition(op)]
            offloaded += bool(partitions)
            if partitions and "accel.c" not in lib.sources.files:
                failures.append(f"seed {seed}: accel partitions but no accel.c")
        got, want = flat(lib(*inputs)), flat(xrelay.evaluate(mod, *inputs))
        if len(got) != len(want):
            failures.append(f"seed {seed}: {len(got)} outputs, want {len(want)}")
            continue
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            if g.shape != w.shape or g.dtype != w.dtype:
                failures.append(
                    f"seed {seed} output {index}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
                )
            elif not np.allclose(g, w, rtol=RTOL, atol=ATOL):
                failures.append(f"seed {seed} output {index}: max diff {np.max(np.abs(g - w))}")
    assert not failures, "\n".join(failures)
    if target == "accel":  # most graphs have convolutions, dense or pools accel takes
        assert offloaded >= SEEDS // CHUNKS // 2, f"only {offloaded} graphs offloaded to accel"


# --- tinyres ----------------------------------------------------------------------------------


def _conv3x3(x: Array, w: Array, b: Array) -> Array:
    """3x3 convolution with padding 1 (NCHW/OIHW) as a sum of shifted slices, plus bias."""
    _, _, h, wd = x.shape
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((x.shape[0], w.shape[0], h, wd))
    for ky in range(3):
        for kx in range(3):
            window = padded[:, :, ky : ky + h, kx : kx + wd]
            out += np.einsum("nchw,oc->nohw", window, w[:, :, ky, kx].astype(np.float64))
    return out + b[None, :, None, None]


def _max_pool2(x: Array) -> Array:
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def tinyres_numpy(x: Array) -> Array:
    """The tinyres forward pass, weights drawn in the builder's order from default_rng(0)."""
    rng = np.random.default_rng(0)

    def conv_params(cin: int, cout: int) -> tuple[Array, Array]:
        w = (rng.standard_normal((cout, cin, 3, 3)) * 0.1).astype("float32")
        return w, (rng.standard_normal(cout) * 0.1).astype("float32")

    def relu(v: Array) -> Array:
        return np.maximum(v, 0)

    w0, b0 = conv_params(3, 16)
    gamma = rng.random(16).astype("float32") + 0.5
    beta = rng.standard_normal(16).astype("float32") * 0.1
    mean = rng.standard_normal(16).astype("float32") * 0.1
    var = rng.random(16).astype("float32") + 0.5
    y = _conv3x3(x, w0, b0)
    scale = (gamma / np.sqrt(var.astype(np.float64) + 1e-5))[None, :, None, None]
    y = relu((y - mean[None, :, None, None]) * scale + beta[None, :, None, None])
    w1, b1 = conv_params(16, 16)
    w2, b2 = conv_params(16, 16)
    block = _conv3x3(relu(_conv3x3(y, w1, b1)), w2, b2)
    y = _max_pool2(relu(block + y))
    w3, b3 = conv_params(16, 32)
    y = _max_pool2(relu(_conv3x3(y, w3, b3))).reshape(x.shape[0], -1)
    wd = (rng.standard_normal((10, y.shape[1])) * 0.05).astype("float32")
    bd = (rng.standard_normal(10) * 0.1).astype("float32")
    logits = y @ wd.T.astype(np.float64) + bd
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("target", TARGETS)
def test_tinyres_matches_the_interpreter_and_numpy(target: str, cache: Path) -> None:
    mod = tinyres(32)
    lib = xrelay.build(mod, target=TARGETS[target], options={"cache_dir": cache})
    if target == "accel":  # every conv (batch norm folded in), pool and the dense run on accel
        ops = list(lib.module.module.walk())
        names = [op.name for op in ops]
        # 3x3 16->16 convs at width 32 take Winograd (accel-winograd), conv0 (3 channels) and
        # conv3 (16 columns: half a vector of tiles) stay direct; the first pool folds into
        # the residual conv (accel-fuse-pool).
        assert names.count("accel.conv2d") == 2, names
        assert names.count("accel.conv2d_winograd") == 2, names
        pooled = [
            op for op in ops if isinstance(op, Conv2DWinogradOp) and op.has_max_pool.value.data
        ]
        assert names.count("accel.max_pool2d") + len(pooled) == 2, names
        assert names.count("accel.dense") == 1, names
    x = np.random.default_rng(7).standard_normal((1, 3, 32, 32)).astype("float32")
    got = lib(x)
    assert isinstance(got, np.ndarray)
    assert got.shape == (1, 10)
    np.testing.assert_allclose(got, xrelay.evaluate(mod, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, tinyres_numpy(x), rtol=1e-4, atol=1e-6)
    # The weights are data, not text: the 3x3 kernels and the dense matrix are in the .bin.
    blob = lib.sources.files["constants.bin"]
    assert isinstance(blob, bytes)
    assert len(blob) > 4 * 10 * 2048
    assert all(len(text) < 200_000 for text in lib.sources.files.values() if isinstance(text, str))


# --- sanitizers, from C -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def main_object(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/c/main.c compiled once, with the sanitizers."""
    obj = tmp_path_factory.mktemp("main") / "main.o"
    command = [*find_compiler().command, *BASE_CFLAGS, *shlex.split(SANITIZE)]
    command += ["-I", str(runtime.INCLUDE_DIR), "-c", str(ROOT / "tests" / "c" / "main.c")]
    subprocess.run([*command, "-o", str(obj)], check=True, capture_output=True)
    return obj


def main_inputs(mod: IRModule) -> list[Array]:
    """The inputs tests/c/main.c makes: element i is ((i % 7) - 3) * 0.75 (floats)."""
    arrays: list[Array] = []
    for arg in main_of(mod).body.block.args:
        shape = tuple(arg.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
        k = (np.arange(int(np.prod(shape))) % 7) - 3
        arrays.append((k * 0.75).astype("float32").reshape(shape))
    return arrays


def parse_outputs(stdout: str) -> list[Array]:
    outputs: list[Array] = []
    for line in stdout.splitlines():
        match = re.fullmatch(r"output (\w+) (\d+) \[([\d ]*)\]((?: \S+)*)", line)
        if match:
            shape = tuple(int(d) for d in match.group(3).split())
            values = [float(v) for v in match.group(4).split()]
            outputs.append(np.array(values).reshape(shape))
    return outputs


def run_sanitized(mod: IRModule, target: str, cache: Path, main_object: Path, work: Path) -> str:
    """Build `mod` for `target` with the sanitizers, run it from C; the problems found, "" if none."""
    byoc = TARGETS[target][:-1]
    sources = CEmitter(lower(mod, targets=byoc).module, targets=byoc).emit()
    library = compile_library(sources.files, cache_dir=cache)
    exe = work / "main"
    link = [*find_compiler().command, *shlex.split(SANITIZE), str(main_object), str(library)]
    subprocess.run([*link, "-o", str(exe)], check=True, capture_output=True)
    env = {
        **os.environ,
        "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    }
    result = subprocess.run([str(exe)], capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0 or result.stderr:
        return f"exit {result.returncode}: {result.stderr[:3000]}"
    got = parse_outputs(result.stdout)
    want = flat(xrelay.evaluate(mod, *main_inputs(mod)))
    if len(got) != len(want):
        return f"{len(got)} outputs printed, want {len(want)}"
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        if not np.allclose(g, w.astype(np.float64), rtol=RTOL, atol=ATOL):
            return f"output {index} differs: max diff {np.max(np.abs(g - w))}"
    return ""


def test_sanitizers_find_nothing_running_from_c(
    main_object: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CFLAGS", SANITIZE)
    cache = tmp_path / "cache"
    models = [("tinyres", "c", tinyres(32)), ("tinyres", "accel", tinyres(32))]
    models += [(f"seed {seed}", "c", random_graph(seed, 30)) for seed in range(0, SEEDS, 4)]
    models += [(f"seed {seed}", "accel", generated(seed, "accel")) for seed in range(1, SEEDS, 8)]
    problems = [
        f"{name} ({target}): {p}"
        for name, target, mod in models
        if (p := run_sanitized(mod, target, cache, main_object, tmp_path))
    ]
    assert not problems, "\n".join(problems)
