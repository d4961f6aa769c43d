"""Installed plugins (`xrelay.plugins` entry points) load lazily, once, through every registry.

Each case runs in a fresh interpreter (loading happens at most once per
process) whose `sys.path` holds a tmp folder with a plugin module and a
`dist-info` declaring it, as `pip install` would leave them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

PLUGIN = '''
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.passes import ModulePass
from xdsl.utils.target import Target

from xrelay import byoc, ir, transform
from xrelay.ext import (
    CodegenTarget, FunctionEmitter, register_codegen, register_dialect, register_output_format,
)

LOADS = 1


@irdl_op_definition
class NopOp(IRDLOperation):
    name = "plug.nop"


register_dialect(Dialect("plug", [NopOp], []))


@transform.register_pass
class PlugPass(ModulePass):
    """Does nothing (a plugin's pass)."""

    name = "plug-pass"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


byoc.register_pattern_table("plugtable", lambda: [])
ir.register_op_attr("nn.relu", "target.plugpred", lambda expr: True)
register_codegen(CodegenTarget("plugcg", (), lambda o, f, s: FunctionEmitter(o, f, s)))


@dataclass(frozen=True)
class Words(Target):
    """Prints the op count."""

    name = "words"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(f"{len(list(module.walk()))} ops\\n")


register_output_format("words", lambda: Words)
'''

QUERIES = {
    "pass": "from xrelay.transform import get_pass; get_pass('PlugPass')",
    "dialect": "xrelay.parse('func.func @main() {\\n  \"plug.nop\"() : () -> ()\\n  func.return\\n}')",
    "codegen": "from xrelay.ext import get_codegen; assert get_codegen('plugcg') is not None",
    "pattern table": "from xrelay import byoc; assert byoc.get_pattern_table('plugtable') == []",
    "op predicate": (
        "from xrelay import byoc, relay; x = relay.var('x', shape=(2,));"
        "m = byoc.partition_for(xrelay.IRModule.from_expr(relay.Function([x], relay.nn.relu(x))),"
        " 'plugpred'); assert 'Compiler = \"plugpred\"' in m.astext()"
    ),
    "listing": "from xrelay.transform import registered_passes; "
    "assert 'plug-pass' in [e.flag for e in registered_passes()]",
}


def install(root: Path, module: str, source: str, value: str | None = None) -> None:
    """`module.py` and a dist-info declaring it as the entry point `name = value`."""
    (root / f"{module}.py").write_text(source)
    info = root / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[xrelay.plugins]\n{module} = {value or module}\n")


def run(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])
    )
    return subprocess.run(
        argv,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def plugin_root(tmp_path: Path) -> Path:
    install(tmp_path, "plugmod", PLUGIN)
    return tmp_path


@pytest.mark.parametrize("query", QUERIES)
def test_a_registry_miss_loads_installed_plugins_once(plugin_root: Path, query: str) -> None:
    script = textwrap.dedent(f"""
        import sys
        import xrelay
        from xrelay.plugins import discover, installed_plugins
        xrelay.parse('func.func @main() {{\\n  func.return\\n}}')
        assert 'plugmod' not in sys.modules, 'loaded before a miss'
        {QUERIES[query]}
        assert 'plugmod' in sys.modules, 'not loaded by the miss'
        assert 'plugmod = plugmod' in installed_plugins()  # beside examples/myacc's
        assert not discover()
        {QUERIES[query]}
        assert sys.modules['plugmod'].LOADS == 1
        print('ok')
    """)
    result = run(plugin_root, sys.executable, "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"


def test_tools_find_installed_passes_targets_and_formats(plugin_root: Path) -> None:
    listed = run(plugin_root, sys.executable, "-m", "xrelay.tools.opt", "--list-passes")
    assert "plug-pass (PlugPass): module pass" in listed.stdout
    formats = run(plugin_root, sys.executable, "-m", "xrelay.tools.opt", "--list-targets")
    assert "words: Prints the op count." in formats.stdout
    text = 'func.func @main() {\n  "plug.nop"() : () -> ()\n  func.return\n}\n'
    source = plugin_root / "in.mlir"
    source.write_text(text)
    for flag in ("plug-pass", "PlugPass"):
        printed = run(
            plugin_root, sys.executable, "-m", "xrelay.tools.opt", str(source), "-p", flag
        )
        assert printed.returncode == 0, printed.stderr
        assert '"plug.nop"() : () -> ()' in printed.stdout
    words = run(plugin_root, sys.executable, "-m", "xrelay.tools.opt", str(source), "-t", "words")
    assert words.stdout == "4 ops\n", words.stderr
    # mlir-opt's per-pass flag works for a plugin's pass, installed or loaded by path.
    opt = [sys.executable, "-m", "xrelay.tools.opt", str(source)]
    flagged = run(plugin_root, *opt, "-plug-pass")
    assert flagged.returncode == 0, flagged.stderr
    assert '"plug.nop"() : () -> ()' in flagged.stdout
    path = plugin_root / "byfile.py"
    path.write_text(
        "from xdsl.passes import ModulePass\nfrom xrelay import transform\n\n"
        "@transform.register_pass\nclass FilePass(ModulePass):\n"
        '    name = "file-pass"\n\n    def apply(self, ctx, op):\n        pass\n'
    )
    loaded = run(plugin_root, *opt, "--load-pass-plugin", str(path), "--file-pass")
    assert loaded.returncode == 0, loaded.stderr


def test_an_entry_point_function_is_called(tmp_path: Path) -> None:
    install(
        tmp_path, "setupmod", "CALLS = []\ndef setup():\n    CALLS.append(1)\n", "setupmod:setup"
    )
    script = (
        "import sys; from xrelay.plugins import load_installed_plugins as load;"
        "assert load() and not load(); print(sys.modules['setupmod'].CALLS)"
    )
    result = run(tmp_path, sys.executable, "-c", script)
    assert result.stdout == "[1]\n", result.stderr


def test_a_broken_plugin_is_one_error_line_naming_it(tmp_path: Path) -> None:
    install(tmp_path, "badmod", "raise RuntimeError('boom')\n")
    result = run(tmp_path, sys.executable, "-m", "xrelay.tools.opt", "-p", "no-such-pass")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(
        "error: cannot load plugin 'badmod' (badmod): RuntimeError: boom (at "
    )
    assert "Traceback" not in result.stderr
    # a run that never misses a registry never imports it
    ok = run(tmp_path, sys.executable, "-m", "xrelay.tools.opt", "-p", "fold-constant")
    assert ok.returncode == 0, ok.stderr


def test_the_builtin_backends_are_entry_points_loaded_on_first_use() -> None:
    points = {p.name: p.value for p in metadata.entry_points(group="xrelay.plugins")}
    assert points["accel"] == "xrelay.codegen.accel"
    assert points["dnnl"] == "xrelay.codegen.dnnl"
    script = textwrap.dedent("""
        import sys
        import xrelay.tools.opt_main
        import xrelay
        xrelay.parse('func.func @main() {\\n  func.return\\n}')
        # the tool and the parser need no code generator: none is imported at startup
        assert not [m for m in sys.modules if m.startswith('xrelay.codegen.')], 'eager'
        from xrelay.ext import get_codegen
        assert get_codegen('accel') is not None and get_codegen('dnnl') is not None
        print('ok')
    """)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.stdout == "ok\n", result.stderr


def test_a_broken_plugin_does_not_hide_the_others(tmp_path: Path) -> None:
    install(tmp_path, "aaa_badmod", "raise RuntimeError('boom')\n")  # sorts before accel
    script = (
        "from xrelay.plugins import PluginError, load_installed_plugins, installed_plugins\n"
        "try:\n    load_installed_plugins()\nexcept PluginError as e:\n    print(e)\n"
        "print(sorted(installed_plugins()))\n"
    )
    result = run(tmp_path, sys.executable, "-c", script)
    first, loaded = result.stdout.splitlines()
    assert first.startswith("cannot load plugin 'aaa_badmod' (aaa_badmod): RuntimeError: boom")
    assert "accel = xrelay.codegen.accel" in loaded
    assert "dnnl = xrelay.codegen.dnnl" in loaded
