"""Repository conventions that keep the project navigable (style.md 5.3)."""

from __future__ import annotations

import re
from pathlib import Path

from xrelay.passes import get_all_passes

ROOT = Path(__file__).resolve().parent.parent

# A directive without its colon silently checks nothing (`// CHECK foo`).
COLONLESS = re.compile(
    r"//\s*(CHECK|GENERIC|CSE|DCE|BOTH|ERR|WHOLE|PARSE|VERIFY|PASS|OPTION|PIPELINE|FLAG"
    r"|MISSING|TARGET|TARGETS|VERSION|BACK)"
    r"(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-[0-9]+)?\s+[^:\s]"
)


def test_registry_keys_are_pass_names() -> None:
    for name, factory in get_all_passes().items():
        assert factory().name == name


def test_no_filecheck_directive_lacks_its_colon() -> None:
    offenders: list[str] = []
    for path in (ROOT / "tests" / "filecheck").rglob("*.mlir"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if COLONLESS.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_colonless_check_is_detected() -> None:
    assert COLONLESS.search("// CHECK relay.add")
    assert COLONLESS.search("// CHECK-NEXT relay.add")
    assert not COLONLESS.search("// CHECK: relay.add")
    assert not COLONLESS.search("// CHECK-LABEL: func.func @f")


def test_every_filecheck_test_has_a_run_line() -> None:
    for path in (ROOT / "tests" / "filecheck").rglob("*.mlir"):
        if "Inputs" in path.parts:
            continue
        assert "// RUN:" in path.read_text(), path


def test_every_relay_op_has_a_docstring_and_reference_semantics() -> None:
    from xrelay.dialects.interpreter import has_reference
    from xrelay.dialects.relay import RELAY

    for op in RELAY.operations:
        assert (op.__doc__ or "").strip(), op.name
        if op.name != "relay.yield":
            assert has_reference(op), op.name


def test_every_relay_op_appears_in_a_round_trip_test() -> None:
    from xrelay.dialects.relay import RELAY

    text = "\n".join(
        p.read_text()
        for p in (ROOT / "tests" / "filecheck" / "dialects" / "relay").glob("ops*.mlir")
    )
    missing = [op.name for op in RELAY.operations if f"{op.name} " not in text]
    assert missing == []
