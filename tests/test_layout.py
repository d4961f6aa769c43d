"""Repository conventions that keep the project navigable (style.md 5.1, 5.3)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from xdsl.passes import ModulePass
from xrelay.passes import get_all_passes, kebab_case, registered_passes

ROOT = Path(__file__).resolve().parent.parent
FILECHECK = ROOT / "tests" / "filecheck"

# The folders pyproject.toml maps into the `xrelay` namespace: each must import from
# this checkout, not from some other installed distribution's `tools` or `passes`.
MAPPED = {
    "xrelay": "xrelay",
    "xrelay.dialects": "dialects",
    "xrelay.passes": "passes",
    "xrelay.codegen": "codegen",
    "xrelay.tools": "tools",
}

SUFFIXES = r"(?:-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-[0-9]+)?"
# The substitutions of lit.cfg.py that run filecheck, and the prefixes they check.
MACROS = {"XRELAY_ROUNDTRIP": {"CHECK"}, "XRELAY_GENERIC_ROUNDTRIP": {"GENERIC"}}


def filecheck_tests() -> list[Path]:
    """Every lit test (helper inputs under `Inputs/` and lit's outputs are not tests)."""
    return sorted(p for p in FILECHECK.rglob("*.mlir") if not {"Inputs", ".lit_out"} & set(p.parts))


def run_lines(text: str) -> list[str]:
    """The RUN commands of a test, with `\\` continuations joined."""
    commands: list[str] = []
    pending = ""
    for match in re.finditer(r"^\s*//\s*RUN:(.*)$", text, re.MULTILINE):
        part = match.group(1).strip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        commands.append(pending + part)
        pending = ""
    return commands


def active_prefixes(text: str) -> set[str]:
    """The check prefixes some RUN line of the test hands to filecheck."""
    prefixes: set[str] = set()
    for command in run_lines(text):
        for macro, implied in MACROS.items():
            if re.search(rf"\b{macro}\b", command):
                prefixes |= implied
        for stage in command.split("|"):
            if not re.search(r"\bfilecheck\b", stage):
                continue
            given = re.findall(r"--check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)", stage)
            if given:
                prefixes |= {p for group in given for p in group.split(",")}
            else:
                prefixes.add("CHECK")
    return prefixes


ALL_PREFIXES = {"CHECK"} | {p for t in filecheck_tests() for p in active_prefixes(t.read_text())}


def colonless(prefixes: set[str]) -> re.Pattern[str]:
    """`// CHECK foo`, `// CHECK-NEXT foo`: a directive without its colon checks nothing."""
    names = "|".join(sorted(map(re.escape, prefixes)))
    return re.compile(rf"//\s*(?:{names}){SUFFIXES}\s+[^:\s]")


def test_mapped_packages_resolve_inside_this_repository() -> None:
    for module_name, folder in MAPPED.items():
        module = importlib.import_module(module_name)
        assert module.__file__ is not None, module_name
        assert Path(module.__file__).resolve() == ROOT / folder / "__init__.py", module_name


def test_registry_keys_are_pass_names() -> None:
    passes = get_all_passes()
    assert {"canonicalize", "cse", "dce"} <= set(passes)
    for name, factory in passes.items():
        assert factory().name == name


# Pass-manager infrastructure in passes/: every other module there holds exactly one pass.
INFRASTRUCTURE = {
    "__init__",
    "accel_composites",
    "arena_sweep",
    "adapters",
    "annotated_regions",
    "byoc_registry",
    "combine_parallel",
    "dataflow_pattern",
    "debug_instruments",
    "decorators",
    "dnnl_composites",
    "dnnl_layout",
    "fold_scale_axis_fold",
    "greedy",
    "instrument",
    "lowering",
    "normal_form",
    "convert_layout_axes",
    "convert_layout_blocked",
    "fold_scale_axis_blocked",
    "layout_config",
    "op_pattern",
    "pass_config",
    "pass_context",
    "pass_manager",
    "rewriting",
    "simplify_algebra",
    "simplify_arith",
    "simplify_cast",
    "simplify_common",
    "simplify_inference_fold",
    "simplify_like",
    "simplify_transpose",
    "statistics",
    "target_lowering",
    "transaction",
    # the pattern language's matcher over builder expressions, rewrite and partition
    "dataflow_grouper",
    "dataflow_partition",
    "dataflow_pattern_expr",
    "dataflow_pattern_structural",
    "dataflow_rewrite",
}


def test_registered_names_and_flags_are_twins() -> None:
    for entry in registered_passes():
        assert kebab_case(entry.name) == entry.flag, entry


def test_every_pass_file_is_named_after_its_flag_and_has_its_filecheck_test() -> None:
    """style.md 5.3: `passes/<snake(flag)>.py` holds the pass, `tests/filecheck/passes/<same>.mlir`
    tests it with `-p <flag>` in a RUN line."""
    for entry in registered_passes():
        module = entry.factory().__module__
        if not module.startswith("xrelay.passes."):
            continue  # xDSL's own passes (cse, dce, canonicalize)
        stem = module.rsplit(".", 1)[-1]
        assert stem == entry.flag.replace("-", "_"), (module, entry.flag)
        test = FILECHECK / "passes" / f"{stem}.mlir"
        assert test.is_file(), test
        uses = re.compile(rf"-p\s+'?{re.escape(entry.flag)}\b")
        assert any(uses.search(command) for command in run_lines(test.read_text())), test


def test_one_pass_class_per_pass_file() -> None:
    for path in sorted((ROOT / "passes").glob("*.py")):
        if path.stem in INFRASTRUCTURE:
            continue
        module = importlib.import_module(f"xrelay.passes.{path.stem}")
        defined = [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, ModulePass)
            and value.__module__ == module.__name__
        ]
        assert len(defined) == 1, (path, defined)


