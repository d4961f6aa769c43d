"""xrelay-opt's start-up: what a run that needs no plugin, backend or --version imports,
and the garbage collector left as it was for an in-process caller (tools/opt.py)."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

RELAY_ONLY = """func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""

ACCEL = """func.func @f(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %0 = accel.relu %x : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  func.return %0 : tensor<1x4x8x8xf32>
}
"""

# Run the tool in a fresh interpreter, then list the modules it imported that a plain run
# does not need: plugin discovery's importlib.metadata and the backends' dialects.
SCRIPT = textwrap.dedent("""
    import sys
    from xrelay.tools.opt import main
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
    lazy = ("importlib.metadata", "xrelay.dialects.accel", "xrelay.dialects.dnnl")
    print(*[m for m in lazy if m in sys.modules], sep="\\n", file=sys.stderr)
""")


def imported(tmp_path: Path, text: str, *flags: str) -> tuple[str, list[str]]:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(path), *flags],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return result.stdout, result.stderr.split()


def test_a_relay_run_imports_neither_metadata_nor_the_backend_dialects(tmp_path: Path) -> None:
    out, lazy = imported(tmp_path, RELAY_ONLY)
    assert "relay.exp" in out
    assert lazy == []


def test_a_backend_dialect_loads_when_its_ops_are_parsed(tmp_path: Path) -> None:
    out, lazy = imported(tmp_path, ACCEL, "--print-op-generic")
    assert '"accel.relu"' in out
    assert lazy == ["xrelay.dialects.accel"]


def test_version_still_reads_the_installed_metadata(tmp_path: Path) -> None:
    out, lazy = imported(tmp_path, RELAY_ONLY, "--version")
    assert out.startswith("xrelay-opt (xrelay ")
    assert "unknown" not in out
    assert "importlib.metadata" in lazy


def test_in_process_main_leaves_the_collector_as_it_found_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xrelay.tools.opt import main

    path = tmp_path / "in.mlir"
    path.write_text(RELAY_ONLY)
    frozen = gc.get_freeze_count()
    with pytest.raises(SystemExit) as info:
        main([str(path)])
    assert info.value.code == 0
    assert "relay.exp" in capsys.readouterr().out
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen == 0
