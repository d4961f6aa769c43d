"""The conformance harness itself: strict comparison with the expected-failure list."""

from __future__ import annotations

from pathlib import Path

import pytest
from xrelay.tools.onnx_conformance import (
    Result,
    category,
    collect,
    compare,
    read_expected,
    run_case,
    summary,
    write_expected,
)


def test_compare_is_strict_both_ways() -> None:
    results = [
        Result("test_a", True),
        Result("test_b", False, "OnnxImportError: unsupported op Foo"),
        Result("test_c", True),
        Result("test_d", False, "AssertionError: wrong values (Mismatched elements: 1 / 4)"),
    ]
    expected = {"test_b": "unsupported op Foo", "test_c": "was failing", "test_gone": "x"}
    problems = compare(results, expected)
    assert problems == [
        "test_c: passes now; remove it from the expected-failure list",
        "test_d: fails (AssertionError: wrong values (Mismatched elements: 1 / 4)); "
        "it is not an expected failure",
        "test_gone: listed as an expected failure but the suite has no such case",
    ]
    assert compare(results[:2], {"test_b": "r"}) == []


def test_expected_list_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "expected.txt"
    results = [Result("test_x", False, "E: why: with colons"), Result("test_y", True)]
    write_expected(path, "c", results)
    assert read_expected(path) == {"test_x": "E: why: with colons"}
    assert "1 of 2 cases fail" in path.read_text()


def test_malformed_expected_line_is_located(tmp_path: Path) -> None:
    path = tmp_path / "expected.txt"
    path.write_text("# comment\n\nnot a case line\n")
    with pytest.raises(ValueError, match=r"expected.txt:3: expected 'test_name: reason'"):
        read_expected(path)


def test_summary_groups_reasons() -> None:
    results = [
        Result("test_a", False, "AssertionError: wrong values (Mismatched elements: 1 / 4)"),
        Result("test_b", False, "AssertionError: wrong values (Mismatched elements: 3 / 4)"),
        Result("test_c", False, "crashed: timeout"),
    ]
    assert category(results[0].reason) == "wrong values"
    table = summary(results)
    assert "| 2 | wrong values |" in table
    assert "| 1 | crash or timeout |" in table


def test_collect_finds_the_suite() -> None:
    cases = collect(pattern="^test_(abs|operator_add_broadcast)$")
    assert [c.name for c in cases] == ["test_abs", "test_operator_add_broadcast"]
    assert {c.kind for c in cases} == {"node", "pytorch-operator"}
    assert all(c.data_sets for c in cases)


def test_cflags_reach_every_c_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # scripts/conformance builds at -O1; the flags must reach the compiler (last, so they win).
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(tmp_path))
    (case,) = collect(pattern="^test_abs$")
    assert run_case(case, "c", ["-O1"]).passed
    broken = run_case(case, "c", ["-include", "xr_no_such_header.h"])
    assert not broken.passed
    assert "BuildError" in broken.reason
