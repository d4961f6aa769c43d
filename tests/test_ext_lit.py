"""`xrelay.ext.lit.configure`: an out-of-tree lit suite in three lines of `lit.cfg.py`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CONFIG = """from xrelay.ext.lit import configure

configure(config, lit_config, __file__, plugins=["plugins/tagger.py", "namer"], pythonpath=["lib"])
"""

TAGGER = """
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xdsl.passes import ModulePass
from xrelay import transform


@transform.register_pass
class TagFunctions(ModulePass):
    name = "tag-functions"

    def apply(self, ctx, op):
        for f in op.walk():
            if isinstance(f, func.FuncOp):
                f.attributes["tagged"] = StringAttr("yes")
"""

NAMER = """
from xdsl.passes import ModulePass
from xrelay import transform


@transform.register_pass
class SayName(ModulePass):
    name = "say-name"

    def apply(self, ctx, op):
        print("module", op.name)
"""

PASSING = """// RUN: xrelay-opt %s -p tag-functions,say-name | filecheck %s --check-prefix=TAG
// TAG: module builtin.module
// TAG: func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> attributes {tagged = "yes"}
// RUN: XRELAY_ROUNDTRIP
// CHECK: func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
// RUN: xrelay-run %s | filecheck %s --check-prefix=EXEC
// EXEC: output0: float32[2] min=0 max=0 mean=0
// RUN: echo XRELAY_PLUGINS | filecheck %s --check-prefix=FLAGS
// FLAGS: --load-plugin {{.*}}/plugins/tagger.py --load-plugin namer
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
"""

FAILING = """// RUN: xrelay-opt %s -p tag-functions | filecheck %s
// CHECK: tagged = "no"
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
"""


def lit(suite: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).parent / "lit"), "-v", str(suite)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def make_suite(root: Path, tests: dict[str, str]) -> Path:
    (root / "plugins").mkdir(parents=True)
    (root / "lib").mkdir()
    (root / "Inputs").mkdir()
    (root / "lit.cfg.py").write_text(CONFIG)
    (root / "plugins" / "tagger.py").write_text(TAGGER)
    (root / "lib" / "namer.py").write_text(NAMER)
    (root / "Inputs" / "not_a_test.mlir").write_text("// RUN: false\n")
    for name, text in tests.items():
        (root / name).write_text(text)
    return root


def test_an_out_of_tree_suite_runs_with_its_plugins(tmp_path: Path) -> None:
    suite = make_suite(tmp_path / "suite", {"tag.mlir": PASSING})
    result = lit(suite)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: suite :: tag.mlir" in result.stdout
    assert "Inputs" not in result.stdout  # helper inputs are not tests
    assert (suite / ".lit_out").is_dir()


def test_a_wrong_check_fails(tmp_path: Path) -> None:
    suite = make_suite(tmp_path / "suite", {"wrong.mlir": FAILING})
    result = lit(suite)
    assert result.returncode == 1
    assert "FAIL: suite :: wrong.mlir" in result.stdout
