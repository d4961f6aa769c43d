"""Port TVM's Relay pass tests to xrelay with only the mechanical changes a user migrating makes.

    python scripts/port_tvm_tests.py --tvm /path/to/tvm/.git --ref refs/tags/v0.19.0 \
        --out tests/tvm_compat --all-pass-tests

tests/tvm_compat holds the output of exactly this command; without `--all-pass-tests`, only the
ten files issue 18 names. Reads each test file at `ref` from TVM's git directory (`git show`)
and writes it under `--out` with TVM's license header kept and a line naming the tag. The
changes, and nothing else (issue 18):

- imports: `tvm` -> `xrelay` (`tvm.relay` -> `xrelay.relay`, `tvm.transform`, `tvm.ir`,
  `tvm.tir`, ...). An imported module or name xrelay does not provide (`tvm.te`, `tvm.topi`,
  the Relay prelude, QNN, ...; found by importing xrelay) is commented out as
  `# not ported (no xrelay counterpart): ...`, with TVM's text; so is a module-level statement,
  class or function whose definition needs one (a base class, a default value). A test that
  uses it fails by itself and has a line in the status file. Rerun the script when xrelay
  gains what was missing.
- `tvm.testing`: `assert_allclose` -> numpy's; `main()` -> `pytest.main([__file__])`;
  `@uses_gpu` dropped (the tests run on the CPU); `enabled_targets()` -> the C target on the
  CPU; `name = tvm.testing.parameter(a, b)` -> a parametrized pytest fixture.
- `tvm.nd.array(x)` -> `np.array(x)`, `.numpy()` dropped (xrelay's results are numpy arrays).
- the target string `"llvm"` -> `"c"` (xrelay's host C target).

The output depends only on the input files: rerunning on TVM's files gives the same bytes.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import functools
import importlib
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

TEST_DIR = "tests/python/relay"

ISSUE_FILES = (
    "test_dataflow_pattern.py",
    "test_pass_fold_constant.py",
    "test_pass_dead_code_elimination.py",
    "test_pass_eliminate_common_subexpr.py",
    "test_pass_simplify_inference.py",
    "test_pass_fuse_ops.py",
    "test_pass_convert_op_layout.py",
    "test_pass_merge_composite.py",
    "test_pass_partition_graph.py",
    "test_pass_manager.py",
)

# What xrelay provides is read from xrelay itself: `tvm.X` is available if `xrelay.X` imports
# (a name: if that module has it). So a rerun after xrelay grows restores what it now has.
UNPORTED_CALLS = ("import_from_std",)  # the Relay prelude (text format, ADTs)

HEADER_END = "# under the License.\n"
NOT_PORTED = "# not ported (no xrelay counterpart): "


def git_show(tvm_git: Path, ref: str, path: str) -> str:
    """The text of `path` at `ref` in the git directory `tvm_git`."""
    out = subprocess.run(
        ["git", "--git-dir", str(tvm_git), "show", f"{ref}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


def list_pass_tests(tvm_git: Path, ref: str) -> list[str]:
    """TVM's `tests/python/relay/test_pass_*.py` at `ref`, sorted."""
    out = subprocess.run(
        ["git", "--git-dir", str(tvm_git), "ls-tree", "--name-only", f"{ref}:{TEST_DIR}"],
        check=True,
        capture_output=True,
        text=True,
    )
    return sorted(n for n in out.stdout.split() if n.startswith("test_pass_") and n.endswith(".py"))


@functools.cache
def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _provided(module: str, name: str | None) -> bool:
    """Whether xrelay has TVM's `module` (and `name` in it)."""
    if not (module == "tvm" or module.startswith("tvm.")):
        return True
    target = _module(_rename(module))
    if target is None:
        return False
    if name is None or name == "*" or hasattr(target, name):
        return True
    return _module(f"{_rename(module)}.{name}") is not None


def _resolves(dotted: str) -> bool:
    """Whether `tvm.a.b` exists as `xrelay.a.b`."""
    parts = dotted.split(".")
    obj: object = _module("xrelay")
    for part in parts[1:]:
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _star_names(tree: ast.Module) -> set[str] | None:
    """Names the file's `from tvm... import *` bring from xrelay (None: no star import)."""
    names: set[str] | None = None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            target = _module(_rename(node.module or ""))
            names = names or set()
            if target is not None:
                names |= {n for n in dir(target) if not n.startswith("_")}
    return names


