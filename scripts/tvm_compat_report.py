"""Pass rate of TVM's ported Relay tests (tests/tvm_compat), per file.

    python scripts/tvm_compat_report.py                 # run pytest, print the table
    python scripts/tvm_compat_report.py --write-status  # and rewrite status.txt from the run
    python scripts/tvm_compat_report.py --write-status --refresh-reasons  # errors re-read
    python scripts/tvm_compat_report.py --xml run.xml   # read an earlier run's junit XML

The run sets `XRELAY_TVM_COMPAT_RAW=1`: status.txt's xfail lines are ignored, its `na`
lines still skip. A test counts as applicable unless it is `na`; it passes if pytest says so.
`--write-status` keeps every `na` line and the reason of every xfail line whose test still
fails, drops the lines of tests that now pass, and adds a line for each new failure: `na`
when the test needs something xrelay deliberately lacks (found in the test's source), else
`xfail` with the error's first line (reword it into a category by hand).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tests" / "tvm_compat"
STATUS = SUITE / "status.txt"

# Source markers of what xrelay deliberately lacks -> the reason (first match wins).
NOT_APPLICABLE: Sequence[tuple[str, str]] = (
    (r"relay\.parse\(|fromtext|import_from_std|\bmetatable\b|\bcore\b", "Relay text parser"),
    (r"relay\.vm\b|VMCompiler", "the Relay VM"),
    (r"\bqnn\b", "QNN"),
    (r"cuda|opencl|metal|\bgpu\b", "GPU targets"),
    (
        r"relay\.Let\b|relay\.let\b|Prelude|RefCreate|RefRead|RefWrite|relay\.Match|TypeData",
        "let/ADT/references",
    ),
    (r"\bte\.|topi|\bT\.", "TVM's TE/TOPI/TIR compute"),
    (r"on_device|VirtualDevice|device_copy", "heterogeneous devices (on_device)"),
    (r"quantize|QAnnotateKind", "relay.quantize"),
    (
        r"\bExecutor\(|\bRuntime\(|te_compiler|graph_executor|\butils\.tempdir|export_library",
        "TVM's executors and runtime modules",
    ),
    (
        r"inception_v3|create_workload|relay\.testing\.(resnet|mobilenet|byoc|inception)|\bbyoc\.",
        "TVM's model zoo (relay.testing)",
    ),
)


# Error messages of applicable failures -> the category their xfail reason starts with, so
# the helper fixing one finds its lines with grep (first match wins).
CATEGORIES: Sequence[tuple[str, str]] = (
    (r"expected \d-D \w+, got rank 0|expected data of rank|element type f64 does", "untyped var"),
    (
        r"'Function' object has no attribute 'inferred_type'|cannot emit Function|"
        r"'Function' object is not callable|'GlobalVar' object has no attribute 'inferred_type'|"
        r"the type of @\S+ is unknown",
        "function callee",
    ),
    (
        r"name '(dominates|FunctionPattern|DFPatternCallback|rewrite|is_let|is_if|"
        r"BatchnormCallback)' is not defined|'CallPattern' object has no attribute|"
        r"cannot match a Op",
        "pattern:",
    ),
    (r"unsupported data layout|OIHW\d+i\d+o", "layout:"),
    (
        r"StructuralEqual check failed: (ops differ: \S+ vs layout_transform|ops differ: "
        r"nn\.bias_add vs add|ops differ: topk vs tuple|attributes of (sum|argmax) differ)",
        "layout: ConvertLayout differs from TVM's:",
    ),
    (r"module functions differ: \['fused_", "function callee"),
    (
        r"'relay\.(shape_of|ndarray_size)' dtype must be an integer|'relay\.left_shift' expected "
        r"an integer",
        "op: TVM allows it:",
    ),
    (r"type object '\w+Op' has no attribute 'checked_type'", "pattern:"),
    (
        r"cannot unpack an expression of type tensor|must be static|'relay\.if' branches have "
        r"different types",
        "op: dynamic value (an expression where xrelay needs a static one)",
    ),
    (
        r"'GlobalVar' object has no attribute 'checked_type'|'Var' object is not callable",
        "function callee",
    ),
    (r"ByocError: unknown target", "api: AnnotateTarget refuses a target with no registered ops:"),
    (r"'relay\.tuple_get_item' expected a tuple operand, got tensor<f32>", "untyped var"),
    (r"expected 4-D data, got rank 5", "layout: blocked (5-D) data:"),
    (
        r"relay\.backend\.use_auto_scheduler|assert not \[PassTimingInstrument\]",
        "pass manager:",
    ),
    (r"StructuralEqual check failed", "pass: result differs from TVM's:"),
    (
        r"'xrelay\.relay\.transform' has no attribute|name '\w+' is not defined.*Pass|"
        r"name 'FastMath'",
        "pass:",
    ),
    (
        r"module 'xrelay\.relay(\.\w+)?' has no attribute '(?!parse|ScopeBuilder)\w+'|"
        r"unknown op '",
        "op:",
    ),
)
NOT_APPLICABLE_ERRORS: Sequence[tuple[str, str]] = (
    (r"has no attribute '(parse|fromtext)'", "Relay text parser"),
    (
        r"has no attribute '(ScopeBuilder|Let|RefCreate|RefRead|TypeData|Match|Clause)'|"
        r"name 'Prelude' is not defined",
        "let/ADT/references",
    ),
    (r"has no attribute 'qnn'", "QNN"),
    (r"has no attribute 'quantize'", "relay.quantize"),
    (r"name 'TempOpAttr' is not defined", "TVM's op attribute registry (TempOpAttr, TOPI)"),
    (r"name '(CPU|GPU|HOST)\w*' is not defined|VirtualDevice", "heterogeneous devices"),
    (
        r"has no attribute '(TypeVar|GlobalTypeVar|TypeRelation|IncompleteType|TypeCall)'",
        "type-level Relay (type variables, polymorphism)",
    ),
    (
        r"name 'gradient' is not defined|has no attribute '(gradient|LazyGradientInit)'",
        "automatic differentiation (built on references and ADTs)",
    ),
    (
        r"'xrelay\.runtime' has no attribute|has no attribute 'get_global_func'",
        "TVM's runtime objects and packed functions",
    ),
    (r"'xrelay\.relay\.op' has no attribute 'contrib'", "TVM's contrib BYOC backends"),
    (r"'xrelay\.relay\.testing' has no attribute", "TVM's model zoo (relay.testing)"),
    (r"module 'xrelay' has no attribute 'target'", "TVM's Target contexts"),
    (
        r"name 'check_result' is not defined",
        "TVM's executors and runtime modules (check_result runs TVM's graph executor)",
    ),
    (
        r"name '(check_grad|rand)' is not defined|unsupported dtype 'uint1'",
        "automatic differentiation (built on references and ADTs)",
    ),
    (r"name 'TypeVar' is not defined", "type-level Relay (type variables, polymorphism)"),
    (r"name 'to_cps' is not defined", "let/ADT/references"),
    (r"name 'Feature' is not defined", "TVM's IR feature analysis (let-bound programs)"),
)


@dataclass(frozen=True)
class Result:
    """One test's outcome in a run."""

    key: str  # file::test[params]
    outcome: str  # passed, failed, skipped
    message: str