def test_every_filecheck_test_has_a_run_line() -> None:
    for path in filecheck_tests():
        assert run_lines(path.read_text()), path


def test_no_filecheck_directive_lacks_its_colon() -> None:
    pattern = colonless(ALL_PREFIXES)
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in FILECHECK.rglob("*.mlir")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_no_directive_is_dead_or_misspelt() -> None:
    """A directive whose prefix no RUN line checks, or with an unknown suffix, checks nothing."""
    names = "|".join(sorted(map(re.escape, ALL_PREFIXES)))
    directive = re.compile(rf"//\s*({names})((?:-[A-Z0-9]+)*):")
    known_suffix = re.compile(rf"{SUFFIXES}$")
    offenders: list[str] = []
    for path in filecheck_tests():
        text = path.read_text()
        active = active_prefixes(text)
        for number, line in enumerate(text.splitlines(), 1):
            for match in directive.finditer(line):
                prefix, suffix = match.groups()
                if prefix not in active or not known_suffix.match(suffix):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert offenders == []


@pytest.mark.parametrize(
    ("line", "flagged"),
    [
        ("// CHECK relay.add", True),
        ("// CHECK-NEXT relay.add", True),
        ("//   CHECK-LABEL func.func @f", True),
        ('// GENERIC "relay.add"', True),
        ("// CHECK: relay.add", False),
        ("// CHECK-LABEL: func.func @f", False),
        ("// CHECK-COUNT-2: relay.add", False),
        ("// CHECK:", False),
    ],
)
def test_colonless_check_is_detected(line: str, flagged: bool) -> None:
    assert bool(colonless({"CHECK", "GENERIC"}).search(line)) == flagged


def test_prefixes_come_from_run_lines() -> None:
    text = (
        "// RUN: xrelay-opt %s | filecheck %s\n"
        "// RUN: xrelay-opt %s -p cse \\\n"
        "// RUN:   | filecheck %s --check-prefixes=A,B\n"
        "// RUN: xrelay-opt %s | filecheck %s --check-prefix C\n"
        "// RUN: XRELAY_GENERIC_ROUNDTRIP\n"
        "// RUN: xrelay-opt %s --verify-diagnostics\n"
    )
    assert active_prefixes(text) == {"CHECK", "A", "B", "C", "GENERIC"}


def test_every_relay_op_has_a_docstring_and_reference_semantics() -> None:
    from xrelay.dialects.interpreter import has_reference
    from xrelay.dialects.relay import RELAY

    for op in RELAY.operations:
        assert (op.__doc__ or "").strip(), op.name
        if op.name != "relay.yield":
            assert has_reference(op), op.name


def test_every_relay_op_appears_in_a_round_trip_test() -> None:
    from xrelay.dialects.relay import RELAY

    text = "\n".join(p.read_text() for p in (FILECHECK / "dialects" / "relay").glob("ops*.mlir"))
    missing = [op.name for op in RELAY.operations if f"{op.name} " not in text]
    assert missing == []
