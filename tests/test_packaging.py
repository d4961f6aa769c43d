"""The built wheel maps the top-level folders into one `xrelay` namespace and runs."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build_wheel(out: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        cwd=out,
    )
    (wheel,) = out.glob("xrelay-*.whl")
    return wheel


def test_wheel_layout_and_import(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    assert "xrelay/dialects/relay/base.py" in names
    assert "xrelay/tools/run.py" in names
    assert "xrelay/passes/__init__.py" in names
    assert "xrelay/relay/__init__.py" in names
    # Nothing with a generic top-level name is installed.
    tops = {n.split("/")[0] for n in names}
    assert tops <= {"xrelay", next(t for t in tops if t.endswith(".dist-info"))}

    # A pure-Python wheel imports from the zip: run it away from the checkout.
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import numpy as np, xrelay\n"
        "from xrelay import relay, IRModule\n"
        "assert 'site-packages' not in xrelay.__file__ and sys.argv[1] in xrelay.__file__\n"
        "x = relay.var('x', shape=(2,))\n"
        "mod = IRModule.from_expr(relay.nn.relu(x))\n"
        "mod = xrelay.parse(str(mod))\n"
        "print(xrelay.evaluate(mod, np.array([-1.0, 2.0], 'float32')).tolist())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(wheel)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[0.0, 2.0]"


def test_checkout_imports_resolve_inside_the_repository() -> None:
    import xrelay.codegen
    import xrelay.dialects
    import xrelay.passes
    import xrelay.tools

    for module in (xrelay.dialects, xrelay.passes, xrelay.codegen, xrelay.tools):
        assert module.__file__ is not None
        assert Path(module.__file__).resolve().is_relative_to(ROOT)


def test_public_names_import_on_first_use_and_are_listed() -> None:
    import xrelay

    assert {"build", "relay", "IRModule", "transform"} <= set(dir(xrelay))
    from xrelay.dialects.ir_module import IRModule

    assert xrelay.IRModule is IRModule
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = xrelay.nope  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
