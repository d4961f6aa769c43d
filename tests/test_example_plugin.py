"""The example out-of-tree package (examples/myacc) uses only xrelay's public API.

Every `.py` file of the package (and of its tests) imports nothing but the
public modules `xrelay`, `xrelay.ext` (`.ops`, `.lit`), `xrelay.transform`,
`xrelay.byoc`, `xrelay.ir`, `xrelay.relay`, xDSL, numpy, the standard library,
pytest (tests only) and the package itself; and `scripts/setup` installs it
(its entry point is what the tools find).
"""

from __future__ import annotations

import ast
import sys
from importlib import metadata
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "myacc"
PUBLIC = {
    "xrelay",
    "xrelay.ext",
    "xrelay.ext.ops",
    "xrelay.ext.lit",
    "xrelay.transform",
    "xrelay.byoc",
    "xrelay.ir",
    "xrelay.relay",
}
OTHERS = ("xdsl", "numpy", "xrelay_myacc")


def allowed(module: str, in_tests: bool) -> bool:
    root = module.split(".")[0]
    return (
        module in PUBLIC
        or root in OTHERS
        or root in sys.stdlib_module_names
        or (in_tests and root == "pytest")
    )


def imported(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every import; `from xrelay import x` counts as `xrelay.x` too when
    `x` is a module."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative imports: use the package name"
            assert node.module is not None
            found.append((node.lineno, node.module))
            if node.module == "xrelay":
                found.extend((node.lineno, f"xrelay.{alias.name}") for alias in node.names)
    return found


def sources() -> list[Path]:
    files = sorted(p for p in EXAMPLE.rglob("*.py") if ".lit_out" not in p.parts)
    assert {p.name for p in files} >= {
        "dialect.py",
        "convert_relay_to_myacc.py",
        "codegen.py",
        "lit.cfg.py",
    }
    return files


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(EXAMPLE)))
def test_imports_only_public_modules(path: Path) -> None:
    in_tests = "tests" in path.relative_to(EXAMPLE).parts
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = [
        f"{path.name}:{line}: {module}"
        for line, module in imported(tree)
        if module != "__future__" and not allowed(module, in_tests)
    ]
    assert not bad, bad


def test_the_checker_rejects_internal_modules() -> None:
    tree = ast.parse(
        "from xrelay.dialects.relay.base import RelayOp\n"
        "from xrelay import codegen\n"
        "import xrelay.passes.lowering\n"
        "from xrelay.ext import ops\n"
    )
    rejected = [m for _, m in imported(tree) if not allowed(m, in_tests=False)]
    assert rejected == ["xrelay.dialects.relay.base", "xrelay.codegen", "xrelay.passes.lowering"]


def test_the_package_is_installed_with_its_entry_point() -> None:
    points = metadata.entry_points(group="xrelay.plugins")
    assert any(p.name == "myacc" and p.value == "xrelay_myacc" for p in points)
    files = metadata.distribution("xrelay-myacc").read_text("direct_url.json") or ""
    assert "examples/myacc" in files


REGISTRATIONS = [
    f"codegen/{target}/{module}.py"
    for target in ("accel", "dnnl")
    for module in ("__init__", "patterns", "op_support")
]
"""Where accel and dnnl register their code generator, pattern table and op predicates."""


def test_our_targets_register_through_the_public_api() -> None:
    # Dogfood (issue 17): our own targets use nothing an out-of-tree target could not.
    root = EXAMPLE.parent.parent
    for path in REGISTRATIONS:
        package = "xrelay." + str(Path(path).parent).replace("/", ".")
        for line, module in imported(ast.parse((root / path).read_text())):
            if module.startswith("xrelay"):
                assert module in PUBLIC or module.startswith(package), f"{path}:{line}: {module}"
