"""docs/onnx.md's table of supported ops is the one the converter registry renders."""

from __future__ import annotations

from pathlib import Path

from xrelay.relay.frontend.onnx_docs import supported_ops_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "onnx.md"


def test_supported_ops_table_matches_the_registry() -> None:
    text = DOC.read_text()
    begin, end = "<!-- supported-ops:begin -->\n", "<!-- supported-ops:end -->"
    table = text[text.index(begin) + len(begin) : text.index(end)]
    assert table == supported_ops_table(), (
        "docs/onnx.md is stale: paste `python -m xrelay.relay.frontend.onnx_docs`"
    )


def test_table_lists_version_dispatch() -> None:
    table = supported_ops_table()
    assert "| Reshape | v1, v5 | 1-28 |" in table
    assert "| ReduceSum | v1, v13 | 1-28 |" in table