def _import_lines(node: ast.Import | ast.ImportFrom, indent: str) -> tuple[list[str], bool]:
    """The ported lines for one import statement, and whether anything was dropped."""
    kept: list[ast.alias] = []
    dropped: list[ast.alias] = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            ok = not alias.name.startswith("tvm") or _provided(alias.name, None)
            (kept if ok else dropped).append(alias)
        new: ast.stmt = ast.Import(names=[_rename_alias(a) for a in kept])
    else:
        module = node.module or ""
        for alias in node.names:
            ok = not module.startswith("tvm") or _provided(module, alias.name)
            (kept if ok else dropped).append(alias)
        new = ast.ImportFrom(module=_rename(module), names=kept, level=node.level)
    lines: list[str] = []
    if kept:
        lines.append(indent + ast.unparse(new))
    if dropped:
        old: ast.stmt = (
            ast.Import(names=dropped)
            if isinstance(node, ast.Import)
            else ast.ImportFrom(module=node.module, names=dropped, level=node.level)
        )
        lines.append(f"{indent}{NOT_PORTED}{ast.unparse(old)}")
        if not kept and indent:
            lines.append(f"{indent}pass")  # the block stays valid when it held only this
    return lines, bool(dropped)


def _rename(module: str) -> str:
    return "xrelay" + module[3:] if module == "tvm" or module.startswith("tvm.") else module


def _rename_alias(alias: ast.alias) -> ast.alias:
    return ast.alias(name=_rename(alias.name), asname=alias.asname)


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


# `tvm.` names the text rules and decorator rule replace: not missing from xrelay.
HANDLED = (
    "tvm.testing.assert_allclose",
    "tvm.testing.main",
    "tvm.testing.enabled_targets",
    "tvm.testing.uses_gpu",
    "tvm.testing.parameter",
    "tvm.nd.array",
)


def _handled(dotted: str) -> bool:
    return any(h == dotted or h.startswith(dotted + ".") for h in HANDLED)


def _definition_time_parts(stmt: ast.stmt) -> list[ast.AST]:
    """What Python evaluates when it runs `stmt` at module level (not a def's body)."""
    if isinstance(stmt, ast.FunctionDef):
        args = stmt.args
        return [*stmt.decorator_list, *args.defaults, *[d for d in args.kw_defaults if d]]
    if isinstance(stmt, ast.ClassDef):
        return [*stmt.decorator_list, *stmt.bases, *[k.value for k in stmt.keywords]]
    return [stmt]


def _uses_unported(stmt: ast.stmt, dropped: set[str], undefined: set[str]) -> bool:
    """Whether running `stmt` at module level needs something xrelay lacks."""
    for part in _definition_time_parts(stmt):
        for node in ast.walk(part):
            if isinstance(node, ast.Name) and (node.id in dropped or node.id in undefined):
                return True
            if isinstance(node, ast.Attribute):
                if node.attr in UNPORTED_CALLS:
                    return True
                dotted = _dotted(node)
                missing = dotted and dotted.startswith("tvm.") and not _handled(dotted)
                if missing and not _resolves(dotted or ""):
                    return True
    return False


def _undefined_names(tree: ast.Module) -> set[str]:
    """Names a file with a star import uses at module level that neither it nor xrelay defines.

    Without a star import every name is accounted for by the import rules.
    """
    star = _star_names(tree)
    if star is None:
        return set()
    defined = set(dir(builtins)) | star
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.ClassDef):
            defined.add(stmt.name)
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            defined |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
        else:
            defined |= set(_assigned_names(stmt))
    used = {
        node.id
        for stmt in tree.body
        for part in _definition_time_parts(stmt)
        for node in ast.walk(part)
        if isinstance(node, ast.Name)
    }
    return used - defined


def _parameter_fixture(stmt: ast.stmt) -> list[str] | None:
    """`name = tvm.testing.parameter(a, b)` as a parametrized pytest fixture."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return None
    target, value = stmt.targets[0], stmt.value
    if not (
        isinstance(target, ast.Name)
        and isinstance(value, ast.Call)
        and _dotted(value.func) == "tvm.testing.parameter"
    ):
        return None
    params = ", ".join(ast.unparse(a) for a in value.args)
    return [
        f"@pytest.fixture(params=[{params}])",
        f"def {target.id}(request):",
        "    return request.param",
    ]


class _Edits:
    """Line-range replacements, applied bottom-up."""

    def __init__(self) -> None:
        self.items: list[tuple[int, int, list[str]]] = []

    def replace(self, first: int, last: int, lines: list[str]) -> None:
        self.items.append((first, last, lines))

    def apply(self, lines: list[str]) -> list[str]:
        """The edited lines; an edit inside another one's range (an import inside a function
        that is commented out whole) gives way to it."""
        items = sorted(self.items, key=lambda e: (e[0], -e[1]))
        kept: list[tuple[int, int, list[str]]] = []
        for item in items:
            if kept and item[1] <= kept[-1][1] and item[0] >= kept[-1][0]:
                continue
            kept.append(item)
        out = list(lines)
        for first, last, new in reversed(kept):
            out[first - 1 : last] = [line + "\n" for line in new]
        return out


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _port_imports(tree: ast.Module, lines: list[str], edits: _Edits) -> set[str]:
    """Import edits and dropped `@tvm.testing.uses_gpu`; returns the names no longer bound."""
    dropped_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            for deco in node.decorator_list:
                if _dotted(deco) == "tvm.testing.uses_gpu":
                    edits.replace(deco.lineno, deco.end_lineno or deco.lineno, [])
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        new, any_dropped = _import_lines(node, _indent_of(lines[node.lineno - 1]))
        if any_dropped or new != [lines[node.lineno - 1].rstrip("\n")]:
            edits.replace(node.lineno, node.end_lineno or node.lineno, new)
        for alias in node.names:
            bound = alias.asname or alias.name
            if "." not in bound and not _provided(_module_of(node, alias), _name_of(node, alias)):
                dropped_names.add(bound)  # `import tvm.x` leaves `tvm` bound
    return dropped_names


def port_structure(source: str) -> str:
    """Imports, module-level statements, `tvm.testing` decorators and fixtures."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits = _Edits()
    dropped_names = _port_imports(tree, lines, edits)
    undefined = _undefined_names(tree)
    for stmt in tree.body:
        # imports and `if __name__ == "__main__":` are ported by the other rules
        if isinstance(stmt, ast.Import | ast.ImportFrom | ast.If):
            continue
        decorators = stmt.decorator_list if isinstance(stmt, ast.FunctionDef | ast.ClassDef) else []
        first = min([stmt.lineno, *(d.lineno for d in decorators)])
        last = stmt.end_lineno or stmt.lineno
        fixture = _parameter_fixture(stmt)
        if fixture is not None:
            edits.replace(first, last, fixture)
        elif _uses_unported(stmt, dropped_names, undefined):
            old = lines[first - 1 : last]
            edits.replace(first, last, [(NOT_PORTED + ln).rstrip() for ln in old])
            dropped_names.update(_assigned_names(stmt))
    return "".join(edits.apply(lines))