def run_pytest(xml: Path, workers: str) -> None:
    """Run the suite raw (xfail lines ignored) into junit XML."""
    env = dict(os.environ, XRELAY_TVM_COMPAT_RAW="1")
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", workers, "-p", "no:cacheprovider"]
    cmd += [f"--junitxml={xml}", str(SUITE)]
    subprocess.run(cmd, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL)


def read_results(xml: Path) -> list[Result]:
    """Every test case in a junit XML file."""
    out: list[Result] = []
    for case in ET.parse(xml).getroot().iter("testcase"):
        # classname: tests.tvm_compat.<file>[.<TestClass>]; status keys name the file
        parts = case.get("classname", "").split(".")
        module = next((p for p in parts if p.startswith("test_")), parts[-1])
        key = f"{module}.py::{case.get('name', '')}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", child.get("message", "") or (child.text or "")
            elif child.tag == "skipped":
                outcome, message = "skipped", child.get("message", "")
        out.append(Result(key, outcome, message))
    return out


def read_status_lines() -> dict[str, tuple[str, str]]:
    """status.txt as key -> (kind, reason)."""
    out: dict[str, tuple[str, str]] = {}
    if STATUS.exists():
        for line in STATUS.read_text().splitlines():
            match = re.fullmatch(r"(\S.*?) {2,}(na|xfail|slow) {2,}(\S.*)", line.strip())
            if match is not None and not line.startswith("#"):
                out[match[1]] = (match[2], match[3])
    return out


def test_sources() -> dict[str, str]:
    """`file::function` -> the function's source, for every ported file."""
    out: dict[str, str] = {}
    for path in sorted(SUITE.glob("test_*.py")):
        text = path.read_text()
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef):
                out[f"{path.name}::{node.name}"] = ast.get_source_segment(text, node) or ""
    return out


