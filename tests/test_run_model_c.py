"""examples/c/run_model.c, run the way examples/c/README.md says: a library exported with
`xrelay-run --target c --export model.so`, the program compiled against it with the system
compiler (`-Wall -Wextra -Werror`, and AddressSanitizer/UBSan on the program itself), run in
the library's directory; its printed numbers equal the reference interpreter's on the inputs
it makes (element i = ((i % 7) - 3) * 0.25), and the sanitizers report nothing.
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
from xdsl.dialects import func
from xrelay.codegen import runtime
from xrelay.codegen.build import find_compiler

import xrelay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "c" / "run_model.c"
SANITIZE = "-fsanitize=address,undefined -fno-omit-frame-pointer"

Array = np.ndarray[Any, Any]

# Three output arrays (a tensor and a tuple of two), one of them with fewer than 8 elements.
TWO_RESULTS = """\
func.func @main(%x: tensor<2x6xf32>, %w: tensor<6xf32>) -> (tensor<2x6xf32>, tuple<tensor<2x3xf32>, tensor<2x3xf32>>) {
  %0 = relay.add %x, %w : (tensor<2x6xf32>, tensor<6xf32>) -> tensor<2x6xf32>
  %1 = relay.tanh %0 : tensor<2x6xf32>
  %2 = relay.split %x {indices_or_sections = 2, axis = 1} : (tensor<2x6xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  func.return %1, %2 : tensor<2x6xf32>, tuple<tensor<2x3xf32>, tensor<2x3xf32>>
}
"""


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(tmp_path_factory.mktemp("run-model-cache")))


def example_inputs(function: func.FuncOp) -> list[Array]:
    """The inputs run_model.c makes: element i is ((i % 7) - 3) * 0.25."""
    arrays: list[Array] = []
    for arg in function.body.block.args:
        shape = tuple(arg.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
        k = (np.arange(int(np.prod(shape))) % 7) - 3
        arrays.append((k * 0.25).astype("float32").reshape(shape))
    return arrays


def flat(value: Any) -> list[Array]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in flat(item)]
    return [np.asarray(value)]


@pytest.mark.parametrize("model", ["tinyres", "two_results"])
def test_run_model_prints_the_interpreters_numbers(model: str, tmp_path: Path) -> None:
    if model == "tinyres":
        source = ROOT / "examples" / "tinyres.mlir"
    else:
        source = tmp_path / "two_results.mlir"
        source.write_text(TWO_RESULTS)
    export = [sys.executable, "-m", "xrelay.tools.run", str(source), "--target", "c"]
    exported = subprocess.run(
        [*export, "--export", "model.so"], cwd=tmp_path, capture_output=True, text=True
    )
    assert (exported.returncode, exported.stderr) == (0, ""), exported.stderr
    compile_ = [*find_compiler().command, "-std=c11", "-Wall", "-Wextra", "-Werror"]
    compile_ += [*shlex.split(SANITIZE), "-I", str(runtime.INCLUDE_DIR), str(EXAMPLE)]
    built = subprocess.run(
        [*compile_, "./model.so", "-o", "run_model"], cwd=tmp_path, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1", "UBSAN_OPTIONS": "halt_on_error=1"}
    result = subprocess.run(["./run_model"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr

    mod = xrelay.parse(source.read_text())
    main = next(op for op in mod.module.ops if isinstance(op, func.FuncOp))
    want = flat(xrelay.evaluate(mod, *example_inputs(main)))
    lines = result.stdout.splitlines()
    assert len(lines) == len(want), result.stdout
    for index, (line, expected) in enumerate(zip(lines, want, strict=True)):
        match = re.fullmatch(r"(\w+) \[([\d ]*)\]:((?: \S+)*)", line)
        assert match, line
        assert match.group(1) == f"output{index}"
        assert tuple(int(d) for d in match.group(2).split()) == expected.shape
        got = np.array([float(v) for v in match.group(3).split()])
        assert got.size == min(8, expected.size)
        np.testing.assert_allclose(got, expected.reshape(-1)[:8], rtol=1e-5, atol=1e-6)


def test_run_model_reports_the_last_error(tmp_path: Path) -> None:
    """A model that fails prints `error: <xrelay_last_error()>` and exits 1."""
    library = tmp_path / "failing.c"
    library.write_text(
        '#include "xrelay_runtime.h"\n'
        "int32_t xrelay_abi_version(void) { return XRELAY_ABI_VERSION; }\n"
        "int32_t xrelay_num_inputs(void) { return 0; }\n"
        "int32_t xrelay_num_outputs(void) { return 0; }\n"
        "const xrelay_tensor_info *xrelay_input_info(int32_t i) { (void)i; return 0; }\n"
        "const xrelay_tensor_info *xrelay_output_info(int32_t i) { (void)i; return 0; }\n"
        "xrelay_model *xrelay_model_create(void) { return 0; }\n"
        "int32_t xrelay_model_run(xrelay_model *m, const void *const *i, void *const *o) {\n"
        "  (void)m; (void)i; (void)o; return 1;\n}\n"
        "void xrelay_model_destroy(xrelay_model *m) { (void)m; }\n"
        'const char *xrelay_last_error(void) { return "no arena for you"; }\n'
    )
    cc = [*find_compiler().command, "-std=c11", "-Wall", "-Werror", "-I", str(runtime.INCLUDE_DIR)]
    subprocess.run(
        [*cc, "-shared", "-fPIC", str(library), "-o", "model.so"], cwd=tmp_path, check=True
    )
    subprocess.run([*cc, str(EXAMPLE), "./model.so", "-o", "run_model"], cwd=tmp_path, check=True)
    result = subprocess.run(["./run_model"], cwd=tmp_path, capture_output=True, text=True)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", "error: no arena for you\n")