def _module_of(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    return alias.name if isinstance(node, ast.Import) else node.module or ""


def _name_of(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> str | None:
    return None if isinstance(node, ast.Import) else alias.name


def _assigned_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.FunctionDef | ast.ClassDef):
        return [stmt.name]
    return []


def _add_import(text: str, line: str) -> str:
    """Insert `line` before the first import after the license header."""
    start = text.find(HEADER_END)
    start = 0 if start < 0 else start + len(HEADER_END)
    match = re.compile(r"^(import|from) ", re.M).search(text, start)
    at = match.start() if match else start
    return text[:at] + line + "\n" + text[at:]


# Rewrites on the code's text, in order; each one a user migrating would do by hand.
TEXT_RULES: Sequence[tuple[str, str]] = (
    (r"\btvm\.testing\.assert_allclose\(", "np.testing.assert_allclose("),
    (r"\btvm\.testing\.main\(\)", "pytest.main([__file__])"),
    (r"\btvm\.testing\.enabled_targets\(\)", '[("c", xrelay.cpu(0))]'),
    (r"\btvm\.nd\.array\(", "np.array("),
    (r"\.numpy\(\)", ""),
    (r"\btvm\.", "xrelay."),
    (r'"llvm"', '"c"'),
)


def port_text(text: str) -> str:
    """The ported file: structure first, then the text rules on the code."""
    lines = port_structure(text).splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.lstrip().startswith(NOT_PORTED.rstrip()):
            continue  # keeps TVM's own text
        for pattern, repl in TEXT_RULES:
            line = re.sub(pattern, repl, line)
        lines[i] = line
    out = "".join(lines)
    if "np." in out and not re.search(r"^import numpy as np$", out, re.M):
        out = _add_import(out, "import numpy as np")
    if "pytest." in out and not re.search(r"^import pytest$", out, re.M):
        out = _add_import(out, "import pytest")
    return out


def port_file(source: str, name: str, ref: str) -> str:
    """`source` ported, with a line after TVM's license header saying how and from where."""
    note = (
        f"# Ported mechanically from TVM {ref.rsplit('/', 1)[-1]} ({TEST_DIR}/{name}) by\n"
        "# scripts/port_tvm_tests.py: only the rules listed there were applied.\n"
    )
    ported = port_text(source)
    at = ported.find(HEADER_END)
    if at < 0:
        return note + ported
    at += len(HEADER_END)
    return ported[:at] + note + ported[at:]


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description="Port TVM's Relay pass tests to xrelay.")
    parser.add_argument("--tvm", type=Path, required=True, help="TVM's git directory")
    parser.add_argument("--ref", default="refs/tags/v0.19.0")
    parser.add_argument("--out", type=Path, default=Path("tests/tvm_compat"))
    parser.add_argument(
        "--all-pass-tests", action="store_true", help="also TVM's other test_pass_*.py files"
    )
    args = parser.parse_args(argv)
    names = list(ISSUE_FILES)
    if args.all_pass_tests:
        names += [n for n in list_pass_tests(args.tvm, args.ref) if n not in names]
    args.out.mkdir(parents=True, exist_ok=True)
    for name in names:
        try:
            source = git_show(args.tvm, args.ref, f"{TEST_DIR}/{name}")
        except subprocess.CalledProcessError as exc:
            print(f"error: cannot read {name} at {args.ref}: {exc.stderr.strip()}", file=sys.stderr)
            return 1
        (args.out / name).write_text(port_file(source, name, args.ref))
        print(f"{name}: ported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