def classify(result: Result, sources: dict[str, str]) -> tuple[str, str]:
    """A new failure's status line: (kind, reason)."""
    source = sources.get(result.key.split("[", 1)[0], "")
    for pattern, reason in NOT_APPLICABLE:
        if re.search(pattern, source):
            return "na", reason
    first = result.message.strip().splitlines()[0] if result.message.strip() else "failed"
    first = re.sub(r"\s+", " ", re.sub(r"^[\w.]+\.(\w+(Error|Exception))", r"\1", first))
    for pattern, reason in NOT_APPLICABLE_ERRORS:
        if re.search(pattern, first):
            return "na", reason
    for pattern, category in CATEGORIES:
        if re.search(pattern, first):
            return "xfail", f"{category} {first}"[:160]
    return "xfail", first[:160]


def _recorded_error(reason: str) -> bool:
    """Whether an xfail reason quotes an error (written by `classify`), not a person's words."""
    quoted = r"\b\w+(Error|Exception)\b|StructuralEqual check failed|assert "
    return re.search(quoted, reason) is not None


def write_status(results: list[Result], refresh: bool = False) -> None:
    """Rewrite status.txt from a run (see the module docstring); `refresh`: reasons that
    quote an error are reclassified from this run's error (hand-written ones are kept)."""
    old = read_status_lines()
    sources = test_sources()
    lines = [
        "# TVM's ported tests that do not pass in CI: file::test  na|xfail|slow  reason",
        "# na: needs what xrelay deliberately lacks (skipped); xfail: applicable, fails today;",
        "# slow: applicable and passing, too slow for CI (skipped there; this report runs it)",
        "# (strict: remove the line when it passes). Regenerate: scripts/tvm_compat_report.py",
    ]
    for result in results:
        previous = old.get(result.key)
        if previous is not None and previous[0] == "na":
            kind, reason = previous
        elif previous is not None and previous[0] == "slow" and result.outcome == "passed":
            kind, reason = previous  # applicable and passing; skipped in CI for time
        elif result.outcome == "failed":
            stale = previous is not None and refresh and _recorded_error(previous[1])
            keep = previous is not None and not stale
            kind, reason = previous if keep and previous else classify(result, sources)
        else:
            continue
        lines.append(f"{result.key}  {kind}  {reason}")
    STATUS.write_text("\n".join(lines) + "\n")


def table(results: list[Result]) -> str:
    """Per file: tests, not applicable, applicable, passing, pass rate."""
    per_file: dict[str, list[int]] = {}
    for result in results:
        row = per_file.setdefault(result.key.split("::", 1)[0], [0, 0, 0])
        if result.outcome == "skipped":
            row[0] += 1
        else:
            row[1] += 1
            row[2] += result.outcome == "passed"
    rows = ["| file | not applicable | applicable | pass | rate |", "|---|---:|---:|---:|---:|"]
    totals = [0, 0, 0]
    for name in sorted(per_file, key=lambda n: (-per_file[n][1], n)):
        na, applicable, passed = per_file[name]
        totals = [totals[0] + na, totals[1] + applicable, totals[2] + passed]
        rows.append(f"| {name} | {na} | {applicable} | {passed} | {_rate(passed, applicable)} |")
    na, applicable, passed = totals
    rows.append(f"| all | {na} | {applicable} | {passed} | {_rate(passed, applicable)} |")
    return "\n".join(rows)


def _rate(passed: int, applicable: int) -> str:
    return f"{100 * passed / applicable:.0f}%" if applicable else "-"


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description="Pass rate of TVM's ported Relay tests.")
    parser.add_argument("--xml", type=Path, help="read this junit XML instead of running pytest")
    parser.add_argument("--write-status", action="store_true", help="rewrite status.txt")
    parser.add_argument(
        "--refresh-reasons",
        action="store_true",
        help="with --write-status: reasons that quote an error are taken from this run",
    )
    parser.add_argument("-n", default="0", help="pytest-xdist workers (default 0)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        xml = args.xml
        if xml is None:
            xml = Path(tmp) / "tvm_compat.xml"
            run_pytest(xml, args.n)
        if not xml.exists():
            print(f"error: no pytest results at {xml}", file=sys.stderr)
            return 1
        results = read_results(xml)
    if any(r.key.startswith("pytest.py::") for r in results):  # pytest's own failure
        print("error: pytest failed internally; run the suite by hand to see why", file=sys.stderr)
        return 1
    if args.write_status:
        write_status(results, refresh=args.refresh_reasons)
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
